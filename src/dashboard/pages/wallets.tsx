import { Hono } from "hono";
import { isServiceError } from "../../lib/errors";
import type { DashboardContext, DashboardDeps, DashboardEnv } from "../context";
import { limitsFromForm, RulesFormError, type RulesForm } from "../escrow";
import { CsrfField, Empty, Notice } from "../views/components";
import { noticeFrom, render, seeOther } from "../views/render";
import { WhoMayLoosenForm } from "./wallet-rule-changes";
import { WalletCards } from "./escrow-widgets";
import type { CreateWalletInput } from "../../wallets/schemas";

interface CreateForm extends RulesForm {
  chain: string;
  mode: string;
}

const unavailable = (served: { key: string }[]) => {
  const names = ALL_CHAINS.filter((c) => !served.some((s) => s.key === c.key)).map((c) => c.name);
  return names.length ? names.join(" and ") : null;
};

const BLANK: CreateForm = { name: "", chain: "base", mode: "safe", mandate: "", maxPerTxUsd: "", dailyCapUsd: "", tokenAllowlist: "", recipientAllowlist: "" };

/** The limit fields, shared by the create and the edit forms. */
export function LimitFields(p: { f: RulesForm }) {
  return (
    <fieldset>
      <legend>Limits (checked against the simulation before the judge runs; leave blank for none)</legend>
      <div class="grid2">
        <div class="stack">
          <label for="maxPerTxUsd">Per-transaction cap (USD)</label>
          <input id="maxPerTxUsd" name="maxPerTxUsd" inputmode="decimal" value={p.f.maxPerTxUsd} />
        </div>
        <div class="stack">
          <label for="dailyCapUsd">Daily cap, rolling 24 h (USD)</label>
          <input id="dailyCapUsd" name="dailyCapUsd" inputmode="decimal" value={p.f.dailyCapUsd} />
        </div>
      </div>
      <label for="tokenAllowlist">Allowed tokens (one per line: ETH, USDC, or a 0x token address)</label>
      <textarea id="tokenAllowlist" name="tokenAllowlist" rows={2} class="mono">
        {p.f.tokenAllowlist}
      </textarea>
      <label for="recipientAllowlist">Allowed recipients (one 0x address per line)</label>
      <textarea id="recipientAllowlist" name="recipientAllowlist" rows={2} class="mono">
        {p.f.recipientAllowlist}
      </textarea>
    </fieldset>
  );
}

/** The chains this page offers (those the deployment serves); a family not served is named as unavailable. */
const ALL_CHAINS = [
  { key: "base", name: "Base" },
  { key: "solana", name: "Solana" },
  { key: "starknet", name: "Starknet" },
];

function NewWalletForm(p: { csrf: string; f: CreateForm; chains: { key: string; name: string; safeMode: boolean }[]; error?: string }) {
  const f = p.f;
  const noSafe = p.chains.filter((c) => !c.safeMode);
  return (
    <>
      {p.error && <Notice kind="error">{p.error}</Notice>}
      <form method="post" action="/dashboard/wallets/new" class="stack card">
        <CsrfField token={p.csrf} />
        <label for="name">Name (unique on this account; agents can use it in place of the id)</label>
        <input id="name" name="name" required maxlength={64} value={f.name} />
        <label for="chain">Chain</label>
        <select id="chain" name="chain">
          {p.chains.map((ch) => (
            <option value={ch.key} selected={ch.key === f.chain}>
              {ch.name}
            </option>
          ))}
        </select>
        {unavailable(p.chains) && <p class="help">{unavailable(p.chains)} wallets are not available on this deployment.</p>}
        {noSafe.length > 0 && (
          <p class="help">
            Safe mode is not available on {noSafe.map((c) => c.name).join(", ")}: create those wallets autonomous. Their named transfers always wait for your
            confirmation.
          </p>
        )}
        <fieldset>
          <legend>Mode (fixed at creation)</legend>
          <label>
            <input type="radio" name="mode" value="safe" checked={f.mode !== "autonomous"} /> Safe: every proposal waits for you to confirm it here
          </label>
          <label>
            <input type="radio" name="mode" value="autonomous" checked={f.mode === "autonomous"} /> Autonomous: an ALLOW with a clean simulation executes
            without you
          </label>
        </fieldset>
        <label for="mandate">Mandate: the rules the judge checks every proposal against</label>
        <textarea id="mandate" name="mandate" rows={4} maxlength={4000} aria-describedby="mandate-help">
          {f.mandate}
        </textarea>
        <p id="mandate-help" class="help">
          Plain language, e.g. “Pay only invoices from our vendors, at most 100 USDC each.” Without a mandate the judge has nothing to allow, so
          proposals wait for you.
        </p>
        <LimitFields f={f} />
        <button type="submit" class="btn">
          Create wallet
        </button>
      </form>
    </>
  );
}

