import { Hono } from "hono";
import type { DashboardDeps, DashboardEnv } from "../context";
import { Copy, Empty, Field, Notice, Time, Verdict } from "../views/components";
import { pretty, short, verificationTitle } from "../views/format";
import { noticeFrom, render } from "../views/render";
import { verifyReceiptServerSide } from "../receipt-check";
import { checkInclusion } from "../../receipts/batch-tree";

type Row = Awaited<ReturnType<DashboardDeps["services"]["verification"]["list"]>>[number];

const SOURCE_LABEL: Record<string, string> = { api: "API", mcp: "MCP", dashboard: "Dashboard", proposal: "Wallet proposal" };

function List(p: { rows: Row[]; q: string }) {
  return (
    <>
      <form method="get" action="/dashboard/verifications" class="search" role="search">
        <label for="q">Search intents, actions, reasoning and venues</label>
        <div class="row">
          <input id="q" name="q" type="search" value={p.q} maxlength={200} />
          <button type="submit" class="btn">
            Search
          </button>
          {p.q && (
            <a class="btn-secondary" href="/dashboard/verifications">
              Clear
            </a>
          )}
        </div>
      </form>
      {p.rows.length === 0 ? (
        <Empty title={p.q ? `No verification matches “${p.q}”.` : "No verifications yet."}>
          {!p.q && (
            <p>
              Agents verify with <code>POST /api/v1/intent</code> or the MCP tool <code>verify_intent</code>; or try one in the{" "}
              <a href="/dashboard/playground">playground</a>.
            </p>
          )}
        </Empty>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Verdict</th>
                <th scope="col">What was checked</th>
                <th scope="col">Venue</th>
                <th scope="col">Source</th>
              </tr>
            </thead>
            <tbody>
              {p.rows.map((r) => (
                <tr>
                  <td>
                    <a href={`/dashboard/verifications/${r.id}`}>
                      <Time d={r.created_at} />
                    </a>
                  </td>
                  <td>
                    <Verdict v={r.verdict} />
                  </td>
                  <td class="clip">{verificationTitle(r)}</td>
                  <td>{r.venue ?? <span class="muted">{r.mode}</span>}</td>
                  <td>{SOURCE_LABEL[r.source] ?? r.source}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

type Stored = Awaited<ReturnType<DashboardDeps["services"]["verification"]["get"]>>;
type Doc = Awaited<ReturnType<DashboardDeps["services"]["verification"]["transcript"]>>;

/** SPEC 2.2 anchorStatus, with the transaction and its explorer link once verified (docs/receipts.md). */
function AnchorStatus(p: { v: Stored; doc: Doc }) {
  const { v, doc } = p;
  if (v.proof.anchorStatus === "verified" && v.proof.anchorTx)
    return (
      <span class="anchor-status" data-anchor-status="verified">
        verified in batch {doc.anchor?.batchId ?? "?"}: {v.explorerTx ? <a href={v.explorerTx}>{short(v.proof.anchorTx)}</a> : <code>{short(v.proof.anchorTx)}</code>}
      </span>
    );
  if (v.proof.anchorStatus === "pending")
    return (
      <span class="anchor-status" data-anchor-status="pending">
        pending{doc.anchor ? ` (batch ${doc.anchor.batchId} formed, waiting for its transaction to be mined and re-read)` : " (waiting for the next batch)"}
      </span>
    );
  return (
    <span class="anchor-status" data-anchor-status="skipped">
      skipped (anchoring is off on this deployment)
    </span>
  );
}

/** The receipt's Merkle path to its batch root, checked here (the same check as `receipt verify`). */
function Inclusion(p: { doc: Doc }) {
  const a = p.doc.anchor!;
  const r = p.doc.receipt;
  const { errors } = checkInclusion({ requestHash: r.requestHash, transcriptRoot: r.transcriptRoot ?? "", outputHash: r.outputHash ?? "" }, a);
  if (errors.length > 0) return <span class="check-result bad">inclusion NOT verified: {errors.join("; ")}</span>;
  return (
    <span class="check-result ok" data-inclusion="verified">
      ✓ inclusion verified: leaf {a.leafIndex} of {a.leafCount} in batch {a.batchId}, root <code>{short(a.root!)}</code>
      {a.status === "verified" ? " (anchored on chain)" : " (root not on chain yet)"}
    </span>
  );
}

function Detail(p: { v: Stored; doc: Doc; judgeAddress: string; publicUrl: string }) {
  const { v, doc } = p;
  const request = doc.transcript.find((e) => e.kind === "request")?.data as { intent?: string; action?: unknown; venue?: string | null; preset?: string } | undefined;
  const ctx = doc.transcript.find((e) => e.kind === "context")?.data as { context?: unknown; reference?: unknown; note?: string | null } | undefined;
  return (
    <>
      <section class={`card verdict-card`}>
        <p class="big">
          <Verdict v={v.verdict} />
        </p>
        <p class="reasoning">{v.reasoning ?? "The judge gave no reason."}</p>
        <p class="help">
          {v.verdict === "ALLOW" ? "The action may be executed as written." : "Do not execute this action."} Judged by <code>{doc.provider ?? "unknown"}</code>,{" "}
          <Time d={v.createdAt} />.
        </p>
      </section>
      <section class="card">
        <h2>Intent</h2>
        <pre class="wrap">{request?.intent ?? ""}</pre>
        <h2>Action</h2>
        <pre>{pretty(request?.action)}</pre>
        {(request?.venue || request?.preset) && (
          <p class="help">
            {request?.venue ? <>Venue requested: <code>{request.venue}</code>. </> : null}
            Preset: <code>{request?.preset ?? "generic"}</code>.
          </p>
        )}
        {ctx?.context ? (
          <>
            <h2>Context</h2>
            <pre>{pretty(ctx.context)}</pre>
          </>
        ) : null}
        {ctx?.reference ? (
          <>
            <h2>Reference (untrusted background)</h2>
            <pre class="wrap">{pretty(ctx.reference)}</pre>
          </>
        ) : null}
        {ctx?.note ? (
          <>
            <h2>Note (untrusted)</h2>
            <pre class="wrap">{ctx.note}</pre>
          </>
        ) : null}
      </section>
      <section class="card">
        <h2>What the adapter read</h2>
        {doc.facts ? <pre>{pretty(doc.facts)}</pre> : <p class="muted">No venue adapter recognised the action; it was judged as written (semantic mode).</p>}
      </section>
      <section class="card">
        <h2>Receipt</h2>
        <dl class="kvs">
          <Field label="Verification id">
            <Copy value={v.id} label="verification id" />
          </Field>
          <Field label="Request hash">
            <Copy value={v.requestHash} label="request hash" shorten />
          </Field>
          <Field label="Transcript root">
            <Copy value={v.proof.transcriptRoot} label="transcript root" shorten />
          </Field>
          <Field label="Output hash">
            <Copy value={v.proof.outputHash} label="output hash" shorten />
          </Field>
          <Field label="Signature">
            <Copy value={v.proof.signature} label="signature" shorten />
          </Field>
          <Field label="Judge">
            <Copy value={v.proof.judge} label="judge address" />
          </Field>
          <Field label="Attested">{v.proof.attested ? "yes (enclave)" : "no"}</Field>
          <Field label="Anchor">
            <AnchorStatus v={v} doc={doc} />
          </Field>
          {doc.anchor?.root ? (
            <Field label="Inclusion">
              <Inclusion doc={doc} />
            </Field>
          ) : null}
        </dl>
        <div class="receipt-check">
          <button type="button" class="btn" data-verify-receipt={v.id} data-expected-judge={p.judgeAddress}>
            Verify receipt
          </button>
          <a class="btn-secondary" href={`/dashboard/api/verifications/${v.id}/transcript`} download={`verification-${v.id}.json`}>
            Download transcript
          </a>
          <p id="receipt-result" class="check-result" role="status" aria-live="polite"></p>
          <noscript>
            <a href={`/dashboard/api/verifications/${v.id}/receipt-check`}>Check the receipt on the server</a>
          </noscript>
        </div>
        <p class="help">
          The check runs in your browser: it recomputes the transcript root and output hash from the transcript and recovers the EIP-712 signer, which
          must be this deployment's judge <code>{short(p.judgeAddress)}</code>. Offline: save the transcript and run{" "}
          <code>npm run cli -- receipt verify --file FILE --judge {p.judgeAddress}</code> (the judge keys are published at{" "}
          <code>{p.publicUrl}/.well-known/arbiter-judge.json</code>; see docs/receipts.md). Agents read it at <code>GET {p.publicUrl}/api/v1/intent/{v.id}</code>.
        </p>
      </section>
    </>
  );
}

export function verificationRoutes(deps: DashboardDeps) {
  const { verification } = deps.services;
  const app = new Hono<DashboardEnv>();

  app.get("/verifications", async (c) => {
    const q = (c.req.query("q") ?? "").trim().slice(0, 200);
    const rows = await verification.list(c.get("principal"), { limit: 100, query: q || undefined });
    return render(c, { title: "Verifications", active: "verifications" }, <List rows={rows} q={q} />);
  });

  app.get("/verifications/:id", async (c) => {
    const principal = c.get("principal");
    const id = c.req.param("id");
    const [v, doc] = await Promise.all([verification.get(principal, id), verification.transcript(principal, id)]);
    const notice = noticeFrom(c);
    return render(
      c,
      { title: "Verification", active: "verifications" },
      <>
        {c.req.query("ran") === "1" && <Notice kind="ok">Verification complete: one credit was charged.</Notice>}
        {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
        <Detail v={v} doc={doc} judgeAddress={deps.judgeAddress} publicUrl={deps.publicUrl} />
      </>,
    );
  });

  // Dashboard APIs (session-authenticated JSON), used by the receipt check.
  app.get("/api/verifications/:id/transcript", async (c) => c.json(await verification.transcript(c.get("principal"), c.req.param("id"))));
  app.get("/api/verifications/:id/receipt-check", async (c) => {
    const doc = await verification.transcript(c.get("principal"), c.req.param("id"));
    return c.json(await verifyReceiptServerSide(doc, deps.judgeAddress));
  });
  return app;
}
