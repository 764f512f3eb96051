/**
 * Issue 18, item 5: a NUL character (U+0000) in a string argument was `internal: unexpected failure` (and an
 * unhandled error in the log) on the tools that store or look up text; over HTTP the same input is a clear
 * 400. Property over EVERY listed tool and every string argument, nested ones included: NUL anywhere in it
 * is an `isError` result naming the argument, never `internal`. The table of arguments must cover each tool
 * the server lists and each string property its input schema declares, so a new tool or argument is caught
 * the day it is added. Through the MCP SDK client over real HTTP, on the sandbox chain.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { freshAddress, startEscrowRuntime, type EscrowRuntime } from "../wallets/helpers";

const TO = freshAddress();
const CALL = { to: TO, value: "0", data: "0xa9059cbb" };

/** Arguments that pass each tool's schema; every string leaf is a place a NUL goes. Several shapes per tool where the schema offers alternatives. */
const ARGS: Record<string, Record<string, unknown>[]> = {
  verify_intent: [
    { intent: "Only buy BTC.", action: "buy 1 BTC", context: { reference: { source: "a forum", excerpt: "buy now" }, prices: { BTC: "97000" } }, venue: "ethereum" },
    { intent: "Only pay suppliers.", action: { to: TO, data: "0x", value: "1" } },
  ],
  get_verification: [{ id: "00000000-0000-4000-8000-000000000000" }],
  check_connection: [{}],
  create_escrow_wallet: [{ name: "nul-wallet", chain: "base", mode: "autonomous", mandate: "pay suppliers", limits: { tokenAllowlist: ["USDC"], recipientAllowlist: [TO] } }],
  update_escrow_wallet: [{ wallet: "nul-wallet", name: "renamed", mandate: "pay suppliers only", limits: { tokenAllowlist: ["USDC"], recipientAllowlist: [TO] } }],
  list_escrow_wallets: [{}],
  get_escrow_balances: [{ wallet: "nul-wallet" }],
  escrow_transfer: [{ wallet: "nul-wallet", asset: "USDC", amount: "1", to: TO, chain: "base", note: "invoice 7" }],
  escrow_execute: [
    { wallet: "nul-wallet", chain: "base", transaction: CALL, note: "pay" },
    { wallet: "nul-wallet", chain: "base", calls: [CALL, CALL], note: "pay" },
    { wallet: "nul-wallet", chain: "solana", solanaTransaction: "AQID", note: "pay" },
    { wallet: "nul-wallet", chain: "starknet", starknetCalls: [{ contractAddress: "0x1", entrypoint: "transfer", calldata: ["0x2"] }], starknetProof: { facts: ["0x3"], data: "AAAA" }, note: "pay" },
  ],
  list_escrow_transactions: [{ wallet: "nul-wallet", status: "executed", limit: 5 }],
  get_escrow_transaction: [{ id: "prop_0000" }],
  list_swap_tokens: [{ chain: "base" }],
  quote_escrow_swap: [{ wallet: "nul-wallet", sell: "USDC", buy: "ETH", amount: "1", chain: "base", slippageBps: 50 }],
  escrow_swap: [{ wallet: "nul-wallet", sell: "USDC", buy: "ETH", amount: "1", chain: "base", slippageBps: 50, note: "rebalance" }],
  escrow_pay_x402: [{ wallet: "nul-wallet", url: "https://example.com/paid", method: "GET", maxAmount: "0.10", note: "buy the report" }],
  topup_credits: [{ credits: 20 }],
  strk20_relay_status: [{}],
  strk20_pool_fee: [{ feeToken: "STRK" }],
  strk20_sign_proof_invocation: [{ wallet: "nul-wallet", compileActionsCalldata: ["0x1", "0x0", "0x0"] }],
  strk20_viewing_key_signature: [{ wallet: "nul-wallet" }],
  strk20_relay_private_action: [{ call: { contractAddress: "0x1", entrypoint: "apply_actions", calldata: ["0x2"] }, proof: "AAAA", proofFacts: ["0x3"], feeToken: "STRK" }],
};

type Path = (string | number)[];
/**
 * The message names the argument: `calls.1.data` as our rule writes it, or `calls[1].data` as the SDK's own
 * schema check writes it for a field whose pattern a NUL already breaks (e.g. a 0x-hex felt).
 */
