/**
 * Access control across accounts and credentials (docs/security.md):
 * - another account's objects are 404 on every API route that takes an id (the route list comes from the
 *   app, so a new route is covered), on every MCP tool that takes one, and on the dashboard;
 * - API keys and OAuth tokens cannot reach owner-only actions: the admin API, and the dashboard's confirm,
 *   reject and other state-changing pages (those need the owner's session);
 * - secrets are compared in constant time (a scan of src/ for plain comparisons of secret-named values).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { DashboardClient } from "../dashboard/client";
import { startTopupRuntime, type TopupRuntime } from "../topup/helpers";

let t: TopupRuntime;
let A: { accountId: string; apiKey: string };
let B: { accountId: string; apiKey: string };
let ids: { wallet: string; walletName: string; verification: string; requestHash: string; proposal: string; held: string };
const bob = getAddress(privateKeyToAccount(generatePrivateKey()).address);
const json = async (r: Response | Promise<Response>) => {
  const res = await r;
  const text = await res.text();
  return { status: res.status, body: (text.startsWith("{") ? JSON.parse(text) : { text }) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
};

beforeAll(async () => {
  t = await startTopupRuntime();
  A = await t.createAccount(20);
  B = await t.createAccount(20);
  const w = (await json(t.request("POST", "/api/v1/wallets", { key: A.apiKey, body: { name: "a-wallet", chain: "base", mode: "autonomous", mandate: `Send at most 5 USDC per transfer to ${bob}.` } }))).body;
  const safe = (await json(t.request("POST", "/api/v1/wallets", { key: A.apiKey, body: { name: "a-safe", chain: "base", mode: "safe", mandate: `Send at most 5 USDC per transfer to ${bob}.` } }))).body;
  for (const addr of [w.address, safe.address]) {
    await t.sandbox.faucet.fund({ address: addr, asset: "ETH", amount: "1" });
    await t.sandbox.faucet.fund({ address: addr, asset: "USDC", amount: "50" });
  }
  const transfer = { input: { kind: "transfer", chain: "base", transfer: { asset: "USDC", amount: "1", to: bob } } };
  const p = (await json(t.request("POST", `/api/v1/wallets/${w.id}/propose`, { key: A.apiKey, body: transfer }))).body;
  const held = (await json(t.request("POST", `/api/v1/wallets/${safe.id}/propose`, { key: A.apiKey, body: transfer }))).body;
  expect(held.status).toBe("awaiting_user");
  const v = (await json(t.request("POST", "/api/v1/intent", { key: A.apiKey, body: { intent: "Trade only BTC.", action: "buy 0.01 BTC" } }))).body;
  ids = { wallet: w.id, walletName: "a-wallet", verification: v.id, requestHash: v.requestHash, proposal: p.txId, held: held.txId };
});
afterAll(async () => {
  await t?.close();
});

/** Every way a route can name one of A's objects. */
function fillings(route: string): string[] {
  if (route.includes("/intent/:id")) return [route.replace(":id", ids.verification), route.replace(":id", ids.requestHash)];
  if (route.includes("/wallets/:id")) return [route.replace(":id", ids.wallet), route.replace(":id", ids.walletName)];
  if (route.includes(":txId")) return [route.replace(":txId", ids.proposal), route.replace(":txId", ids.held)];
  throw new Error(`no filling for ${route}`);
}

