/**
 * The five STRK20 tools through the MCP SDK's own client over real HTTP, on the sandbox Starknet node with
 * its modelled pool, local prover and local paymaster (the proof is an HMAC of its facts, not a STARK: the
 * sandbox checks the pool's non-cryptographic half only). Covers listing and scopes, the relay status with
 * the deployment's key, a fee quote, a private deposit and withdraw signed, proven and relayed (visible in
 * the pool's state), and the refusals custody must make.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_FORWARDER, SANDBOX_POOL_ADDRESS, slot } from "../../src/chains/starknet/sandbox/strk20/model";
import { channelKeyOf, encodeCompileCalldata, viewingPublicKey, type ClientAction } from "../../src/chains/starknet/strk20/actions";
import { viewingKeyFromSignature } from "../../src/chains/starknet/strk20/viewing-key";
import { freshFelt, SN_TOKENS, startStarknetEscrow, type StarknetEscrow } from "../wallets/starknet-helpers";

const STRK = SN_TOKENS.STRK;
const POOL = SANDBOX_POOL_ADDRESS;
const E18 = 10n ** 18n;
const FEE = 5n * 10n ** 17n;
const hex = (x: bigint) => "0x" + x.toString(16);

let t: StarknetEscrow;
const clients: Client[] = [];
beforeAll(async () => {
  t = await startStarknetEscrow({ listen: true });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await t?.close();
});

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new McpClient({ name: "strk20-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/api/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}
const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;
const data = (r: unknown) => {
  const m = text(r).match(/```json\n([\s\S]*)\n```$/);
  if (!m) throw new Error(`no JSON block in: ${text(r)}`);
  return JSON.parse(m[1]);
};
const call = async (c: Client, name: string, args: Record<string, unknown>) => (await c.callTool({ name, arguments: args })) as CallToolResult;
const poolView = async (entrypoint: string, calldata: string[] = []) => BigInt((await t.provider.callContract({ contractAddress: POOL, entrypoint, calldata }))[0]!);

/** An autonomous Starknet wallet, funded, deployed, with an allowance for the pool to pull deposits. */
async function readyWallet(key: string, mode: "autonomous" | "safe" = "autonomous", limits?: Record<string, unknown>) {
  const w = await t.createStarknetWallet(key, { name: `sn-${randomBytes(3).toString("hex")}`, mode, ...(limits ? { limits } : {}) });
  await t.fundSn(w.address, "STRK", "100");
  if (mode === "autonomous") {
    const r = await t.proposeSn(key, w.id, { kind: "starknet_calls", calls: [{ contractAddress: STRK, entrypoint: "approve", calldata: [POOL, hex(50n * E18), "0x0"] }] });
    expect(r.body.status).toBe("executed");
  }
  const vk = BigInt("0x" + randomBytes(24).toString("hex"));
  return { ...w, vk, pub: viewingPublicKey(vk) };
}
const fee = (): ClientAction => ({ type: "Withdraw", to: SANDBOX_FORWARDER, token: STRK, amount: FEE, random: 9n });
const register = (w: { address: string; pub: bigint }, amount: bigint): ClientAction[] => [
  { type: "SetViewingKey", random: 1n },
  { type: "Deposit", token: STRK, amount },
  { type: "CreateEncNote", recipient: w.address, recipientPublicKey: w.pub, token: STRK, amount: amount - FEE, index: 0n, salt: 77n },
  fee(),
];
const calldataOf = (w: { address: string; vk: bigint }, actions: ClientAction[]) => encodeCompileCalldata({ user: w.address, viewingKey: w.vk, actions });

async function signAndRelay(c: Client, w: { id: string; address: string; vk: bigint }, actions: ClientAction[]) {
  const signed = await call(c, "strk20_sign_proof_invocation", { wallet: w.id, compileActionsCalldata: calldataOf(w, actions) });
  if (signed.isError) throw new Error(text(signed));
  const s = data(signed);
  const relayed = await call(c, "strk20_relay_private_action", { call: s.call, proof: s.proof.data, proofFacts: s.proof.facts, feeToken: "STRK" });
  if (relayed.isError) throw new Error(text(relayed));
  const r = data(relayed);
  await t.provider.waitForTransaction(r.txHash, { retryInterval: 20 });
  return { signed: s, relayed: r };
}