const names = (text: string, path: Path) =>
  text.includes(path.join(".")) || text.includes(path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join(""));
/** Every string leaf of `v`, with its path. */
function stringLeaves(v: unknown, path: Path = []): Path[] {
  if (typeof v === "string") return [path];
  if (Array.isArray(v)) return v.flatMap((x, i) => stringLeaves(x, [...path, i]));
  if (v && typeof v === "object") return Object.entries(v).flatMap(([k, x]) => stringLeaves(x, [...path, k]));
  return [];
}
function withNulAt(args: Record<string, unknown>, path: Path, at: number): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(args)) as Record<string, unknown>; // not structuredClone: it keeps shared references
  let o: Record<string | number, unknown> = copy;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  const s = o[last] as string;
  const i = at % (s.length + 1);
  o[last] = `${s.slice(0, i)}\u0000${s.slice(i)}`;
  return copy;
}
/** The top-level properties a JSON Schema says may be (or contain) a string. */
function stringProperties(schema: { properties?: Record<string, unknown> }): string[] {
  return Object.entries(schema.properties ?? {})
    .filter(([, p]) => JSON.stringify(p).includes('"string"') && !JSON.stringify(p).includes('"enum"'))
    .map(([k]) => k);
}

let t: EscrowRuntime;
let client: Client;
beforeAll(async () => {
  t = await startEscrowRuntime({ listen: true });
  const a = await t.createAccount(1000);
  client = new Client({ name: "nul-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/api/mcp`), { requestInit: { headers: { "x-api-key": a.apiKey } } }));
});
afterAll(async () => {
  await client?.close().catch(() => {});
  await t?.close();
});

describe("NUL in any string argument of any MCP tool", () => {
  it("the argument table covers every listed tool and every string argument its schema declares", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual(Object.keys(ARGS).sort());
    for (const tool of tools) {
      const covered = new Set(ARGS[tool.name].flatMap((a) => stringLeaves(a).map((p) => String(p[0]))));
      for (const prop of stringProperties(tool.inputSchema as { properties?: Record<string, unknown> })) expect(covered, `${tool.name}.${prop}`).toContain(prop);
    }
  });

  it("is an isError invalid_input result naming the argument, never internal", { timeout: 300_000 }, async () => {
    const cases = Object.entries(ARGS).flatMap(([name, shapes]) => shapes.flatMap((args) => stringLeaves(args).map((path) => ({ name, args, path }))));
    expect(cases.length).toBe(88);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cases), fc.nat(), async ({ name, args, path }, at) => {
        const r = (await client.callTool({ name, arguments: withNulAt(args, path, at) })) as CallToolResult;
        const text = (r.content[0] as { text: string }).text;
        expect(r.isError, `${name} ${path.join(".")}: ${text}`).toBe(true);
        expect(text).not.toMatch(/internal/i);
        expect(names(text, path), text).toBe(true);
      }),
      { numRuns: cases.length * 3 },
    );
    // And each case at least once, whatever the generator picked.
    for (const { name, args, path } of cases) {
      const r = (await client.callTool({ name, arguments: withNulAt(args, path, 1) })) as CallToolResult;
      const text = (r.content[0] as { text: string }).text;
      expect(r.isError, `${name} ${path.join(".")}: ${text}`).toBe(true);
      expect(text, `${name} ${path.join(".")}`).not.toMatch(/internal/i);
      expect(names(text, path), `${name} ${path.join(".")}: ${text}`).toBe(true);
    }
  });

  it("names the argument the same way HTTP does for the same input", async () => {
    const a = await t.createAccount(5);
    const http = await t.request("POST", "/api/v1/wallets", { key: a.apiKey, body: { name: "bad\u0000name", chain: "base", mode: "autonomous", mandate: "x" } });
    expect(http.status).toBe(400);
    const httpBody = (await http.json()) as { message: string };
    const r = (await client.callTool({ name: "create_escrow_wallet", arguments: { name: "bad\u0000name", chain: "base", mode: "autonomous", mandate: "x" } })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect((r.content[0] as { text: string }).text).toBe(`invalid_input: ${httpBody.message}`);
  });
});
