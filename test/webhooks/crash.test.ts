/**
 * kill -9 between an event and its delivery: the event was committed with the proposal (outbox trigger),
 * the process dies before its delivery worker ran, and the restarted service delivers it exactly once.
 * Runs the real `npm start` bundle; the receiver checks the Standard Webhooks signature.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { alive, childPids, freePort, startService, until, type ServiceProcess } from "../helpers/process";
import { startReceiver, type Receiver } from "./receiver";

const ADMIN = "webhook-crash-admin-token-0123456789";
const dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-webhook-crash-"));
let svc: ServiceProcess | null = null;
let rx: Receiver | null = null;

afterAll(async () => {
  if (svc && svc.child.exitCode === null) {
    svc.child.kill("SIGTERM");
    await svc.exited;
  }
  await rx?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A browser-like session over fetch: cookies, Origin, the page's CSRF token. */
function browser(base: string) {
  const jar = new Map<string, string>();
  let csrf = "";
  const go = async (method: "GET" | "POST", route: string, form?: Record<string, string>) => {
    const body = form ? new URLSearchParams({ ...form, _csrf: csrf }).toString() : undefined;
    const res = await fetch(`${base}${route}`, {
      method,
      redirect: "manual",
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "), origin: base, ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const i = pair.indexOf("=");
      jar.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
    }
    const html = await res.text();
    csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? csrf;
    return { status: res.status, html };
  };
  return { get: (r: string) => go("GET", r), post: (r: string, f: Record<string, string>) => go("POST", r, f) };
}

it("delivers an event recorded just before a kill -9 once, after the restart", { timeout: 240_000 }, async () => {
  rx = await startReceiver();
  const port = await freePort();
  const rpcPort = await freePort();
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    SANDBOX: "true",
    SANDBOX_RPC_PORT: String(rpcPort),
    ADMIN_TOKEN: ADMIN,
    LOG_LEVEL: "warn",
    ALLOW_LOOPBACK_FETCH: "true",
  };
  // First life: the delivery worker would only look after a minute.
  svc = await startService({ ...env, WEBHOOK_POLL_MS: "60000" });
  const b = browser(svc.url);
  await b.get("/dashboard/signup");
  expect((await b.post("/dashboard/signup", { email: "crash@example.com", password: "correct horse battery staple", accountName: "" })).status).toBe(303);
  await b.get("/dashboard/keys");
  const apiKey = /data-copy="(svc_sk_live_[A-Za-z0-9_-]+)"/.exec((await b.post("/dashboard/keys", {})).html)![1];
  await b.get("/dashboard/webhooks");
  const added = await b.post("/dashboard/webhooks", { url: rx.url, events: "proposal.awaiting_user" });
  rx.setSecret(/data-copy="(whsec_[^"]+)"/.exec(added.html)![1]);

  const call = async (method: string, route: string, body?: unknown, headers: Record<string, string> = { "x-api-key": apiKey }) => {
    const res = await fetch(`${svc!.url}${route}`, { method, headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: body ? JSON.stringify(body) : undefined });
    return (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const conn = await call("POST", "/api/mcp", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "check_connection", arguments: {} } });
  const accountId = conn.result.structuredContent?.account ?? JSON.parse(/```json\n([\s\S]*?)\n```/.exec(conn.result.content[0].text)![1]).account;
  const granted = await call("POST", `/admin/v1/accounts/${accountId}/credits`, { credits: 5, reason: "crash-test" }, { authorization: `Bearer ${ADMIN}` });
  expect(granted.creditsRemaining).toBe(5);
  const wallet = await call("POST", "/api/v1/wallets", { name: "held", chain: "base", mode: "safe", mandate: "Only send USDC." });
  for (const [asset, amount] of [["ETH", "0.01"], ["USDC", "10"]]) await call("POST", "/admin/v1/sandbox/fund", { chain: "base", address: wallet.address, asset, amount }, { authorization: `Bearer ${ADMIN}` });
  const held = await call("POST", "/api/v1/wallets/held/propose", { input: { kind: "transfer", chain: "base", transfer: { asset: "USDC", amount: "2", to: "0x000000000000000000000000000000000000dEaD" } } });
  expect(held.status, JSON.stringify(held)).toBe("awaiting_user");

  const orphans = childPids(svc.child.pid!); // the sandbox chain (anvil) outlives a kill -9
  svc.child.kill("SIGKILL");
  await svc.exited;
  for (const pid of orphans) {
    process.kill(pid, "SIGTERM"); // anvil writes its state on SIGTERM
    await until("the orphaned sandbox chain to exit", async () => !alive(pid));
  }
  expect(rx.all).toHaveLength(0);

  // Second life: the worker claims the committed delivery and sends it once.
  svc = await startService({ ...env, WEBHOOK_POLL_MS: "100" });
  const got = await until("the event delivered", async () => (rx!.accepted().length ? rx!.accepted() : null));
  await new Promise((ok) => setTimeout(ok, 1_000));
  expect(rx.all).toHaveLength(1);
  expect(got[0]).toMatchObject({ type: "proposal.awaiting_user", verified: true });
  expect(got[0].data.proposalId).toBe(held.txId);
  expect(got[0].data.approvalUrl).toBe(held.approvalUrl);
});
