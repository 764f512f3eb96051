/**
 * Self-custodial safe wallets in the dashboard (custody `embedded`, docs/oauth.md "Embedded wallets").
 *
 * - /dashboard/wallets/connect: the owner connects their browser wallet (EIP-1193 `window.ethereum`), signs
 *   a Sign-In with Ethereum message, and that address becomes a safe wallet whose key Arbiter never holds.
 * - A held proposal on such a wallet is confirmed with the owner's wallet: the page asks the server to
 *   re-check it and hand over the exact transaction, the wallet signs and sends it (eth_sendTransaction),
 *   and the page reports the hash, which the server verifies on chain before recording it.
 * - Without JavaScript (or when the page closed after sending), the hash can be recorded with a form.
 *
 * The script (embedded.js) is served from this origin like app.js: the CSP allows no inline script.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import { isServiceError } from "../../lib/errors";
import { sha256Hex } from "../../lib/hashing";
import type { DashboardContext, DashboardDeps, DashboardEnv } from "../context";
import { escrowEnabled, limitsFromForm, RulesFormError, type RulesForm } from "../escrow";
import { CsrfField, Notice, PostButton } from "../views/components";
import { render, seeOther } from "../views/render";
import { LimitFields } from "./wallets";

const SCRIPT = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "public", "embedded.js"), "utf8");
const SCRIPT_ETAG = `"${sha256Hex(SCRIPT).slice(0, 16)}"`;
export const EMBEDDED_SCRIPT = "/dashboard/embedded.js";

function ConnectForm(p: { csrf: string }) {
  return (
    <form class="stack card" data-embedded-connect>
      <CsrfField token={p.csrf} />
      <p>
        Connect the wallet in this browser (for example a browser extension). Its current account becomes a <strong>safe</strong> wallet on Base:
        agents propose, Arbiter simulates, checks the limits and runs the judge, and then every proposal waits for you to sign it in your wallet.
        Arbiter never receives the key, so it can never move these funds on its own.
      </p>
      <label for="name">Name (unique on this account; agents can use it in place of the id)</label>
      <input id="name" name="name" required maxlength={64} />
      <label for="mandate">Mandate: the rules the judge checks every proposal against</label>
      <textarea id="mandate" name="mandate" rows={3} maxlength={4000}></textarea>
      <LimitFields f={{ name: "", mandate: "", maxPerTxUsd: "", dailyCapUsd: "", tokenAllowlist: "", recipientAllowlist: "" }} />
      <p class="help">
        You will be asked to sign a “Sign-In with Ethereum” message (no transaction, no fee). The account must be an ordinary account, not a smart contract
        wallet. Batches (several calls at once) and x402 payments are not available for self-custodial wallets.
      </p>
      <button type="submit" class="btn">
        Connect wallet and create
      </button>
      <p class="help" role="status" data-embedded-status>
        This needs JavaScript and a browser wallet.
      </p>
    </form>
  );
}

/** The decision on a held proposal of an embedded wallet: the owner's wallet signs, or the owner rejects. */
export function EmbeddedDecide(p: { csrf: string; id: string; address: string }) {
  return (
    <div class="embedded-decide">
      <div class="row">
        <button type="button" class="btn" data-embedded-send={p.id} data-wallet={p.address}>
          Confirm in your wallet
        </button>
        <PostButton action={`/dashboard/proposals/${p.id}/reject`} csrf={p.csrf} class="btn-secondary" label="Reject" />
      </div>
      <p class="help">
        Arbiter re-simulates and re-checks it, then your wallet asks you to sign and send exactly this transaction from {p.address}. Arbiter records it only
        after finding it on chain, from your wallet, identical to the proposal.
      </p>
      <p class="help" role="status" data-embedded-status={p.id}></p>
      <details>
        <summary>Already sent it from your wallet? Record the transaction hash</summary>
        <form method="post" action={`/dashboard/proposals/${p.id}/record`} class="stack">
          <CsrfField token={p.csrf} />
          <label for={`hash-${p.id}`}>Transaction hash</label>
          <input id={`hash-${p.id}`} name="txHash" class="mono" pattern="0x[0-9a-fA-F]{64}" required />
          <button type="submit" class="btn-secondary">
            Record
          </button>
        </form>
      </details>
      <script type="module" src={EMBEDDED_SCRIPT}></script>
    </div>
  );
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

export function embeddedRoutes(deps: DashboardDeps) {
  const { embedded } = deps.services;
  const app = new Hono<DashboardEnv>();
  const session = (c: DashboardContext) => ({ id: c.get("session").id, accountId: c.get("session").accountId });

  app.get("/embedded.js", (c) => {
    c.header("cache-control", "no-cache");
    c.header("etag", SCRIPT_ETAG);
    if (c.req.header("if-none-match") === SCRIPT_ETAG) return c.body(null, 304);
    return c.body(SCRIPT, 200, { "content-type": "text/javascript; charset=utf-8" });
  });

  app.get("/wallets/connect", (c) => {
    if (!escrowEnabled(deps.services)) return render(c, { title: "Connect your wallet", active: "wallets" }, <Notice kind="info">Escrow wallets are not enabled on this deployment.</Notice>);
    return render(
      c,
      { title: "Connect your wallet", active: "wallets" },
      <>
        <ConnectForm csrf={c.get("session").csrfToken} />
        <script type="module" src={EMBEDDED_SCRIPT}></script>
      </>,
    );
  });

  app.post("/api/embedded/challenge", async (c) => {
    const body = ((await c.req.json().catch(() => null)) ?? {}) as Record<string, unknown>;
    return c.json(await embedded.challenge(session(c), str(body.address)));
  });

  app.post("/api/embedded/wallets", async (c) => {
    const b = ((await c.req.json().catch(() => null)) ?? {}) as Record<string, unknown>;
    const form: RulesForm = { name: str(b.name), mandate: str(b.mandate), maxPerTxUsd: str(b.maxPerTxUsd), dailyCapUsd: str(b.dailyCapUsd), tokenAllowlist: str(b.tokenAllowlist), recipientAllowlist: str(b.recipientAllowlist) };
    let limits;
    try {
      limits = limitsFromForm(form);
    } catch (err) {
      if (err instanceof RulesFormError) return c.json({ error: "create_failed", message: err.message }, 400);
      throw err;
    }
    const w = await embedded.connect(session(c), c.get("principal"), { message: str(b.message), signature: str(b.signature), name: form.name, mandate: form.mandate.trim() || null, limits });
    return c.json({ id: w.id, address: w.address, url: `/dashboard/wallets/${w.id}?notice=wallet_created` }, 201);
  });

  app.post("/api/embedded/proposals/:txId/prepare", async (c) => c.json(await embedded.prepare(c.get("principal").accountId, c.req.param("txId"))));

  app.post("/api/embedded/proposals/:txId/submit", async (c) => {
    const b = ((await c.req.json().catch(() => null)) ?? {}) as Record<string, unknown>;
    const r = await embedded.submit(c.get("principal").accountId, c.req.param("txId"), str(b.txHash));
    const notice = r.status === "executed" ? "proposal_executed" : "proposal_confirmed";
    return c.json({ status: r.status, txHash: r.txHash ?? null, url: `/dashboard/proposals/${r.txId}?notice=${notice}` });
  });

  app.post("/proposals/:txId/record", async (c) => {
    const id = c.req.param("txId");
    const b = await c.req.parseBody();
    try {
      const r = await embedded.submit(c.get("principal").accountId, id, str(b.txHash));
      return seeOther(c, `/dashboard/proposals/${r.txId}`, r.status === "executed" ? "proposal_executed" : "proposal_confirmed");
    } catch (err) {
      if (isServiceError(err) && (err.kind === "conflict" || err.kind === "invalid_input")) {
        return render(c, { title: "Not recorded", status: err.kind === "conflict" ? 409 : 400 }, <Notice kind="error">{err.detail ?? err.error}</Notice>);
      }
      throw err;
    }
  });
  return app;
}
