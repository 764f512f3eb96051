/**
 * OAuth test helpers: a real runtime (optionally listening on a loopback port, with a manual clock), a
 * dashboard client for the consent page, PKCE pairs, token-endpoint calls and MCP calls with a bearer token.
 */
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import { ManualClock } from "../../src/lib/clock";
import { listen } from "../../src/server";
import { DashboardClient } from "../dashboard/client";
import { freePort } from "../helpers/process";
import { startTestRuntime } from "../helpers/runtime";

export async function startOAuthRuntime(opts: { listen?: boolean; clock?: ManualClock; env?: Record<string, string> } = {}) {
  const port = opts.listen ? await freePort() : 0;
  const url = opts.listen ? `http://127.0.0.1:${port}` : "http://arbiter.test";
  const t = await startTestRuntime({ env: { PUBLIC_URL: url, SHUTDOWN_GRACE_MS: "1000", ...opts.env }, overrides: opts.clock ? { clock: opts.clock } : {} });
  const server = opts.listen ? await listen(t.runtime, { host: "127.0.0.1", port }) : null;
  return {
    ...t,
    url,
    mcpUrl: `${url}/api/mcp`,
    async close() {
      if (server) await server.stop();
      await t.close();
    },
  };
}
export type OAuthRuntime = Awaited<ReturnType<typeof startOAuthRuntime>>;

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export async function register(t: OAuthRuntime, body: Record<string, unknown>) {
  const res = await t.app.request("/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function token(t: OAuthRuntime, params: Record<string, string>, path = "/oauth/token") {
  const res = await t.app.request(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(params).toString() });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : {}) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A signed-up owner with credits, able to walk the consent page through app.request. */
export async function owner(t: OAuthRuntime, email: string, credits = 5) {
  const d = new DashboardClient(t);
  await d.signUp(email);
  const user = await t.runtime.database.db.selectFrom("users").select("account_id").where("email", "=", email).executeTakeFirstOrThrow();
  await t.admin("POST", `/admin/v1/accounts/${user.account_id}/credits`, { credits, reason: "oauth test" });
  return { d, accountId: user.account_id };
}

export interface AuthorizeInput {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope?: string;
  state?: string;
  resource?: string | null;
  extra?: Record<string, string>;
}

export function authorizeQuery(t: OAuthRuntime, a: AuthorizeInput): string {
  const q = new URLSearchParams({
    response_type: "code",
    client_id: a.clientId,
    redirect_uri: a.redirectUri,
    code_challenge: a.challenge,
    code_challenge_method: "S256",
    scope: a.scope ?? "mcp wallet",
    state: a.state ?? "st-123",
    ...(a.resource === null ? {} : { resource: a.resource ?? `${t.url}/api/mcp` }),
    ...a.extra,
  });
  return `/dashboard/oauth/authorize?${q}`;
}

/** Shows the consent page and submits the owner's decision; returns the URL the browser is sent back to. */
export async function consent(d: DashboardClient, path: string, access: "mcp" | "wallet" = "mcp", decision: "allow" | "deny" = "allow"): Promise<URL> {
  const page = await d.get(path);
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${await page.text()}`);
  const html = d.lastHtml;
  const form: Record<string, string> = { decision, access };
  for (const m of html.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)"/g)) if (m[1] !== "_csrf") form[m[1]] = m[2].replace(/&amp;/g, "&").replace(/&quot;/g, '"');
  const res = await d.post("/dashboard/oauth/authorize", form);
  if (res.status !== 200) throw new Error(`consent POST: ${res.status} ${d.lastHtml}`);
  return returnUrl(d.lastHtml);
}

/** The client URL a "returning you to the application" page forwards to. */
export function returnUrl(html: string): URL {
  const m = /http-equiv="refresh" content="0;url=([^"]+)"/.exec(html);
  if (!m) throw new Error("no return URL on the page");
  return new URL(m[1].replace(/&amp;/g, "&"));
}

/** An MCP tools/call with a bearer token, over app.request; returns the HTTP status and the tool result. */
export async function mcpCall(t: OAuthRuntime, bearer: string, name: string, args: Record<string, unknown> = {}) {
  const res = await t.app.request("/api/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const body = (await res.json()) as { result?: { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, unknown> } };
  return { status: res.status, headers: res.headers, result: body.result };
}

/** A loopback redirect target, as a native MCP client runs one: resolves with each callback's query. */
export async function callbackServer() {
  const hits: URL[] = [];
  let waiter: ((u: URL) => void) | null = null;
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://127.0.0.1");
    hits.push(u);
    waiter?.(u);
    waiter = null;
    res.setHeader("content-type", "text/html");
    res.end("<!doctype html><title>Connected</title><p>You can close this window.</p>");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    hits,
    next: () => new Promise<URL>((r) => (waiter = r)),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export { ManualClock };
