/**
 * A readable page for the sandbox explorers (/sandbox/explorer/...): the explorer routes answer JSON, and a
 * browser following a "View on the explorer" link gets the same data as an HTML page. Family-neutral: it
 * renders whatever JSON view a family's explorer answers, so a new chain's explorer gets pages for free.
 *
 * Only requests whose Accept header prefers HTML are rewritten (`?format=json` forces JSON), so scripts,
 * curl and the typed client keep the JSON contract.
 */
import type { MiddlewareHandler } from "hono";
import type { Child } from "hono/jsx";

/** Fields whose value is an account on the same chain; they link to its address page. */
const ADDRESS_KEYS = new Set(["from", "to", "address", "owner", "account", "sender", "recipient", "signer", "feePayer", "contract", "mint", "contractAddress", "senderAddress"]);
/** Fields whose value is a transaction id on the same chain. */
const TX_KEYS = new Set(["hash", "signature", "txHash", "transactionHash"]);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface Where {
  /** The explorer's base path, e.g. /sandbox/explorer/solana. */
  base: string;
  kind: "tx" | "address";
  id: string;
}

function whereOf(path: string): Where | null {
  const m = /^(.*)\/(tx|address)\/([^/]+)\/?$/.exec(path);
  if (!m) return null;
  return { base: m[1]!, kind: m[2] as Where["kind"], id: decodeURIComponent(m[3]!) };
}

function wantsHtml(accept: string | undefined, format: string | undefined): boolean {
  if (format === "json") return false;
  if (format === "html") return true;
  if (!accept) return false;
  const html = accept.indexOf("text/html");
  const json = accept.indexOf("application/json");
  return html !== -1 && (json === -1 || html < json);
}

function Value(p: { k: string; v: Json; base: string }): Child {
  const { k, v, base } = p;
  if (v === null) return <span class="muted">none</span>;
  if (typeof v === "string") {
    if (v.length > 0 && ADDRESS_KEYS.has(k)) return <a href={`${base}/address/${encodeURIComponent(v)}`} class="mono">{v}</a>;
    if (v.length > 0 && TX_KEYS.has(k)) return <a href={`${base}/tx/${encodeURIComponent(v)}`} class="mono">{v}</a>;
    if (v.length > 80) return <pre class="wrap">{v}</pre>;
    return <span class="mono">{v}</span>;
  }
  if (typeof v === "number" || typeof v === "boolean") return <span class="mono">{String(v)}</span>;
  if (Array.isArray(v)) {
    if (v.length === 0) return <span class="muted">none</span>;
    return (
      <ol class="explorer-list">
        {v.map((item) => (
          <li>
            <Value k={k} v={item} base={base} />
          </li>
        ))}
      </ol>
    );
  }
  return <Fields obj={v} base={base} />;
}

function Fields(p: { obj: { [k: string]: Json }; base: string }) {
  return (
    <table class="explorer-fields">
      <tbody>
        {Object.entries(p.obj).map(([k, v]) => (
          <tr>
            <th scope="row">{k}</th>
            <td>
              <Value k={k} v={v} base={p.base} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ExplorerPage(p: { where: Where; status: number; body: Json }) {
  const noun = p.where.kind === "tx" ? "Transaction" : "Address";
  const found = p.status < 400 && p.body !== null && typeof p.body === "object" && !Array.isArray(p.body);
  const message = !found && p.body && typeof p.body === "object" && !Array.isArray(p.body) && typeof p.body.message === "string" ? p.body.message : null;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${noun} ${p.where.id} · sandbox explorer`}</title>
        <link rel="stylesheet" href="/dashboard/assets/app.css" />
      </head>
      <body>
        <main id="main" class="explorer">
          <p class="muted">Sandbox explorer: a local chain run by this Arbiter deployment, not a public network.</p>
          <h1>{noun}</h1>
          <p class="copy">
            <code>{p.where.id}</code>
          </p>
          {found ? (
            <div class="table-wrap">
              <Fields obj={p.body as { [k: string]: Json }} base={p.where.base} />
            </div>
          ) : (
            <div class="empty" role="status">
              <p class="empty-title">{`No such ${noun.toLowerCase()} on this sandbox chain.`}</p>
              {message && <p>{message}</p>}
            </div>
          )}
          <p>
            <a href={`${p.where.base}/${p.where.kind}/${encodeURIComponent(p.where.id)}?format=json`}>View as JSON</a>
          </p>
        </main>
      </body>
    </html>
  );
}

/** Middleware for the sandbox explorer mounts: JSON answers become pages for browsers. */
export function explorerHtmlPages(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.req.method !== "GET" || !wantsHtml(c.req.header("accept"), c.req.query("format"))) return;
    if (!(c.res.headers.get("content-type") ?? "").includes("application/json")) return;
    const where = whereOf(c.req.path);
    if (!where) return;
    const status = c.res.status;
    const body = (await c.res.json()) as Json;
    c.res = undefined as unknown as Response;
    c.res = await c.html(<ExplorerPage where={where} status={status} body={body} />, status as 200);
  };
}
