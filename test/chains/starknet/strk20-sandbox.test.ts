/**
 * STRK20 over real HTTP, no mocks: the production prover and paymaster clients against the sandbox's local
 * proving service and paymaster, and the pool modelled in the sandbox node. What the sandbox checks is the
 * pool's non-cryptographic half (facts layout, base block and validity window, message hash = hash of the
 * submitted actions, fee pulled from the caller, nullifiers written once). The proof is NOT a STARK: the
 * node only checks the local prover's MAC over the facts, and these tests say so where it matters.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Account, cairo, CallData, RpcProvider, stark } from "starknet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WalletRef } from "../../../src/chains/port";
import { createStarknetAdapter } from "../../../src/chains/starknet/adapter";
import { STRK_ADDRESS } from "../../../src/chains/starknet/constants";
import { createStarkSigner } from "../../../src/chains/starknet/custody";
import { startStarknetSandbox, type StarknetSandbox } from "../../../src/chains/starknet/sandbox";
import { SANDBOX_FORWARDER, SANDBOX_POOL_ADDRESS, SANDBOX_POOL_FEE, SANDBOX_FEE_COLLECTOR, slot } from "../../../src/chains/starknet/sandbox/strk20/model";
import { createSandboxPaymaster } from "../../../src/chains/starknet/sandbox/strk20/paymaster";
import { startSandboxProver } from "../../../src/chains/starknet/sandbox/strk20/prover";
import type { LocalRpcServer } from "../../../src/chains/starknet/sandbox/strk20/http";
import { channelKeyOf, encodeCompileCalldata, viewingPublicKey, type ClientAction } from "../../../src/chains/starknet/strk20/actions";
import { Strk20Error } from "../../../src/chains/starknet/strk20/errors";
import { proofInvocation, proofInvocationHash, SEL_APPLY_ACTIONS } from "../../../src/chains/starknet/strk20/invocation";
import { createPaymasterClient } from "../../../src/chains/starknet/strk20/paymaster-client";
import { createProverClient, type ProveResult } from "../../../src/chains/starknet/strk20/prover-client";
import { toFeltHex } from "../../../src/chains/starknet/felt";
import { createStrk20 } from "../../../src/chains/starknet/strk20/private-actions";
import { DEFAULT_MAX_RELAY_FEE, parseMaxRelayFee, type Strk20Settings } from "../../../src/chains/starknet/strk20/settings";
import { MasterKey } from "../../../src/wallets/custody/envelope";
import { envelopeVault } from "../../../src/wallets/custody/vault";

const E18 = 10n ** 18n;
const POOL = SANDBOX_POOL_ADDRESS;
const API_KEY = "pm_test_" + randomBytes(8).toString("hex");
const VALIDITY = 6n;

let sb: StarknetSandbox;
let prover: LocalRpcServer;
let paymaster: LocalRpcServer;
let provider: RpcProvider;
let faucet: Account;
const keyRefs = new Map<string, string>();
const custody = createStarkSigner(envelopeVault(new MasterKey(randomBytes(32).toString("hex"))));
let adapter: ReturnType<typeof createStarknetAdapter>;

type W = WalletRef & { keyRef: string; vk: bigint; pub: bigint };

const balance = async (token: string, owner: string) => {
  const [low, high] = await provider.callContract({ contractAddress: token, entrypoint: "balance_of", calldata: [owner] });
  return BigInt(low!) + (BigInt(high!) << 128n);
};
const poolView = async (entrypoint: string, calldata: string[] = []) => BigInt((await provider.callContract({ contractAddress: POOL, entrypoint, calldata }))[0]!);
async function fund(to: string, amount: bigint) {
  const r = await faucet.execute({ contractAddress: STRK_ADDRESS, entrypoint: "transfer", calldata: CallData.compile({ recipient: to, amount: cairo.uint256(amount) }) });
  await provider.waitForTransaction(r.transaction_hash, { retryInterval: 20 });
}
async function send(w: W, kind: string, input: Record<string, unknown>) {
  const planned = await adapter.plan(w, { kind, ...input });
  const prepared = await adapter.prepare(w, planned.payload);
  if (!prepared.ok) throw new Error(prepared.reason);
  const signed = await adapter.sign(prepared.prepared, { handle: { walletId: w.id, address: w.address, keyRef: w.keyRef }, nextSequence: null });
  await adapter.broadcast(signed);
  expect(await adapter.waitForFinal(signed.hash, 5000)).toEqual({ state: "succeeded" });
}
/** A deployed, STRK-funded wallet that allows the pool to pull `allowance` (for deposits). */
async function newWallet(allowance = 50n * E18): Promise<W> {
  const id = `wal_${randomBytes(6).toString("hex")}`;
  const k = await custody.createKey(id);
  keyRefs.set(id, k.keyRef);
  const vk = BigInt("0x" + randomBytes(24).toString("hex"));
  const w: W = { id, address: k.address, chain: "starknet", keyRef: k.keyRef, vk, pub: viewingPublicKey(vk) };
  await fund(w.address, 100n * E18);
  await send(w, "starknet_calls", { calls: [{ contractAddress: STRK_ADDRESS, entrypoint: "approve", calldata: [POOL, toFeltHex(allowance), "0x0"] }] });
  return w;
}
const proverClient = () => createProverClient(prover.url, { backoffMs: 5 });
const pm = (key: string | undefined = API_KEY) => createPaymasterClient(paymaster.url, key, { backoffMs: 5 });

