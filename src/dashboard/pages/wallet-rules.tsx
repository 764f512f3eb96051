import { Hono } from "hono";
import { isServiceError } from "../../lib/errors";
import { LimitsError } from "../../wallets/limits";
import type { DashboardContext, DashboardDeps, DashboardEnv } from "../context";
import { patchFromForm, previewLoosening, RulesFormError, type RulesForm, type Wallet } from "../escrow";
import { CsrfField, Notice } from "../views/components";
import { render, seeOther } from "../views/render";
import { LimitFields } from "./wallets";
import { RulesTable } from "./wallet-detail";

const formOf = (w: Wallet): RulesForm => ({
  name: w.name,
  mandate: w.mandate ?? "",
  maxPerTxUsd: w.limits.maxPerTxUsd?.toString() ?? "",
  dailyCapUsd: w.limits.dailyCapUsd?.toString() ?? "",
  tokenAllowlist: (w.limits.tokenAllowlist ?? []).map((t) => (t === "native" ? "ETH" : t)).join("\n"),
  recipientAllowlist: (w.limits.recipientAllowlist ?? []).join("\n"),
});

function Fields(p: { f: RulesForm }) {
  return (
    <>
      <label for="name">Name</label>
      <input id="name" name="name" required maxlength={64} value={p.f.name} />
      <label for="mandate">Mandate</label>
      <textarea id="mandate" name="mandate" rows={4} maxlength={4000}>
        {p.f.mandate}
      </textarea>
      <LimitFields f={p.f} />
    </>
  );
}

function Hidden(p: { f: RulesForm }) {
  return (
    <>
      {(Object.keys(p.f) as (keyof RulesForm)[]).map((k) => (
        <input type="hidden" name={k} value={p.f[k]} />
      ))}
    </>
  );
}

export function walletRulesRoutes(deps: DashboardDeps) {
  const { wallets } = deps.services;
  const app = new Hono<DashboardEnv>();

  const editPage = (c: DashboardContext, w: Wallet, f: RulesForm, error?: string, status: 200 | 400 = 200) =>
    render(
      c,
      { title: `Rules of ${w.name}`, active: "wallets", status },
      <>
        <p class="help">Mode ({w.mode}) and chain ({w.chain}) are fixed. Nothing is saved until you review the change.</p>
        {error && <Notice kind="error">{error}</Notice>}
        <form method="post" action={`/dashboard/wallets/${w.id}/rules`} class="stack card">
          <CsrfField token={c.get("session").csrfToken} />
          <input type="hidden" name="step" value="review" />
          <Fields f={f} />
          <button type="submit" class="btn">
            Review change
          </button>
        </form>
      </>,
    );

  app.get("/wallets/:id/rules", async (c) => {
    const w = await wallets.get(c.get("principal"), c.req.param("id"));
    return editPage(c, w, formOf(w));
  });

  app.post("/wallets/:id/rules", async (c) => {
    const principal = c.get("principal");
    const w = await wallets.get(principal, c.req.param("id"));
    const b = await c.req.parseBody();
    const s = (k: string) => (typeof b[k] === "string" ? (b[k] as string) : "");
    const f: RulesForm = { name: s("name"), mandate: s("mandate"), maxPerTxUsd: s("maxPerTxUsd"), dailyCapUsd: s("dailyCapUsd"), tokenAllowlist: s("tokenAllowlist"), recipientAllowlist: s("recipientAllowlist") };
    let patch;
    let preview;
    try {
      patch = patchFromForm(w, f);
      preview = previewLoosening(w, patch, (cur, p) => wallets.previewLimits(w.chain, cur, p));
    } catch (err) {
      if (err instanceof RulesFormError || err instanceof LimitsError) return editPage(c, w, f, err.message, 400);
      throw err;
    }
    if (!patch.name && patch.mandate === undefined && !patch.limits) return editPage(c, w, f, "Nothing changed.", 400);

    if (s("step") === "save") {
      try {
        const r = await wallets.update(principal, w.id, patch);
        return seeOther(c, `/dashboard/wallets/${w.id}`, r.loosened.length ? "wallet_loosened" : "wallet_updated");
      } catch (err) {
        if (isServiceError(err) && err.kind === "invalid_input") return editPage(c, w, f, err.detail ?? err.error, 400);
        throw err;
      }
    }

    const after = { ...w, name: patch.name ?? w.name, mandate: patch.mandate === undefined ? w.mandate : patch.mandate || null, limits: preview.next, rules: { ...w.rules, limits: preview.next } };
    return render(
      c,
      { title: `Review: rules of ${w.name}`, active: "wallets" },
      <>
        {preview.loosened.length ? (
          <Notice kind="warn">
            <p>
              <strong>This change loosens the rules.</strong> Agents will be able to do more with this wallet's money:
            </p>
            <ul>
              {preview.loosened.map((l) => (
                <li>{l}</li>
              ))}
            </ul>
          </Notice>
        ) : (
          <Notice kind="info">This change loosens nothing: every proposal allowed after it was allowed before.</Notice>
        )}
        {preview.notes.map((n) => (
          <Notice kind="warn">{n}</Notice>
        ))}
        <div class="grid2">
          <section class="card">
            <h2>Now</h2>
            <RulesTable w={w} />
          </section>
          <section class={`card ${preview.loosened.length ? "loosen" : ""}`}>
            <h2>After saving</h2>
            <RulesTable w={{ ...after, rules: { ...w.rules, limits: preview.next, enforcement: enforcementAfter(w, preview.next, after.mandate) } }} />
          </section>
        </div>
        <form method="post" action={`/dashboard/wallets/${w.id}/rules`} class="row">
          <CsrfField token={c.get("session").csrfToken} />
          <Hidden f={f} />
          <input type="hidden" name="step" value="save" />
          <button type="submit" class={preview.loosened.length ? "btn-danger" : "btn"}>
            {preview.loosened.length ? "Save and loosen the rules" : "Save"}
          </button>
          <a class="btn-secondary" href={`/dashboard/wallets/${w.id}/rules`}>
            Back to editing
          </a>
        </form>
        <p class="help">Held proposals are re-checked against new limits when you save; those that no longer pass are blocked.</p>
      </>,
    );
  });
  return app;
}

/** The enforcement table after the change: each set limit keeps the enforcer this wallet's custodian gives limits. */
function enforcementAfter(w: Wallet, limits: Wallet["limits"], mandate: string | null): Record<string, "signer" | "service" | "judge"> {
  const enforcer = Object.entries(w.rules.enforcement).find(([k]) => k !== "mandate")?.[1] ?? "service";
  const out: Record<string, "signer" | "service" | "judge"> = {};
  for (const k of Object.keys(limits)) out[k] = enforcer as "signer" | "service";
  if (mandate) out.mandate = "judge";
  return out;
}
