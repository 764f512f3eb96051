/**
 * The Starknet chain adapter against the sandbox node: Stark keys sealed in the envelope vault, the
 * counterfactual address, deploy-on-first-use, named transfers, multicalls, reverts, refusals of bad
 * input, and reconcile without sending twice. Balances are read back with unmodified starknet.js.
 */
import { randomBytes } from "node:crypto";
import { Account, cairo, CallData, hash, RpcProvider, stark } from "starknet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChainInputError, type WalletRef } from "../../../src/chains/port";
import { createStarknetAdapter } from "../../../src/chains/starknet/adapter";
import { OZ_ACCOUNT_CLASS_HASH, STARKNET_TOKENS, STRK_ADDRESS } from "../../../src/chains/starknet/constants";
import { createStarkSigner } from "../../../src/chains/starknet/custody";
import { startStarknetSandbox, type StarknetSandbox } from "../../../src/chains/starknet/sandbox";
import { MasterKey } from "../../../src/wallets/custody/envelope";
import { envelopeVault } from "../../../src/wallets/custody/vault";

const USDC = STARKNET_TOKENS.find((t) => t.symbol === "USDC")!.address;
const PRICES: Record<string, number> = { [STRK_ADDRESS]: 0.5, [USDC]: 1 };

let sb: StarknetSandbox;
let provider: RpcProvider;
let faucet: Account;
const keyRefs = new Map<string, string>();
const vault = envelopeVault(new MasterKey(randomBytes(32).toString("hex")));
const custody = createStarkSigner(vault);
let adapter: ReturnType<typeof createStarknetAdapter>;

async function fund(token: string, to: string, amount: bigint) {
  const r = await faucet.execute({ contractAddress: token, entrypoint: "transfer", calldata: CallData.compile({ recipient: to, amount: cairo.uint256(amount) }) });
  await provider.waitForTransaction(r.transaction_hash, { retryInterval: 20 });
}
const balance = async (token: string, owner: string) => {
  const [low, high] = await provider.callContract({ contractAddress: token, entrypoint: "balance_of", calldata: [owner] });
  return BigInt(low!) + (BigInt(high!) << 128n);
};
async function newWallet(): Promise<WalletRef & { keyRef: string }> {
  const id = `wal_${randomBytes(6).toString("hex")}`;
  const k = await custody.createKey(id);
  keyRefs.set(id, k.keyRef);
  return { id, address: k.address, chain: "starknet", keyRef: k.keyRef };
}
async function execute(w: WalletRef & { keyRef: string }, kind: string, input: Record<string, unknown>, nextSequence: number | null = null) {
  const planned = await adapter.plan(w, { kind, ...input });
  const prepared = await adapter.prepare(w, planned.payload);
  if (!prepared.ok) throw new Error(prepared.reason);
  const signed = await adapter.sign(prepared.prepared, { handle: { walletId: w.id, address: w.address, keyRef: w.keyRef }, nextSequence });
  return { planned, signed };
}

beforeAll(async () => {
  sb = await startStarknetSandbox();
  provider = new RpcProvider({ nodeUrl: sb.url });
  faucet = new Account({ provider, address: sb.node.faucet.address, signer: sb.node.faucet.privateKey });
  adapter = createStarknetAdapter({ rpcUrl: sb.url, custody, prices: { usd: async (a) => PRICES[a] ?? null }, sandbox: true, keyRefOf: async (id) => keyRefs.get(id) ?? null, pollMs: 20 });
});
afterAll(async () => {
  await sb?.close();
});

