import { Hono } from "hono";
import { SANDBOX_FUNDED_CHAINS, SandboxFundWallet } from "./sandbox";
import { LineChart, Meter } from "../views/charts";
import { raw } from "hono/html";
import type { DashboardDeps, DashboardEnv } from "../context";
import { ENFORCEMENT_TEXT, LIMIT_LABELS, type Balances, type ProposalItem, type Wallet } from "../escrow";
import { qrSvg } from "../qr";
import { Copy, CsrfField, Empty, ExternalLink, Field, Notice, Status, Time, Verdict } from "../views/components";
import { usd } from "../views/format";
import { noticeFrom, render, seeOther } from "../views/render";
import { Countdown } from "./escrow-widgets";
import { PendingRuleChanges, RuleChangeTrail, WhoMayLoosenForm } from "./wallet-rule-changes";

function limitValue(k: string, v: unknown): string {
  if (typeof v === "number") return usd(v);
  if (Array.isArray(v)) return v.map((x) => (x === "native" ? "ETH" : String(x))).join(", ");
  return String(v);
}

export function RulesTable(p: { w: Wallet }) {
  const { limits, enforcement } = p.w.rules;
  const names = Object.keys(limits) as (keyof typeof limits)[];
  return (
    <dl class="kvs">
      {names.length === 0 && <Field label="Limits">none: only the mandate and the judge stand between an agent and the funds</Field>}
      {names.map((k) => (
        <Field label={LIMIT_LABELS[k] ?? k}>
          <span class="mono">{limitValue(k, limits[k])}</span> <span class="help">({ENFORCEMENT_TEXT[enforcement[k]] ?? enforcement[k]})</span>
        </Field>
      ))}
      <Field label="Mandate">
        {p.w.mandate ? (
          <>
            <span class="pre-line">{p.w.mandate}</span> <span class="help">({ENFORCEMENT_TEXT.judge})</span>
          </>
        ) : (
          <span class="muted">none: the judge has nothing to allow, so proposals wait for you</span>
        )}
      </Field>
    </dl>
  );
}