/** What strk20_sign_proof_invocation does, by hand: build the invocation, sign its hash, prove. */
async function prove(w: W, actions: ClientAction[], signer: W = w): Promise<ProveResult & { applyCalldata: string[] }> {
  const calldata = encodeCompileCalldata({ user: w.address, viewingKey: w.vk, actions });
  const tx = proofInvocation(POOL, calldata, 0n);
  const h = proofInvocationHash(tx, sb.node.chainId);
  const signature = await custody.signTxHash({ walletId: signer.id, address: signer.address, keyRef: signer.keyRef }, h);
  const r = await proverClient().prove(sb.node.height, { ...tx, signature }, POOL);
  return { ...r, applyCalldata: [...r.poolMessage.slice(1), "0x1"] };
}
async function relay(p: { proof: string; proofFacts: string[]; applyCalldata: string[] }, key?: string) {
  const q = await pm(key).quote(POOL, STRK_ADDRESS);
  const out = await pm(key).execute({ pool: POOL, call: { to: POOL, selector: toFeltHex(SEL_APPLY_ACTIONS), calldata: p.applyCalldata }, proof: p.proof, proofFacts: p.proofFacts, parameters: q.parameters });
  const receipt = await provider.waitForTransaction(out.txHash, { retryInterval: 20 });
  return { ...out, receipt };
}
const fee = (): ClientAction => ({ type: "Withdraw", to: SANDBOX_FORWARDER, token: STRK_ADDRESS, amount: 5n * 10n ** 17n, random: 77n });
const register = (w: W, deposit: bigint, index = 0n): ClientAction[] => [
  { type: "SetViewingKey", random: 1n },
  { type: "Deposit", token: STRK_ADDRESS, amount: deposit },
  { type: "CreateEncNote", recipient: w.address, recipientPublicKey: w.pub, token: STRK_ADDRESS, amount: deposit - 5n * 10n ** 17n, index, salt: 1234n },
  fee(),
];
const rejection = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a refusal");
    },
    (e: unknown) => {
      if (!(e instanceof Strk20Error)) throw e;
      return e;
    },
  );

beforeAll(async () => {
  sb = await startStarknetSandbox({ proofValidityBlocks: VALIDITY });
  prover = await startSandboxProver(sb.node);
  paymaster = await createSandboxPaymaster(sb.node, { apiKey: API_KEY }).start();
  provider = new RpcProvider({ nodeUrl: sb.url });
  faucet = new Account({ provider, address: sb.node.faucet.address, signer: sb.node.faucet.privateKey });
  adapter = createStarknetAdapter({ rpcUrl: sb.url, custody, prices: { usd: async () => 0.5 }, sandbox: true, keyRefOf: async (id) => keyRefs.get(id) ?? null, pollMs: 20 });
});
afterAll(async () => {
  await paymaster?.close();
  await prover?.close();
  await sb?.close();
});