describe("Starknet adapter on the sandbox node", () => {
  it("a new wallet's address is starknet.js's counterfactual OpenZeppelin address for its sealed key", async () => {
    const w = await newWallet();
    const pub = custody.publicKeyOf(w.keyRef);
    expect(w.address).toMatch(/^0x[0-9a-f]{64}$/);
    expect(BigInt(w.address)).toBe(BigInt(hash.calculateContractAddressFromHash(pub, OZ_ACCOUNT_CLASS_HASH, [pub], 0)));
    expect(w.keyRef).not.toMatch(/privateKey|secret/i);
    expect(custody.canSign({ walletId: w.id, address: w.address, keyRef: w.keyRef })).toBe(true);
    // The envelope is bound to the wallet: another wallet id cannot open it.
    await expect(custody.signTxHash({ walletId: "wal_other", address: w.address, keyRef: w.keyRef }, 1n)).rejects.toThrow();
  });

  it("funded with STRK, the first transfer deploys the account (nonce 0) and executes (nonce 1); the second uses nonce 2", async () => {
    const w = await newWallet();
    await fund(STRK_ADDRESS, w.address, 10n ** 18n);
    const to = stark.randomAddress();
    const sim = await adapter.simulate(w, (await adapter.plan(w, { kind: "transfer", transfer: { asset: "STRK", amount: "0.25", to } })).payload);
    expect(sim.report.status).toBe("clean");
    expect(sim.report.changes).toEqual([expect.objectContaining({ direction: "out", symbol: "STRK", rawAmount: (25n * 10n ** 16n).toString(), amount: "0.25", usdValue: 0.125 })]);
    expect(sim.warnings.map((x) => x.code)).toContain("starknet_account_deploy");
    expect(sim.warnings.map((x) => x.code)).toContain("starknet_fee");

    const { signed } = await execute(w, "transfer", { transfer: { asset: "STRK", amount: "0.25", to } });
    expect(signed.sequence).toBe(0);
    expect(signed.sequenceUsed).toBe(2);
    expect(await adapter.broadcast(signed)).toEqual({ kind: "sent" });
    expect(await adapter.waitForFinal(signed.hash, 5000)).toEqual({ state: "succeeded" });
    expect(BigInt(await provider.getClassHashAt(w.address))).toBe(BigInt(OZ_ACCOUNT_CLASS_HASH));
    expect(await balance(STRK_ADDRESS, to)).toBe(25n * 10n ** 16n);

    const second = await execute(w, "transfer", { transfer: { asset: "strk", amount: "0.1", to } });
    expect(second.signed.sequence).toBe(2);
    await adapter.broadcast(second.signed);
    expect(await adapter.waitForFinal(second.signed.hash, 5000)).toEqual({ state: "succeeded" });
    expect(await balance(STRK_ADDRESS, to)).toBe(35n * 10n ** 16n);
    const bal = await adapter.balances(w.address);
    expect(bal[0]).toMatchObject({ symbol: "STRK", tokenAddress: STRK_ADDRESS });
    expect(BigInt(bal[0]!.amount)).toBe(await balance(STRK_ADDRESS, w.address));
  });

  it("a multicall executes atomically; a reverting one simulates as reverted and moves nothing", async () => {
    const w = await newWallet();
    await fund(STRK_ADDRESS, w.address, 10n ** 18n);
    await fund(USDC, w.address, 5_000_000n);
    const a = stark.randomAddress();
    const b = stark.randomAddress();
    const calls = [
      { contractAddress: USDC, entrypoint: "transfer", calldata: [a, "1000000", "0"] },
      { contractAddress: USDC, entrypoint: "approve", calldata: [b, "0x1e8480", "0x0"] },
      { contractAddress: STRK_ADDRESS, entrypoint: "transfer", calldata: [b, "1000", "0"] },
    ];
    const planned = await adapter.plan(w, { kind: "starknet_calls", calls });
    const sim = await adapter.simulate(w, planned.payload);
    expect(sim.report.status).toBe("clean");
    expect(sim.report.changes.map((c) => [c.changeType, c.symbol, c.rawAmount])).toEqual([
      ["transfer", "USDC", "1000000"],
      ["approval", "USDC", "2000000"],
      ["transfer", "STRK", "1000"],
    ]);
    expect(sim.warnings.find((x) => x.code === "token_approval")?.severity).toBe("warn");
    expect(sim.report.totalUsdOut).toBeCloseTo(1 + 1000 * 0.5e-18, 9);
    const { signed } = await execute(w, "starknet_calls", { calls });
    await adapter.broadcast(signed);
    expect(await adapter.waitForFinal(signed.hash, 5000)).toEqual({ state: "succeeded" });
    expect(await balance(USDC, a)).toBe(1_000_000n);
    expect(await balance(STRK_ADDRESS, b)).toBe(1000n);

    const bad = [
      { contractAddress: USDC, entrypoint: "transfer", calldata: [a, "1000000", "0"] },
      { contractAddress: USDC, entrypoint: "transfer", calldata: [a, "99000000", "0"] },
    ];
    const badSim = await adapter.simulate(w, (await adapter.plan(w, { kind: "starknet_calls", calls: bad })).payload);
    expect(badSim.report.status).toBe("reverted");
    expect(badSim.report.wouldRevert).toBe(true);
    expect(badSim.report.error).toContain("ERC20: insufficient balance");
    expect(badSim.report.changes).toEqual([]);
    const prepared = await adapter.prepare(w, (await adapter.plan(w, { kind: "starknet_calls", calls: bad })).payload);
    expect(prepared.ok).toBe(false);
    expect(await balance(USDC, a)).toBe(1_000_000n);
  });

  it("refuses bad input with a clear ChainInputError", async () => {
    const w = await newWallet();
    await fund(STRK_ADDRESS, w.address, 10n ** 17n);
    const to = stark.randomAddress();
    const refuse = (kind: string, input: Record<string, unknown>, msg: RegExp) => expect(adapter.plan(w, { kind, ...input })).rejects.toSatisfy((e) => e instanceof ChainInputError && msg.test((e as Error).message));
    await refuse("transfer", { transfer: { asset: "DAI", amount: "1", to } }, /unsupported asset "DAI".*STRK, ETH, USDC, USDT/);
    await refuse("transfer", { transfer: { asset: "USDC", amount: "1e3", to } }, /transfer.amount/);
    await refuse("transfer", { transfer: { asset: "USDC", amount: "1.0000001", to } }, /more than 6 decimal places/);
    await refuse("transfer", { transfer: { asset: "USDC", amount: "0", to } }, /greater than zero/);
    await refuse("transfer", { transfer: { asset: "USDC", amount: "1", to: "0xzz" } }, /transfer.to must be a felt/);
    await refuse("transfer", { transfer: { asset: "USDC", amount: "1", to: "0x" + "f".repeat(64) } }, /out of the felt range/);
    await refuse("starknet_calls", { calls: [{ contractAddress: USDC, entrypoint: "transfer", calldata: [to, "0x" + "8".repeat(64), "0"] }] }, /calldata\[1\] is out of the felt range/);
    await refuse("starknet_calls", { calls: [{ contractAddress: USDC, entrypoint: "transfer", calldata: [to, "-1", "0"] }] }, /calldata\[1\] must be a felt/);
    await refuse("starknet_calls", { calls: [{ contractAddress: "0x1234abcd", entrypoint: "transfer", calldata: [] }] }, /is not deployed on Starknet/);
    await refuse("starknet_calls", { calls: [{ contractAddress: w.address, entrypoint: "upgrade", calldata: ["0x1"] }] }, /own account contract/);
    await refuse("starknet_calls", { calls: [{ contractAddress: USDC, entrypoint: "trans fer", calldata: [] }] }, /entry point name/);
    const poor = await newWallet();
    await expect(adapter.plan(poor, { kind: "transfer", transfer: { asset: "STRK", amount: "1", to } })).rejects.toSatisfy((e) => e instanceof ChainInputError && /holds no STRK/.test((e as Error).message));
    expect(() => adapter.checkInputChain({ kind: "evm_transaction" })).toThrow(/wrong chain/);
    expect(() => adapter.checkInputChain({ kind: "transfer", caip2: "eip155:8453" })).toThrow(/wrong chain/);
    expect(() => adapter.checkInputChain({ kind: "transfer", caip2: "starknet:SN_MAIN" })).not.toThrow();
  });

  it("reconcile: a signed transaction never sent is not_found, then sent once; sending it again moves nothing twice", async () => {
    const w = await newWallet();
    await fund(STRK_ADDRESS, w.address, 10n ** 18n);
    const to = stark.randomAddress();
    const { signed } = await execute(w, "transfer", { transfer: { asset: "STRK", amount: "0.01", to } });
    const record = { hash: signed.hash, raw: signed.raw, address: w.address, sequence: signed.sequence };
    expect(await adapter.lookup(record)).toEqual({ state: "not_found" });
    expect(await adapter.broadcast(signed)).toEqual({ kind: "sent" });
    expect(await adapter.broadcast(signed)).toEqual({ kind: "sent" });
    expect(await adapter.lookup(record)).toEqual({ state: "succeeded" });
    expect(await balance(STRK_ADDRESS, to)).toBe(10n ** 16n);
    // Another transaction with the same nonce signed later can never land once this one did.
    const stale = await execute(w, "transfer", { transfer: { asset: "STRK", amount: "0.01", to } });
    const staleRaw = JSON.parse(stale.signed.raw) as { invoke: { nonce: string } };
    expect(BigInt(staleRaw.invoke.nonce)).toBe(2n);
    const fake = JSON.stringify({ deploy: null, invoke: { ...staleRaw.invoke, nonce: "0x1" } });
    expect(await adapter.lookup({ hash: "0x1234", raw: fake, address: w.address, sequence: 1 })).toMatchObject({ state: "dropped" });
  });
});
