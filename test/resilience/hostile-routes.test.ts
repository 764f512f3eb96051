/**
 * Hostile input on every route and every MCP tool: the route list is read from the app itself (so a new
 * route is covered the day it is added), each is called with the credentials it expects (API key, admin
 * token, a signed-in dashboard session with its CSRF token, none) and with generated path parameters,
 * query strings and bodies: arbitrary JSON, invalid JSON, huge strings, deep nesting, unicode and lone
 * surrogates, numbers at the edges, wrong types, malformed percent-encoding. Nothing may answer 5xx or
 * take longer than a few seconds. test/http/hostile-input.test.ts covers the intent and heartbeat bodies
 * field by field.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN } from "../helpers/runtime";
import { DashboardClient } from "../dashboard/client";
import { startTopupRuntime, type TopupRuntime } from "../topup/helpers";

let t: TopupRuntime;
let key: string;
let dash: DashboardClient;
let csrf: string;
let realIds: string[];
beforeAll(async () => {
  t = await startTopupRuntime();
  const a = await t.createAccount(100_000);
  key = a.apiKey;
  const w = (await (await t.request("POST", "/api/v1/wallets", { key, body: { name: "hostile", chain: "base", mode: "autonomous" } })).json()) as { id: string };
  const v = (await (await t.request("POST", "/api/v1/intent", { key, body: { intent: "Trade only BTC.", action: "buy 0.01 BTC" } })).json()) as { id: string };
  realIds = [w.id, v.id, a.accountId, "hostile"];
  dash = new DashboardClient(t);
  await dash.signUp(`hostile-${Date.now()}@example.com`);
  await dash.get("/dashboard/keys");
  csrf = dash.csrf();
});
afterAll(async () => {
  if (t) expect(await t.ledgerMismatches()).toEqual([]);
  await t?.close();
});

const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
const edgeNumbers = fc.constantFrom(0, -0, 1e308, -1e308, 5e-324, 2 ** 53 + 1, -(2 ** 63), 1e21, 1.2345678901234568e29);
const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("", " ", "null", "-1", "0x", "1e999", "NaN", "\u0000", "\ud800", "\u202e\u0041", "ﷺ", "💥".repeat(50), "a".repeat(70_000), "9".repeat(400), "' OR 1=1 --", "<script>alert(1)</script>", "../../etc/passwd"),
);
const hostileJson = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 5 }) },
  fc.dictionary(fc.constantFrom("intent", "action", "input", "name", "chain", "mode", "limits", "mandate", "credits", "reason", "scope", "address", "asset", "amount", "note", "usd"), fc.oneof(hostileString, edgeNumbers, fc.jsonValue({ maxDepth: 3 }))),
  hostileString,
  edgeNumbers,
);
/** A raw body: JSON of a hostile value, or text that is not JSON at all. */
const rawBody = fc.oneof(
  { weight: 5, arbitrary: hostileJson.map((v) => JSON.stringify(v) ?? "null") },
  fc.constantFrom("", "{", "{\"a\":", "[1,2", "\u0000", deep(5_000), `{"a":${deep(100)}}`, "true", "{\"__proto__\":{\"admin\":true}}"),
  fc.string(),
);
/** Path segments, URL-encoded or deliberately malformed. */
const pathParam = fc.oneof(
  hostileString.map((s) => {
    try {
      return encodeURIComponent(s);
    } catch {
      return "x";
    }
  }),
  fc.constantFrom("%", "%E0%A4%A", "%ZZ", "%00", "%2F..%2F", "..", "."),
);
const query = fc.dictionary(fc.constantFrom("usd", "credits", "account", "limit", "status", "walletId", "includeArchived", "next", "q", "cursor"), hostileString, { maxKeys: 3 });

/** HOSTILE_RUNS=<n> multiplies the runs for a deeper local search (CI runs the suite twice: keep it short). */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 1);

