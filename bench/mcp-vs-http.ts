/**
 * MCP `verify_intent` against its baseline, HTTP `POST /api/v1/intent`, in the same run on the same
 * in-process service (PGlite, rules judge). Both do the same work (one debit, one judged run, one
 * receipt); the difference is the MCP layer: auth lookup, a fresh McpServer + transport, JSON-RPC.
 *
 *   npx tsx bench/mcp-vs-http.ts            BENCH_SECONDS=10 BENCH_CONNECTIONS=16 BENCH_ROUNDS=2
 *
 * Target: MCP throughput >= 60% of HTTP.
 */
import { startBenchService } from "./lib/service";
import { measure, type LoadOptions, type Measured } from "./lib/load";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TARGET = 0.6;

const REQUEST = {
  intent: "Trade only BTC and ETH perpetuals on Hyperliquid. Max notional $2,000 per order.",
  action: { type: "order", orders: [{ a: 0, b: true, p: "97050", s: "0.02", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" },
  venue: "hyperliquid",
  context: { assets: { "0": "BTC", "1": "ETH" }, prices: { BTC: 97000, ETH: 3400 } },
};

const svc = await startBenchService();
const key = { "x-api-key": svc.apiKey, "content-type": "application/json" };
const http: LoadOptions = { url: `${svc.url}/api/v1/intent`, method: "POST", headers: key, body: JSON.stringify(REQUEST), connections: CONNECTIONS, duration: SECONDS };
const mcp: LoadOptions = {
  ...http,
  url: `${svc.url}/api/mcp`,
  // Stateless server: a tools/call needs no initialize round-trip first, as a real client's later calls don't.
  headers: { ...key, accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "verify_intent", arguments: REQUEST } }),
};

/** A 200 that carries an isError result would count as a success in the load numbers: check once first. */
async function sanityCheck() {
  const h = await fetch(http.url, { method: "POST", headers: http.headers, body: http.body });
  if (h.status !== 201) throw new Error(`HTTP baseline failed: ${h.status} ${await h.text()}`);
  const m = await fetch(mcp.url, { method: "POST", headers: mcp.headers, body: mcp.body });
  const body = (await m.json()) as { result?: { isError?: boolean; structuredContent?: { verdict?: unknown } } };
  if (m.status !== 200 || !body.result || body.result.isError) throw new Error(`MCP call failed: ${m.status} ${JSON.stringify(body)}`);
}

const fmt = (m: Measured) =>
  `${m.rps.toFixed(0).padStart(6)} req/s   p50 ${String(m.p50).padStart(4)} ms   p99 ${String(m.p99).padStart(4)} ms   server CPU ${(m.cpuUsPerRequest / 1000).toFixed(2)} ms/req   (${m.total} requests, ${m.failed} failed)`;

function combine(runs: Measured[]): Measured {
  const total = runs.reduce((s, r) => s + r.total, 0);
  return {
    rps: runs.reduce((s, r) => s + r.rps, 0) / runs.length,
    p50: Math.max(...runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    total,
    failed: runs.reduce((s, r) => s + r.failed, 0),
    cpuUsPerRequest: runs.reduce((s, r) => s + r.cpuUsPerRequest * r.total, 0) / Math.max(total, 1),
  };
}

async function compare(title: string, httpOpts: LoadOptions, mcpOpts: LoadOptions): Promise<number> {
  console.log(`\n${title}`);
  await measure({ ...httpOpts, duration: 3 });
  await measure({ ...mcpOpts, duration: 3 });
  const httpRuns: Measured[] = [];
  const mcpRuns: Measured[] = [];
  // Alternate the order between rounds so a slow drift (a growing table) does not favour either side.
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (["http", "mcp"] as const) : (["mcp", "http"] as const);
    for (const which of order) {
      const m = await measure(which === "http" ? httpOpts : mcpOpts);
      (which === "http" ? httpRuns : mcpRuns).push(m);
      console.log(`  round ${round + 1} ${which.padEnd(4)} ${fmt(m)}`);
    }
  }
  const h = combine(httpRuns);
  const m = combine(mcpRuns);
  const ratio = m.rps / h.rps;
  console.log(`  HTTP  ${fmt(h)}`);
  console.log(`  MCP   ${fmt(m)}`);
  console.log(`  MCP/HTTP throughput ${(ratio * 100).toFixed(1)}%; server CPU per request MCP/HTTP ${(m.cpuUsPerRequest / h.cpuUsPerRequest).toFixed(2)}x`);
  if (h.failed || m.failed) console.log("  warning: some requests failed; these figures are not comparable");
  return ratio;
}

try {
  await sanityCheck();
  console.log(`Arbiter MCP vs HTTP: ${CONNECTIONS} connections, ${SECONDS}s x ${ROUNDS} rounds each after a 3s warm-up, PGlite + rules judge, Node ${process.version}`);
  const ratio = await compare("verify (one credit, one judged run): MCP verify_intent vs HTTP POST /api/v1/intent", http, mcp);

  // Informational: a cheap read exposes the MCP layer's fixed cost best. It is not like for like: the HTTP
  // side is a bodiless GET, the MCP side a POST whose body is streamed and whose answer is ~3x larger.
  const made = (await (await fetch(http.url, { method: "POST", headers: http.headers, body: http.body })).json()) as { id: string };
  const httpRead: LoadOptions = { ...http, url: `${svc.url}/api/v1/intent/${made.id}`, method: "GET", body: undefined, headers: { "x-api-key": svc.apiKey } };
  const mcpRead: LoadOptions = { ...mcp, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_verification", arguments: { id: made.id } } }) };
  await compare("free read (informational): MCP get_verification vs HTTP GET /api/v1/intent/{id}", httpRead, mcpRead);

  console.log(`\nverify_intent MCP/HTTP ${(ratio * 100).toFixed(1)}% (target >= ${TARGET * 100}%: ${ratio >= TARGET ? "met" : "NOT met"})`);
} finally {
  await svc.stop();
}