describe("another account's objects are 404", () => {
  it("on every /api/v1 route that takes an id", async () => {
    const routes = [...new Set(t.app.routes.filter((r) => r.path.startsWith("/api/v1/") && r.path.includes("/:") && ["GET", "POST"].includes(r.method)).map((r) => `${r.method} ${r.path}`))];
    expect(routes.length).toBeGreaterThanOrEqual(6);
    const body = { input: { kind: "transfer", chain: "base", transfer: { asset: "USDC", amount: "1", to: bob } }, sell: "USDC", buy: "WETH", amount: "1", chain: "base" };
    for (const r of routes) {
      const [method, route] = r.split(" ");
      for (const url of fillings(route)) {
        const own = await json(t.request(method, url, { key: A.apiKey, ...(method === "POST" ? { body } : {}) }));
        const other = await json(t.request(method, url, { key: B.apiKey, ...(method === "POST" ? { body } : {}) }));
        expect({ r: `${method} ${url}`, status: other.status }).toEqual({ r: `${method} ${url}`, status: 404 });
        expect(own.status).not.toBe(404); // the id is real
      }
    }
    // Listings do not leak either.
    expect((await json(t.request("GET", "/api/v1/wallets", { key: B.apiKey }))).body.wallets).toEqual([]);
    expect((await json(t.request("GET", "/api/v1/escrow-transactions", { key: B.apiKey }))).body.transactions).toEqual([]);
    const filtered = await json(t.request("GET", `/api/v1/escrow-transactions?wallet=${ids.wallet}`, { key: B.apiKey }));
    expect(filtered.status === 404 || (filtered.status === 200 && filtered.body.transactions.length === 0)).toBe(true);
  });

  it("on every MCP tool that takes an id", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["get_verification", { id: ids.verification }],
      ["get_verification", { id: ids.requestHash }],
      ["update_escrow_wallet", { wallet: ids.wallet, name: "stolen" }],
      ["get_escrow_balances", { wallet: ids.wallet }],
      ["escrow_transfer", { wallet: ids.wallet, asset: "USDC", amount: "1", to: bob, chain: "base" }],
      ["escrow_execute", { wallet: ids.wallet, chain: "base", transaction: { to: bob, data: "0x" } }],
      ["list_escrow_transactions", { wallet: ids.wallet }],
      ["get_escrow_transaction", { id: ids.proposal }],
      ["quote_escrow_swap", { wallet: ids.wallet, sell: "USDC", buy: "WETH", amount: "1", chain: "base" }],
      ["escrow_swap", { wallet: ids.wallet, sell: "USDC", buy: "WETH", amount: "1", chain: "base" }],
      ["escrow_pay_x402", { wallet: ids.wallet, url: "https://example.com/paid" }],
    ];
    const available = new Set(t.runtime.mcpTools.available(true).map((d) => d.name));
    for (const [name, args] of calls.filter(([n]) => available.has(n))) {
      const r = await json(t.request("POST", "/api/mcp", { key: B.apiKey, headers: { accept: "application/json, text/event-stream" }, body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } } }));
      expect({ name, isError: r.body.result?.isError }).toEqual({ name, isError: true });
      expect({ name, text: JSON.stringify(r.body.result.content) }).toEqual({ name, text: expect.stringMatching(/not.?found/i) });
    }
    const w = (await json(t.request("GET", `/api/v1/wallets/${ids.wallet}`, { key: A.apiKey }))).body;
    expect(w.name).toBe("a-wallet");
  });

  it("on the dashboard", async () => {
    const d = new DashboardClient(t);
    await d.signUp(`other-${Date.now()}@example.com`);
    for (const page of [`/dashboard/verifications/${ids.verification}`, `/dashboard/wallets/${ids.wallet}`, `/dashboard/wallets/${ids.wallet}/rules`, `/dashboard/proposals/${ids.held}`, `/dashboard/api/verifications/${ids.verification}/transcript`]) {
      expect({ page, status: (await d.get(page)).status }).toEqual({ page, status: 404 });
    }
    await d.get("/dashboard/proposals");
    for (const action of [`/dashboard/proposals/${ids.held}/confirm`, `/dashboard/proposals/${ids.held}/reject`, `/dashboard/wallets/${ids.wallet}/archive`, `/dashboard/wallets/${ids.wallet}/who-may-loosen`, `/dashboard/wallets/${ids.wallet}/rule-changes/rc_x/approve`]) {
      expect({ action, status: (await d.post(action, { value: "owner" })).status }).toEqual({ action, status: 404 });
    }
    expect((await json(t.request("GET", `/api/v1/escrow-transactions/${ids.held}`, { key: A.apiKey }))).body.status).toBe("awaiting_user");
  });
});

