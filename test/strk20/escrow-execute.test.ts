/**
 * The gated route for a STRK20 private action (SPEC 4.9, 4.12): escrow_execute with starknetCalls (one call to
 * the pool's apply_actions) and starknetProof, through the MCP SDK client on the sandbox (the proof is an HMAC
 * of its facts, not a STARK). A proposal like any other: simulated with the proof facts, checked, judged,
 * executed by the wallet itself (which pays the gas and the pool fee), or blocked by the mandate; the proof is
 * never stored, so a held proposal says a fresh one is needed and its confirmation without one fails clearly.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStarknetAdapter } from "../../src/chains/starknet/adapter";
import { SANDBOX_POOL_ADDRESS } from "../../src/chains/starknet/sandbox/strk20/model";
import { encodeCompileCalldata, viewingPublicKey, type ClientAction } from "../../src/chains/starknet/strk20/actions";
import { ManualClock } from "../../src/lib/clock";
import { SN_TOKENS, startStarknetEscrow, type StarknetEscrow } from "../wallets/starknet-helpers";

const STRK = SN_TOKENS.STRK;
const POOL = SANDBOX_POOL_ADDRESS;
const E18 = 10n ** 18n;
const hex = (x: bigint) => "0x" + x.toString(16);

let t: StarknetEscrow;
let c: Client;
let key: string;
/** The service's clock: the proof's five-minute rule reads it (the node's block times stay real). */
const clock = new ManualClock();
beforeAll(async () => {
  t = await startStarknetEscrow({ listen: true, clock });
  const a = await t.createAccount(20);
  key = a.apiKey;
  c = new Client({ name: "strk20-gated", version: "1.0.0" });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/api/mcp`), { requestInit: { headers: { "x-api-key": key } } }));
});
afterAll(async () => {
  await c?.close().catch(() => {});
  await t?.close();
});

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;
const data = (r: unknown) => {
  const m = text(r).match(/```json\n([\s\S]*)\n```$/);
  if (!m) throw new Error(`no JSON block in: ${text(r)}`);
  return JSON.parse(m[1]);
};
const call = async (name: string, args: Record<string, unknown>) => (await c.callTool({ name, arguments: args })) as CallToolResult;
const publicKeyInPool = async (address: string) => BigInt((await t.provider.callContract({ contractAddress: POOL, entrypoint: "get_public_key", calldata: [address] }))[0]!);

/** An autonomous wallet (its mandate tag drives the scripted judge) ready to sign and to pay the pool. */
async function wallet(mandate: string) {
  const w = await t.createStarknetWallet(key, { name: `g-${randomBytes(3).toString("hex")}`, mandate });
  await t.fundSn(w.address, "STRK", "100");
  // The pool pulls its fee and deposits from the caller: a standing allowance (apply_actions cannot share the multicall).
  const approve = await t.proposeSn(key, w.id, { kind: "starknet_calls", calls: [{ contractAddress: STRK, entrypoint: "approve", calldata: [POOL, hex(50n * E18), "0x0"] }] });
  if (approve.body.status !== "executed") {
    // A blocking mandate blocks the approval too: give it through an allowing wallet path instead.
    throw new Error(`approve: ${JSON.stringify(approve.body)}`);
  }
  const vk = BigInt("0x" + randomBytes(24).toString("hex"));
  return { ...w, vk, pub: viewingPublicKey(vk) };
}
const deposit = (w: { address: string; pub: bigint }, amount: bigint): ClientAction[] => [
  { type: "SetViewingKey", random: 1n },
  { type: "Deposit", token: STRK, amount },
  { type: "CreateEncNote", recipient: w.address, recipientPublicKey: w.pub, token: STRK, amount, index: 0n, salt: 42n },
];
async function signed(w: { id: string; address: string; vk: bigint; pub: bigint }, actions: ClientAction[]) {
  const r = await call("strk20_sign_proof_invocation", { wallet: w.id, compileActionsCalldata: encodeCompileCalldata({ user: w.address, viewingKey: w.vk, actions }) });
  if (r.isError) throw new Error(text(r));
  return data(r) as { call: { contractAddress: string; entrypoint: string; calldata: string[] }; proof: { facts: string[]; data: string } };
}
const execute = (w: { id: string }, s: Awaited<ReturnType<typeof signed>>, extra: Record<string, unknown> = {}) =>
  call("escrow_execute", { wallet: w.id, chain: "starknet", starknetCalls: [s.call], starknetProof: { facts: s.proof.facts, data: s.proof.data }, ...extra });

describe("escrow_execute with starknetProof: the gated STRK20 route", () => {
  it("judged and executed: the wallet sends apply_actions with the proof; the deposit shows in the pool", async () => {
    const w = await wallet("[judge:allow] private deposits of STRK are fine");
    const before = await t.snBalance("STRK", w.address);
    const s = await signed(w, deposit(w, 10n * E18));
    const r = await execute(w, s, { note: "deposit into the privacy pool" });
    expect(r.isError, text(r)).toBeFalsy();
    const p = data(r);
    expect(p).toMatchObject({ status: "executed", verdict: "ALLOW" });
    expect(p.simulation.status).toBe("clean");
    expect(JSON.stringify(p)).toMatch(/strk20_proof_not_stored|proof is not stored/);
    expect(await publicKeyInPool(w.address)).toBe(w.pub);
    // 10 STRK deposited + the 2 STRK pool fee (pulled from the wallet, the caller) + gas.
    const spent = before - (await t.snBalance("STRK", w.address));
    expect(spent > 12n * E18 && spent < 13n * E18).toBe(true);
    // The stored proposal has the facts at most, never the proof.
    const rows = await t.runtime.database.db.selectFrom("proposals").selectAll().where("wallet_id", "=", w.id).execute();
    expect(JSON.stringify(rows)).not.toContain(s.proof.data.slice(0, 64));
  });

  it("blocked by the mandate: nothing reaches the pool", async () => {
    const w = await wallet("[judge:allow] only plain transfers");
    const s = await signed(w, deposit(w, 5n * E18));
    expect((await call("update_escrow_wallet", { wallet: w.id, mandate: "[judge:block] no private actions" })).isError).toBeFalsy();
    const p = data(await execute(w, s));
    expect(p).toMatchObject({ status: "blocked", verdict: "BLOCK" });
    expect(await publicKeyInPool(w.address)).toBe(0n);
  });

  it("held for the owner: the proposal says a fresh proof is needed; preparing it where the proof is not held (another process, a restart) fails with that reason", async () => {
    const w = await wallet("[judge:allow] x");
    const s = await signed(w, deposit(w, 5n * E18));
    expect((await call("update_escrow_wallet", { wallet: w.id, mandate: "[judge:escalate] ask me" })).isError).toBeFalsy();
    const p = data(await execute(w, s));
    expect(p.status).toBe("awaiting_user");
    expect(JSON.stringify(p)).toMatch(/fresh proof is needed at confirmation/);
    // What confirming it in another process (or after a restart) meets: a Starknet adapter without the proof.
    const row = await t.runtime.database.db.selectFrom("proposals").select(["payload"]).where("id", "=", p.txId ?? p.id).executeTakeFirstOrThrow();
    const sn = t.runtime.starknet!;
    const fresh = createStarknetAdapter({ rpcUrl: sn.sandbox!.url, custody: sn.adapter.custody as never, sandbox: true, keyRefOf: async () => null, prices: { usd: async () => null }, strk20Pool: POOL });
    const payload = (typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload) as Parameters<typeof fresh.prepare>[1];
    expect(payload.proofFacts).toEqual(s.proof.facts);
    const prepared = await fresh.prepare({ id: w.id, address: w.address, chain: "starknet" }, payload);
    expect(prepared).toEqual({ ok: false, reason: expect.stringMatching(/needs a fresh proof: the proof sent with the proposal is not stored/) });
  });

  it("blocked as expired: a proof older than five minutes is refused before the judge (free); nothing reaches the pool", async () => {
    const w = await wallet("[judge:allow] private deposits of STRK are fine");
    const s = await signed(w, deposit(w, 5n * E18));
    const credits = async () => ((await (await t.request("GET", "/api/v1/credits", { key })).json()) as { creditsRemaining: number }).creditsRemaining;
    const before = await credits();
    clock.advance(6 * 60_000);
    try {
      const r = await execute(w, s);
      expect(r.isError, text(r)).toBe(true);
      expect(text(r)).toMatch(/the proof expired: proofs are used within about five minutes/);
    } finally {
      clock.set(new Date());
    }
    expect(await credits()).toBe(before);
    expect(await publicKeyInPool(w.address)).toBe(0n);
  });

  it("refused before the judge (free): apply_actions mixed with other calls, apply_actions without a proof, a proof on another call, proofs outside SPEC 8", async () => {
    const w = await wallet("[judge:allow] x");
    const s = await signed(w, deposit(w, E18));
    const transfer = { contractAddress: STRK, entrypoint: "transfer", calldata: [w.address, "0x1", "0x0"] };
    const mixed = await call("escrow_execute", { wallet: w.id, chain: "starknet", starknetCalls: [s.call, transfer], starknetProof: s.proof });
    expect(text(mixed)).toMatch(/apply_actions cannot share a multicall/);
    const noProof = await call("escrow_execute", { wallet: w.id, chain: "starknet", starknetCalls: [s.call] });
    expect(text(noProof)).toMatch(/needs its proof: send starknetProof/);
    const elsewhere = await call("escrow_execute", { wallet: w.id, chain: "starknet", starknetCalls: [transfer], starknetProof: s.proof });
    expect(text(elsewhere)).toMatch(/proof is only for one call to the privacy pool's apply_actions/);
    const many = await call("escrow_execute", { wallet: w.id, chain: "starknet", starknetCalls: [s.call], starknetProof: { facts: Array.from({ length: 65 }, () => "0x1"), data: s.proof.data } });
    expect(text(many)).toMatch(/1 to 64 hex felts/);
    const decimal = await call("escrow_execute", { wallet: w.id, chain: "starknet", starknetCalls: [s.call], starknetProof: { facts: ["12"], data: s.proof.data } });
    expect(text(decimal)).toMatch(/0x-hex felt/);
    const b64 = await call("escrow_execute", { wallet: w.id, chain: "starknet", starknetCalls: [s.call], starknetProof: { facts: s.proof.facts, data: "%%%" } });
    expect(text(b64)).toMatch(/must be base64/);
    expect(await publicKeyInPool(w.address)).toBe(0n);
  });
});
