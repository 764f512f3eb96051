import type { AssetChange, ProposalItem, Wallet } from "../escrow";
import { Status, Time, Verdict } from "../views/components";
import { usd } from "../views/format";

/**
 * One asset change of a simulation in plain words: "Sends 20 USDC ($20.00) to 0x1111…". The counterparty is
 * shown in full: the owner checks it before confirming.
 */
export function changeInWords(ch: AssetChange): { verb: string; what: string; prep: string } {
  const value = ch.usdValue !== null && Number.isFinite(ch.usdValue) ? ` (${usd(ch.usdValue)})` : " (no USD price)";
  const what = `${ch.amount} ${ch.symbol}${value}`;
  if (ch.changeType === "approval_for_all") return { verb: "Lets", what: `every ${ch.symbol} token be moved`, prep: "by" };
  if (ch.changeType === "approval") return ch.unlimited ? { verb: "Lets", what: `any amount of ${ch.symbol} be spent`, prep: "by" } : { verb: "Lets", what: `up to ${what} be spent`, prep: "by" };
  return ch.direction === "in" ? { verb: "Receives", what, prep: "from" } : { verb: "Sends", what, prep: "to" };
}

export function ChangeList(p: { changes: AssetChange[] }) {
  if (!p.changes.length) return <p class="muted">The simulation found no asset changes.</p>;
  return (
    <ul class="changes">
      {p.changes.map((ch) => {
        const w = changeInWords(ch);
        return (
          <li class={ch.direction === "in" ? "in" : "out"}>
            <span aria-hidden="true">{ch.direction === "in" ? "↓" : "↑"}</span> {w.verb} <strong>{w.what}</strong> {w.prep}{" "}
            <code class="addr">{ch.counterparty || "an unknown address"}</code>
          </li>
        );
      })}
    </ul>
  );
}

export function Countdown(p: { until: string | null | undefined }) {
  if (!p.until) return null;
  return (
    <span class="countdown">
      expires <time datetime={p.until} data-countdown={p.until}>at {p.until.slice(11, 16)} UTC</time>
    </span>
  );
}

export function HeldList(p: { items: ProposalItem[]; names: Map<string, string> }) {
  return (
    <ul class="list">
      {p.items.map((x) => (
        <li>
          <Status s={x.status} /> <Verdict v={x.verdict} /> <a href={`/dashboard/proposals/${x.id}`}>{x.summary || x.id}</a>{" "}
          <span class="muted">from {p.names.get(x.walletId) ?? x.walletId}</span> <Countdown until={x.approvalExpiresAt} />
        </li>
      ))}
    </ul>
  );
}

export function WalletCards(p: { wallets: Wallet[] }) {
  return (
    <ul class="cards">
      {p.wallets.map((w) => (
        <li class="card">
          <a href={`/dashboard/wallets/${w.id}`} class="card-title">
            {w.name}
          </a>
          <div class="help">
            {w.chain} · {w.mode} · {w.custody} custody
          </div>
          <div class="stat-value small">{usd(w.balanceUsd)}</div>
          {w.pendingCount > 0 && <div class="warn-text">{w.pendingCount} awaiting you</div>}
          {w.archivedAt && (
            <div class="muted">
              archived <Time d={w.archivedAt} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
