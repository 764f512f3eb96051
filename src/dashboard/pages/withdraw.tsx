import { Hono } from "hono";
import { isServiceError } from "../../lib/errors";
import { WithdrawRequest } from "../../proposals/schemas";
import type { DashboardContext, DashboardDeps, DashboardEnv } from "../context";
import type { Wallet } from "../escrow";
import { Copy, CsrfField, ExternalLink, Field, Notice, Status } from "../views/components";
import { render } from "../views/render";

interface Form {
  asset: string;
  amount: string;
  to: string;
}

/** The browser's first check of the recipient field per wallet chain (the service parses it strictly again). */
const ADDRESS_HINT: Record<string, { label: string; pattern: string }> = {
  starknet: { label: "a 0x Starknet address", pattern: "0x[0-9a-fA-F]{1,64}" },
  solana: { label: "a base58 Solana address", pattern: "[1-9A-HJ-NP-Za-km-z]{32,44}" },
};

function WithdrawForm(p: { csrf: string; w: Wallet; f: Form; assets: string[]; error?: string }) {
  return (
    <>
      <p>
        Move funds out of <strong>{p.w.name}</strong> to an address you choose. It is your money: the mandate and the agent limits do not apply, and no
        credit is charged. It is simulated first and refused if it would revert.
      </p>
      {p.error && <Notice kind="error">{p.error}</Notice>}
      <form method="post" action={`/dashboard/wallets/${p.w.id}/withdraw`} class="stack card">
        <CsrfField token={p.csrf} />
        <input type="hidden" name="step" value="review" />
        <label for="asset">Asset</label>
        <select id="asset" name="asset">
          {p.assets.map((a) => (
            <option value={a} selected={a === p.f.asset}>
              {a}
            </option>
          ))}
        </select>
        <label for="amount">Amount (whole units, e.g. 2.5)</label>
        <input id="amount" name="amount" inputmode="decimal" required value={p.f.amount} />
        <label for="to">Send to ({ADDRESS_HINT[p.w.chain]?.label ?? "0x address"})</label>
        <input id="to" name="to" required pattern={ADDRESS_HINT[p.w.chain]?.pattern ?? "0x[0-9a-fA-F]{40}"} spellcheck={false} autocomplete="off" class="mono" value={p.f.to} />
        <button type="submit" class="btn">
          Review withdrawal
        </button>
      </form>
    </>
  );
}

export function withdrawRoutes(deps: DashboardDeps) {
  const { wallets, proposals } = deps.services;
  const app = new Hono<DashboardEnv>();

  const assetsOf = async (c: DashboardContext, w: Wallet) => {
    const b = await wallets.balances(c.get("principal"), w.id).catch(() => null);
    const held = b?.balances.filter((e) => e.amount !== "0").map((e) => e.symbol) ?? [];
    // The wallet's fee asset (ETH on Base, STRK on Starknet) and USDC are always offered.
    return [...new Set([...held, w.gas.asset, "USDC"])];
  };
  const formPage = async (c: DashboardContext, w: Wallet, f: Form, error?: string, status: 200 | 400 | 409 = 200) =>
    render(c, { title: `Withdraw from ${w.name}`, active: "wallets", status }, <WithdrawForm csrf={c.get("session").csrfToken} w={w} f={f} assets={await assetsOf(c, w)} error={error} />);

  app.get("/wallets/:id/withdraw", async (c) => {
    const w = await wallets.get(c.get("principal"), c.req.param("id"));
    return formPage(c, w, { asset: "USDC", amount: "", to: "" });
  });

  app.post("/wallets/:id/withdraw", async (c) => {
    const principal = c.get("principal");
    const w = await wallets.get(principal, c.req.param("id"));
    const b = await c.req.parseBody();
    const f: Form = { asset: String(b.asset ?? ""), amount: String(b.amount ?? "").trim(), to: String(b.to ?? "").trim() };
    const parsed = WithdrawRequest.safeParse(f);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return formPage(c, w, f, `${String(issue.path[0] ?? "input")}: ${issue.message}`, 400);
    }
    const csrf = c.get("session").csrfToken;
    if (b.step !== "confirm") {
      return render(
        c,
        { title: "Confirm the withdrawal", active: "wallets" },
        <>
          <Notice kind="warn">Check the address: funds sent to a wrong address cannot be recovered.</Notice>
          <section class="card">
            <dl class="kvs">
              <Field label="Send">
                <strong>
                  {parsed.data.amount} {parsed.data.asset}
                </strong>
              </Field>
              <Field label="From">
                {w.name} <code>{w.address}</code>
              </Field>
              <Field label="To">
                <code class="big-address">{parsed.data.to}</code>
              </Field>
              <Field label="Network">{w.chain}</Field>
            </dl>
            <form method="post" action={`/dashboard/wallets/${w.id}/withdraw`} class="row">
              <CsrfField token={csrf} />
              <input type="hidden" name="asset" value={parsed.data.asset} />
              <input type="hidden" name="amount" value={parsed.data.amount} />
              <input type="hidden" name="to" value={parsed.data.to} />
              <input type="hidden" name="step" value="confirm" />
              <button type="submit" class="btn-danger">
                Send {parsed.data.amount} {parsed.data.asset}
              </button>
              <a class="btn-secondary" href={`/dashboard/wallets/${w.id}/withdraw`}>
                Cancel
              </a>
            </form>
          </section>
        </>,
      );
    }
    let r;
    try {
      r = await proposals.withdraw({ accountId: principal.accountId }, w.id, parsed.data);
    } catch (err) {
      if (isServiceError(err) && (err.kind === "invalid_input" || err.kind === "conflict")) return formPage(c, w, f, err.detail ?? err.error, err.kind === "conflict" ? 409 : 400);
      throw err;
    }
    return render(
      c,
      { title: "Withdrawal", active: "wallets" },
      <>
        {r.status === "executed" ? (
          <Notice kind="ok">
            Sent {parsed.data.amount} {parsed.data.asset} to <code>{parsed.data.to}</code>.
          </Notice>
        ) : (
          <Notice kind={r.status === "executing" ? "info" : "error"}>
            {r.status === "executing" ? "The withdrawal was sent and is waiting for the chain." : `The withdrawal did not go through: ${r.error ?? r.reasoning}`}
          </Notice>
        )}
        <section class="card">
          <dl class="kvs">
            <Field label="Status">
              <Status s={r.status} />
            </Field>
            {r.txHash && (
              <Field label="Transaction">
                <Copy value={r.txHash} label="transaction hash" shorten />
              </Field>
            )}
            <Field label="Record">
              <a href={`/dashboard/proposals/${r.txId}`}>{r.txId}</a>
            </Field>
          </dl>
          {r.explorerUrl && <ExternalLink href={r.explorerUrl}>View the transaction on the explorer</ExternalLink>}
        </section>
        <p>
          <a href={`/dashboard/wallets/${w.id}`}>Back to {w.name}</a>
        </p>
      </>,
    );
  });
  return app;
}