function BalancesTable(p: { b: Balances | null; error: string | null; gas: Wallet["gas"] }) {
  if (p.error) return <Notice kind="warn">Balances could not be read right now: {p.error}</Notice>;
  const rows = p.b?.balances.filter((e) => e.amount !== "0") ?? [];
  return (
    <>
      {p.b?.warnings?.map((w) => <Notice kind="warn">{w}</Notice>)}
      {rows.length === 0 ? (
        <Empty title="This wallet holds nothing yet.">
          <p>
            Send funds to the address above. It pays its own fees in {p.gas.asset}: keep a little {p.gas.asset} besides the funds it moves.
          </p>
        </Empty>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Asset</th>
                <th scope="col" class="num">
                  Amount
                </th>
                <th scope="col" class="num">
                  USD
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr>
                  <th scope="row">
                    {e.symbol} <span class="help">{e.name}</span>
                  </th>
                  <td class="num">{e.amountFormatted}</td>
                  <td class="num">{e.usdValue === null ? "no price" : usd(e.usdValue)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                <td></td>
                <td class="num">
                  <strong>{usd(p.b?.balanceUsd)}</strong>
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </>
  );
}

export function ProposalTable(p: { items: ProposalItem[]; names?: Map<string, string> }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Status</th>
            <th scope="col">Verdict</th>
            <th scope="col">What</th>
            {p.names && <th scope="col">Wallet</th>}
          </tr>
        </thead>
        <tbody>
          {p.items.map((x) => (
            <tr>
              <td>
                <a href={`/dashboard/proposals/${x.id}`}>
                  <Time d={x.createdAt} />
                </a>
              </td>
              <td>
                <Status s={x.status} /> {x.status === "awaiting_user" && <Countdown until={x.approvalExpiresAt} />}
              </td>
              <td>
                <Verdict v={x.verdict} />
              </td>
              <td class="clip">
                <a href={`/dashboard/proposals/${x.id}`}>{x.summary}</a>
              </td>
              {p.names && <td>{p.names.get(x.walletId) ?? x.walletId}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function walletDetailRoutes(deps: DashboardDeps) {
  const { wallets, proposals, insights } = deps.services;
  const app = new Hono<DashboardEnv>();

  app.get("/wallets/:id", async (c) => {
    const principal = c.get("principal");
    const w = await wallets.get(principal, c.req.param("id"));
    const [balances, items] = await Promise.all([
      wallets.balances(principal, w.id).then(
        (b) => ({ b, error: null }),
        (err: Error) => ({ b: null, error: err.message }),
      ),
      proposals.list(principal, { wallet: w.id, limit: 20 }),
    ]);
    if (balances.b) await insights.recordWalletBalance(principal, w.id, balances.b.balanceUsd);
    const [spend, history, ruleChanges] = await Promise.all([insights.walletSpend24h(principal, w.id), insights.walletBalanceHistory(principal, w.id), wallets.ruleChanges(principal, w.id)]);
    const notice = noticeFrom(c);
    const csrf = c.get("session").csrfToken;
    return render(
      c,
      { title: w.name, active: "wallets" },
      <>
        {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
        {w.archivedAt && (
          <Notice kind="info">
            Archived <Time d={w.archivedAt} />: it refuses new proposals. You can still withdraw its funds.
          </Notice>
        )}
        <PendingRuleChanges csrf={csrf} walletId={w.id} items={ruleChanges} />
        <section class="card wallet-head">
          <div class="wallet-id">
            <p class="help">
              {w.chain} · {w.mode === "safe" ? "safe (every proposal waits for you)" : "autonomous (an ALLOW with a clean simulation executes)"} · {w.custody}{" "}
              custody ({w.provider})
            </p>
            <dl class="kvs">
              <Field label="Address">
                <Copy value={w.address} label="wallet address" />
              </Field>
              <Field label="Wallet id">
                <code>{w.id}</code>
              </Field>
              <Field label="Created">
                <Time d={w.createdAt} />
              </Field>
            </dl>
            {w.explorerAddressUrl && <ExternalLink href={w.explorerAddressUrl}>View on the explorer</ExternalLink>}
            <p class="help">{w.gas.note}</p>
          </div>
          <figure class="qr-fig">
            {raw(qrSvg(w.address, `QR code of the address ${w.address}`))}
            <figcaption class="help">Scan to send funds to this wallet on {w.chain}.</figcaption>
          </figure>
        </section>
        <section>
          <h2>Balances</h2>
          <BalancesTable b={balances.b} error={balances.error} gas={w.gas} />
        </section>
        {deps.services.sandbox && SANDBOX_FUNDED_CHAINS.includes(w.chain) && !w.archivedAt && <SandboxFundWallet csrf={csrf} walletId={w.id} chain={w.chain} />}
        <section class="card">
          <h2>Activity</h2>
          <Meter label="Spend in the rolling 24 hours" used={spend.total} limit={spend.capUsd} />
          <LineChart
            title="Balance over time (USD)"
            unit="$"
            series={[{ key: "usd", label: "USD", cls: "c-line", points: history }]}
            empty="No balance history yet: a point is kept each time this page reads the balances (at most one every five minutes)."
          />
        </section>
        <section class="card">
          <h2>Rules</h2>
          <RulesTable w={w} />
          <p class="row">
            <a class="btn-secondary" href={`/dashboard/wallets/${w.id}/rules`}>
              Edit rules
            </a>
            {w.custody !== "embedded" && (
              <a class="btn-secondary" href={`/dashboard/wallets/${w.id}/withdraw`}>
                Withdraw
              </a>
            )}
          </p>
          <WhoMayLoosenForm csrf={csrf} value={w.rules.whoMayLoosen} walletId={w.id} />
        </section>
        <RuleChangeTrail items={ruleChanges} />
        <section>
          <h2>Proposals</h2>
          {items.length === 0 ? (
            <Empty title="No proposals yet.">
              <p>
                Agents propose with <code>POST /api/v1/wallets/{w.name}/propose</code> or the MCP tools <code>escrow_transfer</code>, <code>escrow_swap</code>,{" "}
                <code>escrow_execute</code>.
              </p>
            </Empty>
          ) : (
            <ProposalTable items={items} />
          )}
        </section>
        {!w.archivedAt && (
          <section class="card danger-zone">
            <h2>Archive</h2>
            <p>An archived wallet refuses new proposals, and its held proposals are rejected. Funds stay; you can still withdraw them.</p>
            <form method="post" action={`/dashboard/wallets/${w.id}/archive`} data-confirm={`Archive ${w.name}? Held proposals will be rejected and agents can no longer propose.`}>
              <CsrfField token={csrf} />
              <button type="submit" class="btn-danger">
                Archive wallet
              </button>
            </form>
          </section>
        )}
      </>,
    );
  });

  app.post("/wallets/:id/archive", async (c) => {
    // The owner's check first: another account's wallet is 404 here, before the operator verb runs.
    const w = await wallets.get(c.get("principal"), c.req.param("id"));
    await wallets.archive(w.id);
    return seeOther(c, `/dashboard/wallets/${w.id}`, "wallet_archived");
  });
  return app;
}