describe("STRK20 on the sandbox: prover and paymaster clients over HTTP, the pool in the node", () => {
  it("the pool answers its views: fee 2 STRK to its collector, the validity window, version '2.0'", async () => {
    expect(await poolView("get_fee_amount")).toBe(SANDBOX_POOL_FEE);
    expect(await poolView("get_fee_collector")).toBe(BigInt(SANDBOX_FEE_COLLECTOR));
    expect(await poolView("get_proof_validity_blocks")).toBe(VALIDITY);
    expect(await poolView("get_version")).toBe(0x322e30n);
    expect(await proverClient().specVersion()).toMatch(/not-a-stark-prover/);
    expect(await pm().isAvailable()).toBe(true);
  });

  it("register + deposit, then a private withdraw: compiled, signed, proven (facts checked, not a STARK), relayed; visible in the pool's state", async () => {
    const w = await newWallet();
    const before = await balance(STRK_ADDRESS, w.address);
    const fwd0 = await balance(STRK_ADDRESS, SANDBOX_FORWARDER);
    const col0 = await balance(STRK_ADDRESS, SANDBOX_FEE_COLLECTOR);
    const dep = await prove(w, register(w, 20n * E18));
    expect(dep.proofFacts).toHaveLength(9);
    expect(Buffer.from(dep.proof, "base64").toString("latin1")).toMatch(/^ARBITER-SANDBOX-PROOF \(not a STARK/);
    const r1 = await relay(dep);
    expect(r1.trackingId).toMatch(/^0x[0-9a-f]{32}$/);
    expect(r1.receipt.isSuccess()).toBe(true);
    expect(await poolView("get_public_key", [w.address])).toBe(w.pub);
    const channel = channelKeyOf(w.address, w.pub);
    const note0 = slot.note(channel, BigInt(STRK_ADDRESS), 0n);
    expect(await poolView("get_note", [toFeltHex(note0)])).toBe(195n * 10n ** 17n);
    expect(await balance(STRK_ADDRESS, w.address)).toBe(before - 20n * E18);
    // The relayer paid the pool fee (2 STRK) and was paid its quote (0.5 STRK) from the private balance.
    expect((await balance(STRK_ADDRESS, SANDBOX_FEE_COLLECTOR)) - col0).toBe(SANDBOX_POOL_FEE);
    expect((await balance(STRK_ADDRESS, SANDBOX_FORWARDER)) - fwd0).toBe(5n * 10n ** 17n);

    const to = stark.randomAddress();
    const wd = await prove(w, [
      { type: "UseNote", channelKey: channel, token: STRK_ADDRESS, index: 0n },
      { type: "CreateEncNote", recipient: w.address, recipientPublicKey: w.pub, token: STRK_ADDRESS, amount: 95n * 10n ** 17n, index: 1n, salt: 99n },
      { type: "Withdraw", to, token: STRK_ADDRESS, amount: 95n * 10n ** 17n, random: 5n },
      fee(),
    ]);
    const r2 = await relay(wd);
    expect(r2.receipt.isSuccess()).toBe(true);
    expect(await balance(STRK_ADDRESS, to)).toBe(95n * 10n ** 17n);
    expect(await poolView("nullifier_exists", [toFeltHex(slot.nullifier(note0))])).toBe(1n);
    expect(await poolView("get_note", [toFeltHex(slot.note(channel, BigInt(STRK_ADDRESS), 1n))])).toBe(95n * 10n ** 17n);

    // The same proof again: the paymaster refuses it (never resubmitted blindly).
    const again = await rejection(relay(wd));
    expect(again.code).toBe(156);
    expect(again.message).toMatch(/Tx already sent/);
    // Spending the spent note: the prover refuses it at compile time.
    const spent = await rejection(prove(w, [{ type: "UseNote", channelKey: channel, token: STRK_ADDRESS, index: 0n }, { type: "Withdraw", to, token: STRK_ADDRESS, amount: 195n * 10n ** 17n, random: 1n }]));
    expect(spent.code).toBe(1000);
    expect(spent.message).toMatch(/NOTE_ALREADY_SPENT/);
  });

  it("a double spend proven twice before either lands: the pool's write-once nullifier refuses the second", async () => {
    const w = await newWallet();
    await relay(await prove(w, register(w, 10n * E18)));
    const channel = channelKeyOf(w.address, w.pub);
    const spend = (to: string) => prove(w, [{ type: "UseNote", channelKey: channel, token: STRK_ADDRESS, index: 0n }, { type: "Withdraw", to, token: STRK_ADDRESS, amount: 9n * E18, random: 3n }, fee()]);
    const a = await spend(stark.randomAddress());
    const b = await spend(stark.randomAddress());
    expect((await relay(a)).receipt.isSuccess()).toBe(true);
    const e = await rejection(relay(b));
    expect(e.code).toBe(156);
    expect(e.message).toMatch(/NON_ZERO_VALUE/);
  });

  it("the pool checks the facts against the actions: a changed action is INVALID_PROOF_MSG; a proof not from the prover is refused by the node (69 -> 168)", async () => {
    const w = await newWallet();
    const p = await prove(w, register(w, 10n * E18));
    // Raise the fee withdraw's amount inside the submitted actions: the message hash no longer matches.
    const tampered = [...p.applyCalldata];
    const last = tampered.length - 2;
    tampered[last] = toFeltHex(BigInt(tampered[last]!) + 1n);
    const e1 = await rejection(relay({ ...p, applyCalldata: tampered }));
    expect(e1.message).toMatch(/INVALID_PROOF_MSG/);
    const forged = Buffer.from(p.proof, "base64");
    forged[100] = forged[100]! ^ 0xff;
    const e2 = await rejection(relay({ ...p, proof: forged.toString("base64") }));
    expect(e2.code).toBe(168);
    expect(e2.message).toMatch(/69 Invalid proof/);
    expect((await relay(p)).receipt.isSuccess()).toBe(true);
  });

  it("a proof older than the pool's validity window is PROOF_EXPIRED", async () => {
    const w = await newWallet();
    const p = await prove(w, register(w, 10n * E18));
    for (let i = 0n; i < VALIDITY; i++) await fund(stark.randomAddress(), 1n);
    const e = await rejection(relay(p));
    expect(e.message).toMatch(/PROOF_EXPIRED/);
  });

  it("the prover refuses a signature by another key (55) and malformed actions (1000); the pool's rules hold", async () => {
    const w = await newWallet();
    const other = await newWallet();
    expect((await rejection(prove(w, register(w, E18), other))).code).toBe(55);
    const unbalanced = await rejection(prove(w, [{ type: "SetViewingKey", random: 1n }, { type: "Deposit", token: STRK_ADDRESS, amount: E18 }]));
    expect(unbalanced.message).toMatch(/FINAL_BALANCE_MUST_BE_ZERO/);
    const noReplay = await rejection(prove(w, [{ type: "Deposit", token: STRK_ADDRESS, amount: E18 }, { type: "Withdraw", to: w.address, token: STRK_ADDRESS, amount: E18, random: 1n }]));
    expect(noReplay.message).toMatch(/NOT_REGISTERED|NO_REPLAY_PROTECTION/);
  });

  it("the paymaster: wrong or missing API key is 163, an unsupported fee token 151, no fee withdraw 165, a fee below the quote 167", async () => {
    expect((await rejection(pm("wrong-key").quote(POOL, STRK_ADDRESS))).message).toMatch(/163 .*x-paymaster-api-key is invalid/);
    expect((await rejection(createPaymasterClient(paymaster.url, undefined).quote(POOL, STRK_ADDRESS))).code).toBe(163);
    expect((await rejection(pm().quote(POOL, "0x1234"))).code).toBe(151);
    const q = await pm().quote(POOL, STRK_ADDRESS);
    expect(q.feeAction).toEqual({ type: "withdraw", token: STRK_ADDRESS, recipient: SANDBOX_FORWARDER, amount: 5n * 10n ** 17n });
    const w = await newWallet();
    const noFee = register(w, 10n * E18).slice(0, 3);
    (noFee[2] as { amount: bigint }).amount = 10n * E18;
    expect((await rejection(relay(await prove(w, noFee)))).code).toBe(165);
    const low = register(w, 10n * E18);
    (low[3] as { amount: bigint }).amount = 1n;
    (low[2] as { amount: bigint }).amount = 10n * E18 - 1n;
    expect((await rejection(relay(await prove(w, low)))).code).toBe(167);
  });
});

describe("STRK20 JSON-RPC transport rules (a local HTTP server answering as told)", () => {
  async function server(answers: ((n: number) => { status: number; body?: unknown } | null)[]) {
    let n = 0;
    const s = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const a = answers[Math.min(n, answers.length - 1)]!(n);
        n += 1;
        if (!a) return; // never answer
        res.writeHead(a.status, { "content-type": "application/json" }).end(a.body === undefined ? "" : JSON.stringify(a.body));
      });
    });
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}/`;
    return { url, calls: () => n, close: () => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r()))) };
  }
  const ok = (result: unknown) => () => ({ status: 200, body: { jsonrpc: "2.0", id: 1, result } });

  it("retries only 'busy' (HTTP 503, -32005), at most 3 times, then reports unavailable", async () => {
    const s = await server([() => ({ status: 503 }), () => ({ status: 200, body: { jsonrpc: "2.0", id: 1, error: { code: -32005, message: "busy" } } }), ok("0.10.3")]);
    expect(await createProverClient(s.url, { backoffMs: 1 }).specVersion()).toBe("0.10.3");
    expect(s.calls()).toBe(3);
    await s.close();
    const busy = await server([() => ({ status: 503 })]);
    const e = await rejection(createProverClient(busy.url, { backoffMs: 1 }).specVersion());
    expect(e.kind).toBe("unavailable");
    expect(busy.calls()).toBe(4);
    await busy.close();
  });

  it("a refusal is final at once (no retry); a silent server times out as unavailable; execution is never retried even when busy", async () => {
    const s = await server([() => ({ status: 200, body: { jsonrpc: "2.0", id: 1, error: { code: 55, message: "Account validation failed" } } })]);
    const e = await rejection(createProverClient(s.url, { backoffMs: 1 }).specVersion());
    expect([e.kind, e.code, s.calls()]).toEqual(["rejected", 55, 1]);
    expect(e.message).toMatch(/signature over the proof invocation/);
    await s.close();
    const silent = await server([() => null]);
    const t = await rejection(createProverClient(silent.url, { timeoutMs: 150, retries: 0 }).specVersion());
    expect(t.kind).toBe("unavailable");
    expect(t.message).toMatch(/did not answer/);
    await silent.close();
    const busy = await server([() => ({ status: 503 })]);
    const x = await rejection(createPaymasterClient(busy.url, "k", { backoffMs: 1 }).execute({ pool: POOL, call: { to: POOL, selector: "0x1", calldata: [] }, proof: "AAAA", proofFacts: ["0x1"], parameters: {} }));
    expect([x.kind, busy.calls()]).toEqual(["unavailable", 1]);
    await busy.close();
  });
});

describe("the STRK20 module (what the tools call) against the local prover and paymaster", () => {
  const settings = (o: Partial<Strk20Settings> = {}): Strk20Settings => ({
    pool: POOL,
    proverUrl: prover.url,
    paymasterUrl: paymaster.url,
    apiKey: API_KEY,
    feeRecipients: [SANDBOX_FORWARDER],
    maxFee: parseMaxRelayFee(DEFAULT_MAX_RELAY_FEE),
    provingLagBlocks: 0,
    sandbox: true,
    ...o,
  });
  const mod = (o: Partial<Strk20Settings> = {}, now?: () => number) => createStrk20(settings(o), { rpcUrl: sb.url, custody, assets: adapter.assets, now, clientOptions: { backoffMs: 1 } });

  it("relay status with the key, without a key, and with a wrong key", async () => {
    expect(await mod().relayStatus()).toMatchObject({ keyConfigured: true, relayReachable: true, keyAccepted: true, reason: null });
    expect(await mod({ apiKey: undefined }).relayStatus()).toMatchObject({ keyConfigured: false, relayReachable: true, keyAccepted: false, reason: expect.stringMatching(/no paymaster API key/) });
    expect(await mod({ apiKey: "wrong" }).relayStatus()).toMatchObject({ keyConfigured: true, relayReachable: true, keyAccepted: false, reason: expect.stringMatching(/163 .*x-paymaster-api-key is invalid/) });
    expect(await mod({ paymasterUrl: null }).relayStatus()).toMatchObject({ relayReachable: false, reason: expect.stringMatching(/no paymaster is configured/) });
  });

  it("fee guards: a quote above the ceiling, to a recipient off the allow-list, or with no ceiling for the token is refused", async () => {
    await expect(mod({ maxFee: parseMaxRelayFee("STRK:0.1") }).poolFee()).rejects.toThrow(/above this deployment's ceiling 0.1 STRK/);
    await expect(mod({ feeRecipients: [] }).poolFee()).rejects.toThrow(/not on this deployment's allow-list/);
    await expect(mod({ maxFee: parseMaxRelayFee("STRK:10") }).poolFee("USDC")).rejects.toThrow(/no fee ceiling is configured for USDC/);
    expect((await mod().poolFee("usdc")).feeAction.amount).toBe("250000");
  });

  it("expired proofs are refused before relaying: past the pool's window, or five minutes after the base block", async () => {
    const w = await newWallet();
    const handle = { walletId: w.id, address: w.address, keyRef: w.keyRef };
    const signed = await mod().signProofInvocation({ handle }, encodeCompileCalldata({ user: w.address, viewingKey: w.vk, actions: register(w, 10n * E18) }));
    expect(Date.parse(signed.proof.expiresAt)).toBeGreaterThan(Date.now() + 4 * 60_000);
    const relayArgs = { call: signed.call, proof: signed.proof.data, proofFacts: signed.proof.facts, feeToken: "STRK" };
    await expect(mod({}, () => Date.now() + 6 * 60_000).relay(relayArgs)).rejects.toThrow(/expired: proofs are used within about five minutes/);
    for (let i = 0n; i < VALIDITY; i++) await fund(stark.randomAddress(), 1n);
    await expect(mod().relay(relayArgs)).rejects.toThrow(/expired: it was made against block .* accepts proofs for 6 blocks/);
  });

  it("the ungated path refuses an unknown fee token, a relay to another contract, and a second relay of one proof", async () => {
    const w = await newWallet();
    const handle = { walletId: w.id, address: w.address, keyRef: w.keyRef };
    const m = mod();
    const signed = await m.signProofInvocation({ handle }, encodeCompileCalldata({ user: w.address, viewingKey: w.vk, actions: register(w, 10n * E18) }));
    const args = { call: signed.call, proof: signed.proof.data, proofFacts: signed.proof.facts, feeToken: "STRK" };
    await expect(m.relay({ ...args, call: { ...signed.call, contractAddress: STRK_ADDRESS } })).rejects.toThrow(/must be this deployment's privacy pool/);
    await expect(m.relay({ ...args, feeToken: "DOGE" })).rejects.toThrow();
    const first = await m.relay(args);
    expect((await provider.waitForTransaction(first.txHash, { retryInterval: 20 })).isSuccess()).toBe(true);
    await expect(m.relay(args)).rejects.toThrow(/already relayed .* never sent twice/);
  });

  it("outflows: notes and withdrawals to others (the relayer's fee too) are priced; the wallet's own are not outflows; an open note to another is unpriced", async () => {
    const w = await newWallet();
    const handle = { walletId: w.id, address: w.address, keyRef: w.keyRef };
    const m = mod();
    const other = "0x" + randomBytes(31).toString("hex").replace(/^0+/, "");
    const cd = (actions: ClientAction[]) => encodeCompileCalldata({ user: w.address, viewingKey: w.vk, actions });
    // Deposit into a note to itself and pay the relayer: only the fee leaves (0.5 STRK at $0.5 here).
    const own = await m.outflows({ handle }, cd(register(w, 10n * E18)));
    expect(own.map((c) => [c.counterparty, c.amount, c.usdValue])).toEqual([[SANDBOX_FORWARDER, "0.5", 0.25]]);
    const mixed = await m.outflows(
      { handle },
      cd([
        { type: "Deposit", token: STRK_ADDRESS, amount: 9n * E18 },
        { type: "CreateEncNote", recipient: other, recipientPublicKey: 5n, token: STRK_ADDRESS, amount: 4n * E18, index: 0n, salt: 9n },
        { type: "CreateEncNote", recipient: w.address, recipientPublicKey: w.pub, token: STRK_ADDRESS, amount: 2n * E18, index: 0n, salt: 9n },
        { type: "CreateOpenNote", recipient: other, recipientPublicKey: 5n, token: STRK_ADDRESS, index: 1n, random: 3n },
        { type: "Withdraw", to: other, token: STRK_ADDRESS, amount: 2n * E18, random: 1n },
        { type: "Withdraw", to: w.address, token: STRK_ADDRESS, amount: E18, random: 2n },
      ]),
    );
    const to = BigInt(other);
    expect(mixed.map((c) => [BigInt(c.counterparty) === to, c.amount, c.usdValue])).toEqual([
      [true, "4", 2],
      [true, "2", 1],
      [true, "unknown (an open note)", null],
    ]);
    // The custody rules come first: another wallet's calldata is refused, not priced.
    await expect(m.outflows({ handle }, encodeCompileCalldata({ user: other, viewingKey: w.vk, actions: register(w, E18) }))).rejects.toThrow(/must be the wallet's address/);
  });
});