const withTimeout = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`hang: ${what} took over ${ms} ms`)), ms))]);

function credentials(path: string): Record<string, string> {
  if (path.startsWith("/admin/")) return { authorization: `Bearer ${ADMIN_TOKEN}` };
  if (path.startsWith("/dashboard")) return { cookie: (dash as unknown as { header(): string }).header(), "x-csrf-token": csrf, origin: dash.origin };
  return { "x-api-key": key };
}

async function send(method: string, template: string, params: string[], q: Record<string, string>, body: string, type: string) {
  let i = 0;
  const path = template.replace(/:[A-Za-z]+/g, () => params[i++ % params.length]);
  const qs = new URLSearchParams(q).toString();
  const url = `${path}${qs ? `?${qs}` : ""}`;
  const hasBody = method !== "GET" && method !== "DELETE";
  const res = await withTimeout(
    Promise.resolve(t.app.request(url, { method, headers: { ...credentials(path), ...(hasBody && type ? { "content-type": type } : {}), accept: "application/json, text/event-stream" }, body: hasBody ? body : undefined })),
    10_000,
    `${method} ${url}`,
  );
  await res.arrayBuffer();
  return { url, status: res.status };
}

// Signing out would end the session the other dashboard routes are called with.
const SKIP = new Set(["POST /dashboard/logout", "POST /dashboard/logout-everywhere"]);

describe("every route, hostile input", () => {
  it("never answers 5xx and never hangs", { timeout: 300_000 }, async () => {
    const routes = [...new Map(t.app.routes.filter((r) => ["GET", "POST", "DELETE"].includes(r.method) && !r.path.includes("*")).map((r) => [`${r.method} ${r.path}`, r])).values()].filter(
      (r) => !SKIP.has(`${r.method} ${r.path}`),
    );
    expect(routes.length).toBeGreaterThan(60);
    const failures: string[] = [];
    for (const r of routes) {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.oneof(pathParam, fc.constantFrom(...realIds)), { minLength: 1, maxLength: 3 }),
          query,
          rawBody,
          fc.constantFrom("application/json", "application/x-www-form-urlencoded", "text/plain", ""),
          async (params, q, body, type) => {
            // Collected rather than thrown: one run reports every failing route, not the first.
            const out = await send(r.method, r.path, params, q, body, type);
            if (out.status >= 500) failures.push(`${r.method} ${out.url} [${type}] ${body.slice(0, 60)} -> ${out.status}`);
          },
        ),
        { numRuns: RUNS * (r.path.startsWith("/api/") || r.path.startsWith("/admin/") ? 14 : 6) },
      );
    }
    expect(failures).toEqual([]);
  });
});

describe("every MCP tool, hostile arguments", () => {
  const rpc = (body: string) =>
    withTimeout(Promise.resolve(t.app.request("/api/mcp", { method: "POST", headers: { "x-api-key": key, "content-type": "application/json", accept: "application/json, text/event-stream" }, body })), 10_000, "MCP call");

  it("answers a JSON-RPC result or error, never 5xx", { timeout: 180_000 }, async () => {
    const tools = t.runtime.mcpTools.available(true).map((d) => d.name);
    expect(tools).toContain("verify_intent");
    for (const name of tools) {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.dictionary(fc.string({ maxLength: 12 }), hostileJson, { maxKeys: 5 }), hostileJson), async (args) => {
          const res = await rpc(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }));
          expect(res.status).toBeLessThan(500);
          const body = (await res.json()) as { result?: unknown; error?: unknown };
          expect(body.result !== undefined || body.error !== undefined).toBe(true);
        }),
        { numRuns: RUNS * 12 },
      );
    }
  });

  it("malformed JSON-RPC envelopes are refused without 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(rawBody, async (body) => {
        const res = await rpc(body);
        expect(res.status).toBeLessThan(500);
        await res.arrayBuffer();
      }),
      { numRuns: RUNS * 60 },
    );
  });
});