describe("STRK20 MCP tools (SPEC 4.12) on the sandbox pool, prover and paymaster", () => {
  it("lists the five tools; an mcp-scope OAuth token reaches strk20_relay_status only", async () => {
    const a = await t.createAccount(5);
    const c = await connect({ "x-api-key": a.apiKey });
    const names = (await c.listTools()).tools.map((x) => x.name);
    for (const n of ["strk20_relay_status", "strk20_pool_fee", "strk20_sign_proof_invocation", "strk20_viewing_key_signature", "strk20_relay_private_action"]) expect(names).toContain(n);
    const tools = (await c.listTools()).tools;
    expect(tools.find((x) => x.name === "strk20_viewing_key_signature")?.description).toMatch(/DISCLOSES THE WALLET'S VIEWING KEY/);
    expect(tools.find((x) => x.name === "strk20_sign_proof_invocation")?.description).toMatch(/escrow_execute/);

    const token = ((await (await t.admin("POST", `/admin/v1/accounts/${a.accountId}/oauth-tokens`, { scope: "mcp" })).json()) as { accessToken: string }).accessToken;
    const narrow = await connect({ authorization: `Bearer ${token}` });
    const status = await call(narrow, "strk20_relay_status", {});
    expect(status.isError).toBeFalsy();
    for (const [name, args] of [
      ["strk20_pool_fee", {}],
      ["strk20_viewing_key_signature", { wallet: "x" }],
      ["strk20_sign_proof_invocation", { wallet: "x", compileActionsCalldata: ["0x1", "0x2", "0x1"] }],
      ["strk20_relay_private_action", { call: { contractAddress: POOL, entrypoint: "apply_actions", calldata: ["0x0", "0x1"] }, proof: "AAAA", proofFacts: ["0x1"] }],
    ] as const) {
      const r = await call(narrow, name, args);
      expect(r.isError, name).toBe(true);
      expect(text(r)).toMatch(/wallet access not granted/);
    }
  });

  it("relay status: key configured, relay reachable, key accepted; the fee quote is the withdraw to add", async () => {
    const a = await t.createAccount(5);
    const c = await connect({ "x-api-key": a.apiKey });
    expect(data(await call(c, "strk20_relay_status", {}))).toMatchObject({ configured: true, keyConfigured: true, relayReachable: true, keyAccepted: true, pool: POOL, reason: null });
    const q = data(await call(c, "strk20_pool_fee", {}));
    expect(q).toMatchObject({ feeToken: STRK, feeTokenSymbol: "STRK", feeAction: { type: "withdraw", token: STRK, amount: FEE.toString(), amountFormatted: "0.5", recipient: SANDBOX_FORWARDER }, clientAction: { variant: 7, toAddr: SANDBOX_FORWARDER, amount: hex(FEE) } });
    const usdc = data(await call(c, "strk20_pool_fee", { feeToken: SN_TOKENS.USDC }));
    expect(usdc.feeAction).toMatchObject({ token: SN_TOKENS.USDC, amount: "250000" });
    const bad = await call(c, "strk20_pool_fee", { feeToken: "0x1234" });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^strk20_refused: feeToken .* is not one of STRK, ETH, USDC, USDT/);
  });

  it("a private deposit then withdraw: compiled, signed, proven, relayed; visible in the pool's state; the same proof is never relayed twice", async () => {
    const a = await t.createAccount(5);
    const c = await connect({ "x-api-key": a.apiKey });
    const w = await readyWallet(a.apiKey);
    const before = await t.snBalance("STRK", w.address);
    const dep = await signAndRelay(c, w, register(w, 20n * E18));
    expect(dep.signed).toMatchObject({ wallet: w.id, address: w.address, pool: POOL, gated: false });
    expect(dep.signed.signature).toHaveLength(2);
    expect(dep.signed.proof.facts).toHaveLength(9);
    expect(Date.parse(dep.signed.proof.expiresAt) - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(dep.signed.notice).toMatch(/gated route is escrow_execute/);
    expect(dep.relayed.trackingId).toMatch(/^0x/);
    expect(await poolView("get_public_key", [w.address])).toBe(w.pub);
    expect(await t.snBalance("STRK", w.address)).toBe(before - 20n * E18);

    const channel = channelKeyOf(w.address, w.pub);
    const wd = await signAndRelay(c, w, [
      { type: "UseNote", channelKey: channel, token: STRK, index: 0n },
      { type: "CreateEncNote", recipient: w.address, recipientPublicKey: w.pub, token: STRK, amount: 14n * E18, index: 1n, salt: 5n },
      { type: "Withdraw", to: w.address, token: STRK, amount: 5n * E18, random: 1n },
      fee(),
    ]);
    expect(await poolView("nullifier_exists", [hex(slot.nullifier(slot.note(channel, BigInt(STRK), 0n)))])).toBe(1n);
    expect(await poolView("get_note", [hex(slot.note(channel, BigInt(STRK), 1n))])).toBe(14n * E18);
    expect(await t.snBalance("STRK", w.address)).toBe(before - 15n * E18);

    const again = await call(c, "strk20_relay_private_action", { call: wd.signed.call, proof: wd.signed.proof.data, proofFacts: wd.signed.proof.facts, feeToken: "STRK" });
    expect(again.isError).toBe(true);
    expect(text(again)).toMatch(/^strk20_refused: this proof was already relayed .* never sent twice/);
  });

  it("custody refuses: calldata not the wallet's, unknown variants, malformed Serde, external invokes, recipients off the allow-list, a safe wallet, another account's wallet", async () => {
    const a = await t.createAccount(5);
    const c = await connect({ "x-api-key": a.apiKey });
    const w = await readyWallet(a.apiKey, "autonomous", { recipientAllowlist: [SANDBOX_FORWARDER, POOL] });
    const refuse = async (calldata: string[], re: RegExp, wallet = w.id) => {
      const r = await call(c, "strk20_sign_proof_invocation", { wallet, compileActionsCalldata: calldata });
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(re);
    };
    const other = freshFelt();
    await refuse(calldataOf({ address: other, vk: w.vk }, register(w, E18)), /^strk20_refused: compileActionsCalldata\[0\] must be the wallet's address/);
    await refuse([w.address, hex(w.vk), "0x1", "0xa", "0x1"], /unknown client action variant 0xa/);
    await refuse([...calldataOf(w, register(w, E18)), "0x5"], /after the last action \(malformed Serde\)/);
    await refuse(calldataOf(w, register(w, E18)).slice(0, -1), /ends early/);
    await refuse(calldataOf(w, [{ type: "SetViewingKey", random: 1n }, { type: "InvokeExternal", contract: other, calldata: [1n] }]), /InvokeExternal\) would make the pool call another contract/);
    await refuse(calldataOf(w, [{ type: "SetViewingKey", random: 1n }, { type: "Deposit", token: STRK, amount: E18 }, { type: "Withdraw", to: other, token: STRK, amount: E18, random: 1n }]), /not on the wallet's recipient allow-list/);
    await refuse([w.address, "0x0", "0x1", "0x0", "0x1"], /viewing_key\) is not canonical/);
    const badSchema = await call(c, "strk20_sign_proof_invocation", { wallet: w.id, compileActionsCalldata: ["0x1"] });
    expect(badSchema.isError).toBe(true);

    const safe = await readyWallet(a.apiKey, "safe");
    await refuse(calldataOf(safe, register(safe, E18)), /^strk20_refused: wallet .* is a safe wallet: its owner approves every action.*escrow_execute/, safe.id);
    const vkSafe = await call(c, "strk20_viewing_key_signature", { wallet: safe.id });
    expect(vkSafe.isError).toBe(true);

    const b = await t.createAccount(5);
    const cb = await connect({ "x-api-key": b.apiKey });
    const theirs = await call(cb, "strk20_sign_proof_invocation", { wallet: w.id, compileActionsCalldata: calldataOf(w, register(w, E18)) });
    expect(text(theirs)).toMatch(/^not_found/);
  });

  it("the wallet's USD limits hold on the ungated path: per transaction, the daily cap shared with proposals, an unpriced outflow refused", async () => {
    const a = await t.createAccount(5);
    const c = await connect({ "x-api-key": a.apiKey });
    const w = await readyWallet(a.apiKey);
    // The pool's allowance (approve 50 STRK, $25 at the sandbox's $0.5) already counts in the window.
    const approved = await t.runtime.database.db.selectFrom("proposals").select(sql<number>`sum(reserved_usd)`.as("usd")).where("wallet_id", "=", w.id).executeTakeFirstOrThrow();
    const before = Number(approved.usd);
    expect(before).toBe(25);
    const limit = async (limits: Record<string, unknown>) => expect((await call(c, "update_escrow_wallet", { wallet: w.id, limits })).isError).toBeFalsy();
    await limit({ maxPerTxUsd: 1, dailyCapUsd: before + 1 });
    const other = freshFelt();
    const sign = (actions: ClientAction[]) => call(c, "strk20_sign_proof_invocation", { wallet: w.id, compileActionsCalldata: calldataOf(w, actions) });
    // Out of the wallet: 1 STRK withdrawn to another address plus the relayer's 0.5 STRK fee ($0.75).
    const paying = (amount: bigint): ClientAction[] => [
      { type: "SetViewingKey", random: 1n },
      { type: "Deposit", token: STRK, amount: 4n * E18 },
      { type: "CreateEncNote", recipient: w.address, recipientPublicKey: w.pub, token: STRK, amount: 4n * E18 - amount - FEE, index: 0n, salt: 77n },
      { type: "Withdraw", to: other, token: STRK, amount, random: 2n },
      fee(),
    ];

    // Per transaction: 2.5 STRK out + the fee = $1.50, above $1.
    const big = await sign(paying(25n * 10n ** 17n));
    expect(big.isError).toBe(true);
    expect(text(big)).toBe("strk20_refused: maxPerTxUsd: this proposal moves $1.50, above the limit of $1.00 per transaction; nothing was signed");

    // A signing the prover refuses (more withdrawn than deposited) counts nothing against the cap.
    const overdrawn = await sign([{ type: "SetViewingKey", random: 1n }, { type: "Withdraw", to: other, token: STRK, amount: E18, random: 2n }, fee()]);
    expect(overdrawn.isError).toBe(true);
    expect(text(overdrawn)).toMatch(/^strk20_rejected:/);

    // Within both limits: signed, counted ($0.75), relayed; the STRK reaches the other address.
    const ok = await sign(paying(E18));
    expect(ok.isError).toBeFalsy();
    const s = data(ok);
    expect(s).toMatchObject({ wallet: w.id, countedUsd: 0.75, gated: false });
    expect(s.notice).toMatch(/USD limits/);
    const relayed = data(await call(c, "strk20_relay_private_action", { call: s.call, proof: s.proof.data, proofFacts: s.proof.facts, feeToken: "STRK" }));
    await t.provider.waitForTransaction(relayed.txHash, { retryInterval: 20 });
    expect(await t.snBalance("STRK", other)).toBe(E18);

    // The daily cap counts that signing: a second one would reach $26.50 of $26.
    const again = await sign(paying(E18));
    expect(text(again)).toBe(`strk20_refused: dailyCapUsd: $25.75 already counted in the last 24 hours plus $0.75 here is above the daily cap of $26.00; nothing was signed`);
    // And so does every proposal: 1 STRK ($0.50) more is over the cap too, blocked for free.
    const proposal = await t.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "STRK", amount: "1", to: other } });
    expect(proposal.body).toMatchObject({ status: "blocked", verdict: "BLOCK" });
    expect(proposal.body.reasoning).toMatch(/^dailyCapUsd: \$25\.75 already counted/);

    // An open note to someone else has no amount to price: with a USD limit set, refused (fail closed).
    await limit({ dailyCapUsd: 1000 });
    const open = await sign([
      { type: "SetViewingKey", random: 1n },
      { type: "CreateOpenNote", recipient: other, recipientPublicKey: 5n, token: STRK, index: 0n, random: 3n },
      fee(),
    ]);
    expect(text(open)).toMatch(/^strk20_refused: the wallet's USD limits cannot be checked: no USD price for unknown \(an open note\) STRK to 0x[0-9a-f]+; nothing was signed$/);
    const rows = await t.runtime.database.db.selectFrom("strk20_signings").select(["usd", "account_id"]).where("wallet_id", "=", w.id).execute();
    expect(rows).toEqual([{ usd: 0.75, account_id: a.accountId }]);
  });

  it("the viewing-key signature is deterministic over the fixed message and yields the viewing key a holder can derive", async () => {
    const a = await t.createAccount(5);
    const c = await connect({ "x-api-key": a.apiKey });
    const w = await readyWallet(a.apiKey);
    const r1 = data(await call(c, "strk20_viewing_key_signature", { wallet: w.name }));
    const r2 = data(await call(c, "strk20_viewing_key_signature", { wallet: w.id }));
    expect(r1).toMatchObject({ wallet: w.id, address: w.address, pool: POOL, disclosesViewingKey: true });
    expect(r1.message).toBe(`0x534e5f4d41494e:${POOL}`);
    expect(r2.signature).toEqual(r1.signature);
    const k = viewingKeyFromSignature(BigInt(r1.signature[0]), BigInt(r1.signature[1]));
    expect(k > 0n).toBe(true);
    // It is a usable viewing key: register with it and deposit.
    const ready = { ...w, vk: k, pub: viewingPublicKey(k) };
    await signAndRelay(c, ready, register(ready, 3n * E18));
    expect(await poolView("get_public_key", [w.address])).toBe(ready.pub);
  });

  it("relay refusals: limits on the proof (facts count, size, base64; a 4 MB proof reaches the tool), the wrong contract, facts that are not proof facts", async () => {
    const a = await t.createAccount(5);
    const c = await connect({ "x-api-key": a.apiKey });
    const good = { call: { contractAddress: POOL, entrypoint: "apply_actions", calldata: ["0x0", "0x1"] }, proof: "AAAA", proofFacts: ["0x1"] };
    const tooMany = await call(c, "strk20_relay_private_action", { ...good, proofFacts: Array.from({ length: 65 }, () => "0x1") });
    expect(tooMany.isError).toBe(true);
    const none = await call(c, "strk20_relay_private_action", { ...good, proofFacts: [] });
    expect(none.isError).toBe(true);
    const decimal = await call(c, "strk20_relay_private_action", { ...good, proofFacts: ["12"] });
    expect(decimal.isError).toBe(true);
    const big = await call(c, "strk20_relay_private_action", { ...good, proof: "A".repeat(4 * 1024 * 1024) });
    expect(text(big)).toMatch(/under 4 MB/);
    const notB64 = await call(c, "strk20_relay_private_action", { ...good, proof: "not base64!" });
    expect(text(notB64)).toMatch(/must be base64/);
    const wrongPool = await call(c, "strk20_relay_private_action", { ...good, call: { ...good.call, contractAddress: STRK } });
    expect(text(wrongPool)).toMatch(/must be this deployment's privacy pool/);
    const notFacts = await call(c, "strk20_relay_private_action", good);
    expect(text(notFacts)).toMatch(/not STRK20 proof facts/);
  });
});
