import { Hono } from "hono";
import { isServiceError } from "../../lib/errors";
import type { DashboardContext, DashboardDeps, DashboardEnv } from "../context";
import type { ProposalFull, Wallet } from "../escrow";
import { Copy, Empty, ExternalLink, Field, Notice, PostButton, Status, Time, Verdict } from "../views/components";
import { usd } from "../views/format";
import { noticeFrom, render, seeOther } from "../views/render";
import { ChangeList, Countdown } from "./escrow-widgets";
import { ProposalTable } from "./wallet-detail";
import { EmbeddedDecide } from "./embedded-wallet";

function Decide(p: { csrf: string; id: string }) {
  return (
    <div class="row">
      <PostButton action={`/dashboard/proposals/${p.id}/confirm`} csrf={p.csrf} class="btn" label="Confirm and send" confirm="Confirm and send this transaction now? It is re-simulated and re-checked against the limits first." />
      <PostButton action={`/dashboard/proposals/${p.id}/reject`} csrf={p.csrf} class="btn-secondary" label="Reject" />
    </div>
  );
}

/** One proposal: what it does in plain words, the judge's view, and (while held) the owner's decision. */
export function ProposalCard(p: { r: ProposalFull; wallet?: Wallet; csrf: string; heading?: boolean; summary?: string }) {
  const { r } = p;
  const sim = r.simulation;
  return (
    <article class="card proposal">
      <header class="row">
        <Status s={r.status} /> <Verdict v={r.verdict} /> {r.status === "awaiting_user" && <Countdown until={r.approvalExpiresAt} />}
      </header>
      {p.heading && (
        <h2>
          <a href={`/dashboard/proposals/${r.txId}`}>{p.summary ?? r.txId}</a>
        </h2>
      )}
      {p.wallet && (
        <p class="help">
          From <a href={`/dashboard/wallets/${p.wallet.id}`}>{p.wallet.name}</a> ({p.wallet.mode}, {p.wallet.chain})
        </p>
      )}
      <h3>What it does</h3>
      {sim ? (
        <>
          <ChangeList changes={sim.changes} />
          <p class="help">
            Simulation: {sim.status}
            {sim.declared ? " (declared effects: what the payment moves, checked against the wallet's balance, not a full chain simulation)" : ""}. Out {usd(sim.totalUsdOut)}, in {usd(sim.totalUsdIn)}.
            {sim.error ? ` ${sim.error}` : ""}
          </p>
          {sim.warnings.map((w) => (
            <Notice kind="warn">{w}</Notice>
          ))}
        </>
      ) : (
        <p class="muted">No simulation was recorded.</p>
      )}
      <h3>Judge</h3>
      <p>{r.reasoning || <span class="muted">No reasoning recorded.</span>}</p>
      {r.scanId && (
        <p class="help">
          <a href={`/dashboard/verifications/${r.scanId}`}>The verification and its receipt</a>
        </p>
      )}
      {r.error && <Notice kind="error">{r.error}</Notice>}
      {r.txHash && (
        <dl class="kvs">
          <Field label="Transaction">
            <Copy value={r.txHash} label="transaction hash" shorten />
          </Field>
        </dl>
      )}
      {r.explorerUrl && <ExternalLink href={r.explorerUrl}>View the transaction on the explorer</ExternalLink>}
      {r.status === "awaiting_user" &&
        (p.wallet?.custody === "embedded" ? <EmbeddedDecide csrf={p.csrf} id={r.txId} address={p.wallet.address} /> : <Decide csrf={p.csrf} id={r.txId} />)}
    </article>
  );
}

export function proposalRoutes(deps: DashboardDeps) {
  const { proposals, wallets } = deps.services;
  const app = new Hono<DashboardEnv>();

  const walletMap = async (c: DashboardContext) => new Map((await wallets.list(c.get("principal"), { includeArchived: true })).map((w) => [w.id, w]));

  app.get("/proposals", async (c) => {
    const principal = c.get("principal");
    const [held, recent, ws] = await Promise.all([proposals.list(principal, { status: "awaiting_user", limit: 50 }), proposals.list(principal, { limit: 50 }), walletMap(c)]);
    const full = await Promise.all(held.map((h) => proposals.result({ accountId: principal.accountId }, h.id)));
    const csrf = c.get("session").csrfToken;
    const notice = noticeFrom(c);
    return render(
      c,
      { title: "Proposals", active: "proposals", pending: held.length },
      <>
        {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
        <h2>Awaiting you ({held.length})</h2>
        {held.length === 0 ? (
          <Empty title="Nothing is waiting for your confirmation." />
        ) : (
          full.map((r, i) => <ProposalCard r={r} wallet={ws.get(held[i].walletId)} csrf={csrf} heading summary={held[i].summary} />)
        )}
        <h2>Recent</h2>
        {recent.length === 0 ? <Empty title="No proposals yet." /> : <ProposalTable items={recent} names={new Map([...ws].map(([id, w]) => [id, w.name]))} />}
      </>,
    );
  });

  const detailPage = async (c: DashboardContext, id: string, error?: string) => {
    const principal = c.get("principal");
    const [r, d] = await Promise.all([proposals.result({ accountId: principal.accountId }, id), proposals.detail(principal, id)]);
    const w = (await walletMap(c)).get(d.walletId);
    const notice = noticeFrom(c);
    return render(
      c,
      { title: d.summary || "Proposal", active: "proposals", status: error ? 409 : 200 },
      <>
        {error && <Notice kind="error">{error}</Notice>}
        {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
        <ProposalCard r={r} wallet={w} csrf={c.get("session").csrfToken} />
        <p class="help">
          Proposal <code>{r.txId}</code>, created <Time d={d.createdAt} />, updated <Time d={d.updatedAt} />.
        </p>
      </>,
    );
  };

  app.get("/proposals/:txId", (c) => detailPage(c, c.req.param("txId")));

  const decide = (verb: "confirm" | "reject") => async (c: DashboardContext) => {
    const id = c.req.param("txId") as string;
    try {
      const r = await proposals[verb]({ accountId: c.get("principal").accountId }, id);
      const code = verb === "reject" ? "proposal_rejected" : r.status === "executed" ? "proposal_executed" : r.status === "blocked" ? "proposal_blocked" : "proposal_confirmed";
      return seeOther(c, `/dashboard/proposals/${r.txId}`, code);
    } catch (err) {
      if (isServiceError(err) && err.kind === "conflict") return detailPage(c, id, err.detail ?? err.error);
      throw err;
    }
  };
  app.post("/proposals/:txId/confirm", decide("confirm"));
  app.post("/proposals/:txId/reject", decide("reject"));
  return app;
}