export function walletListRoutes(deps: DashboardDeps) {
  const { wallets } = deps.services;
  const app = new Hono<DashboardEnv>();

  app.get("/wallets", async (c) => {
    const includeArchived = c.req.query("archived") === "1";
    const [list, defaultMode] = await Promise.all([wallets.list(c.get("principal"), { includeArchived }), wallets.defaultWhoMayLoosen(c.get("principal"))]);
    const notice = noticeFrom(c);
    return render(
      c,
      { title: "Wallets", active: "wallets" },
      <>
        {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
        <p class="row">
          <a class="btn" href="/dashboard/wallets/new">
            Create wallet
          </a>
          <a class="btn-secondary" href="/dashboard/wallets/connect">
            Connect your own wallet
          </a>
          <a href={includeArchived ? "/dashboard/wallets" : "/dashboard/wallets?archived=1"}>{includeArchived ? "Hide archived wallets" : "Show archived wallets"}</a>
        </p>
        {list.length === 0 ? (
          <Empty title="No wallets yet.">
            <p>A wallet holds funds that move only through proposals: simulated, checked against its limits, then judged against its mandate.</p>
          </Empty>
        ) : (
          <WalletCards wallets={list} />
        )}
        <section class="card">
          <h2>Loosening rules</h2>
          <p class="help">Each wallet has its own setting (on its page); this is what new wallets start with.</p>
          <WhoMayLoosenForm csrf={c.get("session").csrfToken} value={defaultMode} />
        </section>
      </>,
    );
  });

  const newPage = (c: DashboardContext, f: CreateForm, error?: string, status: 200 | 400 | 409 = 200) =>
    render(c, { title: "New wallet", active: "wallets", status }, <NewWalletForm csrf={c.get("session").csrfToken} f={f} chains={wallets.chains()} error={error} />);

  app.get("/wallets/new", (c) => newPage(c, BLANK));
  app.post("/wallets/new", async (c) => {
    const b = await c.req.parseBody();
    const s = (k: keyof CreateForm) => (typeof b[k] === "string" ? (b[k] as string) : "");
    const f: CreateForm = { name: s("name"), chain: s("chain") || "base", mode: s("mode"), mandate: s("mandate"), maxPerTxUsd: s("maxPerTxUsd"), dailyCapUsd: s("dailyCapUsd"), tokenAllowlist: s("tokenAllowlist"), recipientAllowlist: s("recipientAllowlist") };
    if (!f.name.trim()) return newPage(c, f, "Give the wallet a name.", 400);
    const chain = wallets.chains().find((ch) => ch.key === f.chain);
    if (!chain) return newPage(c, f, `Choose one of the chains offered: ${wallets.chains().map((ch) => ch.name).join(", ")}.`, 400);
    try {
      const created = await wallets.create(c.get("principal"), {
        name: f.name.trim(),
        chain: chain.key as CreateWalletInput["chain"],
        mode: f.mode === "autonomous" ? "autonomous" : "safe",
        mandate: f.mandate.trim() || null,
        limits: limitsFromForm(f),
      });
      return seeOther(c, `/dashboard/wallets/${created.id}`, "wallet_created");
    } catch (err) {
      if (err instanceof RulesFormError) return newPage(c, f, err.message, 400);
      if (isServiceError(err) && (err.kind === "invalid_input" || err.kind === "conflict")) return newPage(c, f, err.detail ?? err.error, err.kind === "conflict" ? 409 : 400);
      throw err;
    }
  });
  return app;
}