describe("API keys and OAuth tokens cannot reach owner-only actions", () => {
  it("the admin API refuses them (401) on every route", async () => {
    const token = (await json(t.admin("POST", `/admin/v1/accounts/${A.accountId}/oauth-tokens`, { scope: "mcp wallet" }))).body.accessToken as string;
    const routes = [...new Set(t.app.routes.filter((r) => r.path.startsWith("/admin/v1/") && !r.path.includes("*") && r.method !== "ALL").map((r) => `${r.method} ${r.path}`))];
    expect(routes.length).toBeGreaterThanOrEqual(10);
    for (const r of routes) {
      const [method, route] = r.split(" ");
      const url = route.replace(":accountId", A.accountId).replace(":id", ids.wallet).replace(":txId", ids.held).replace(/:[A-Za-z]+/g, "x");
      const credentials: Record<string, string>[] = [{ authorization: `Bearer ${A.apiKey}` }, { "x-api-key": A.apiKey }, { authorization: `Bearer ${token}` }];
      for (const headers of credentials) {
        const res = await t.request(method, url, { headers, ...(method === "POST" ? { body: { name: "x", credits: 1000, reason: "x" } } : {}) });
        expect({ r, status: res.status }).toEqual({ r, status: 401 });
      }
    }
  });

  it("the dashboard's confirm, reject and other state changes need the owner's session", async () => {
    const actions = [
      `/dashboard/proposals/${ids.held}/confirm`,
      `/dashboard/proposals/${ids.held}/reject`,
      `/dashboard/wallets/${ids.wallet}/archive`,
      `/dashboard/keys`,
      `/dashboard/wallets/${ids.wallet}/withdraw`,
      // Who may loosen the rules, and the decisions about an agent's held rule change (issue 18, attack 1).
      `/dashboard/wallets/${ids.wallet}/who-may-loosen`,
      `/dashboard/wallets/who-may-loosen`,
      `/dashboard/wallets/${ids.wallet}/rule-changes/rc_x/approve`,
      `/dashboard/wallets/${ids.wallet}/rule-changes/rc_x/reject`,
    ];
    for (const action of actions) {
      const credentials: Record<string, string>[] = [{ "x-api-key": A.apiKey }, { authorization: `Bearer ${A.apiKey}` }];
      for (const headers of credentials) {
        const res = await t.request("POST", action, { headers: { ...headers, origin: "http://localhost", "content-type": "application/x-www-form-urlencoded" }, raw: "to=0x000000000000000000000000000000000000dEaD&amount=1&value=owner" });
        expect({ action, status: [401, 403, 302, 303].includes(res.status) }).toEqual({ action, status: true });
        if (res.status >= 300 && res.status < 400) expect(res.headers.get("location")).toMatch(/\/dashboard\/login/);
      }
    }
    expect((await json(t.request("GET", `/api/v1/escrow-transactions/${ids.held}`, { key: A.apiKey }))).body.status).toBe("awaiting_user");
    expect((await json(t.request("GET", `/api/v1/wallets/${ids.wallet}`, { key: A.apiKey }))).body.archived ?? false).toBe(false);
    expect((await json(t.request("GET", `/api/v1/wallets/${ids.wallet}`, { key: A.apiKey }))).body.rules.whoMayLoosen).toBe("agent");
  });
});

describe("timing-safe comparisons", () => {
  /** A secret-named value compared with === / !== (not with undefined/null/typeof/length). */
  // Bare "token" is left out: in this code base it is mostly an ERC-20 token.
  const SECRET = "(?:accessToken|refreshToken|adminToken|authToken|csrfToken|sessionToken|bearerToken|apiKey|api_key|secret|password|csrf|codeVerifier|code_verifier|challenge)";
  const PLAIN = new RegExp(`(?:\\b[\\w$.]*${SECRET}\\b\\s*[!=]==(?!\\s*(?:undefined|null)\\b))|(?:[!=]==\\s*(?!(?:undefined|null)\\b)[\\w$.]*${SECRET}\\b)`, "i");
  const REVIEWED: string[] = [];

  it("no secret-named value is compared with === or !== in src/", () => {
    const root = path.resolve(import.meta.dirname, "../../src");
    const files: string[] = [];
    const walk = (d: string) => {
      for (const f of readdirSync(d)) {
        const p = path.join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(f)) files.push(p);
      }
    };
    walk(root);
    const hits: string[] = [];
    for (const f of files) {
      readFileSync(f, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (/^\s*(\*|\/\/)/.test(line) || /typeof|\.length\b/.test(line)) return;
          if (PLAIN.test(line) && !REVIEWED.some((r) => line.includes(r))) hits.push(`${path.relative(root, f)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(hits).toEqual([]);
    // And the comparisons that must be constant-time use the helper.
    expect(readFileSync(path.join(root, "http/routes/admin.ts"), "utf8")).toMatch(/safeEqual\(/);
    expect(readFileSync(path.join(root, "dashboard/security.ts"), "utf8")).toMatch(/safeEqual\(/);
  });
});
