/**
 * The sandbox Starknet node driven by unmodified starknet.js 10 RpcProvider and Account over HTTP:
 * account deployment, transfers, an atomic multicall, a reverting multicall, the node's refusals with
 * their spec error codes, events, and state that survives a restart from the data directory.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Account, cairo, CallData, ec, hash, RpcError, RpcProvider, stark, type Call } from "starknet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OZ_ACCOUNT_CLASS_HASH, SEL, STARKNET_TOKENS, STRK_ADDRESS } from "../../../src/chains/starknet/constants";
import { startStarknetSandbox, type StarknetSandbox } from "../../../src/chains/starknet/sandbox";

const USDC = STARKNET_TOKENS.find((t) => t.symbol === "USDC")!.address;
const WAIT = { retryInterval: 20 };
const STRK = 10n ** 18n;
/** Explicit fee bounds skip starknet.js's estimate, so a submission reaches the node's own checks. */
const BOUNDS = { l1_gas: { max_amount: 0n, max_price_per_unit: 10n ** 14n }, l2_gas: { max_amount: 5_000_000n, max_price_per_unit: 10n ** 10n }, l1_data_gas: { max_amount: 1000n, max_price_per_unit: 10n ** 10n } };

let dir: string;
let sb: StarknetSandbox;
let provider: RpcProvider;
let faucet: Account;

const transfer = (token: string, to: string, amount: bigint): Call => ({ contractAddress: token, entrypoint: "transfer", calldata: CallData.compile({ recipient: to, amount: cairo.uint256(amount) }) });
const balance = async (token: string, owner: string) => {
  const [low, high] = await provider.callContract({ contractAddress: token, entrypoint: "balance_of", calldata: [owner] });
  return BigInt(low!) + (BigInt(high!) << 128n);
};
const rpcCode = (e: unknown) => (e instanceof RpcError ? e.code : (e as { baseError?: { code?: number } }).baseError?.code);

function newKey() {
  const pk = stark.randomAddress();
  const pub = ec.starkCurve.getStarkKey(pk);
  const address = hash.calculateContractAddressFromHash(pub, OZ_ACCOUNT_CLASS_HASH, [pub], 0);
  return { pk, pub, address, account: new Account({ provider, address, signer: pk }) };
}

async function fundedDeployed(strk = STRK) {
  const k = newKey();
  await provider.waitForTransaction((await faucet.execute(transfer(STRK_ADDRESS, k.address, strk))).transaction_hash, WAIT);
  const d = await k.account.deployAccount({ classHash: OZ_ACCOUNT_CLASS_HASH, constructorCalldata: [k.pub], addressSalt: k.pub });
  await provider.waitForTransaction(d.transaction_hash, WAIT);
  return k;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "sn-sandbox-"));
  sb = await startStarknetSandbox({ dataDir: dir });
  provider = new RpcProvider({ nodeUrl: sb.url });
  faucet = new Account({ provider, address: sb.node.faucet.address, signer: sb.node.faucet.privateKey });
});
afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("sandbox Starknet node through starknet.js", () => {
  it("says what it is: spec 0.10 with sandbox build metadata, chain SN_MAIN", async () => {
    const p = await RpcProvider.create({ nodeUrl: sb.url });
    expect(await p.getSpecVersion()).toMatch(/^0\.10\.\d+\+arbiter-sandbox-model\.not-a-cairo-vm$/);
    expect(await p.getChainId()).toBe("0x534e5f4d41494e");
  });

  it("deploys a funded counterfactual OpenZeppelin account; the address is starknet.js's", async () => {
    const k = newKey();
    await expect(provider.getNonceForAddress(k.address)).rejects.toSatisfy((e) => rpcCode(e) === 20);
    await provider.waitForTransaction((await faucet.execute(transfer(STRK_ADDRESS, k.address, STRK))).transaction_hash, WAIT);
    const d = await k.account.deployAccount({ classHash: OZ_ACCOUNT_CLASS_HASH, constructorCalldata: [k.pub], addressSalt: k.pub });
    expect(BigInt(d.contract_address)).toBe(BigInt(k.address));
    const receipt = await provider.waitForTransaction(d.transaction_hash, WAIT);
    expect(receipt.isSuccess()).toBe(true);
    expect(BigInt(await provider.getNonceForAddress(k.address))).toBe(1n);
    expect(BigInt(await provider.getClassHashAt(k.address))).toBe(BigInt(OZ_ACCOUNT_CLASS_HASH));
    const fee = BigInt((receipt.value as { actual_fee: { amount: string } }).actual_fee.amount);
    expect(fee).toBeGreaterThan(0n);
    expect(await balance(STRK_ADDRESS, k.address)).toBe(STRK - fee);
    const [valid] = await provider.callContract({ contractAddress: k.address, entrypoint: "get_public_key", calldata: [] });
    expect(BigInt(valid!)).toBe(BigInt(k.pub));
  });

  it("refuses to deploy an account without STRK for its fee (54) and leaves it undeployed", async () => {
    const k = newKey();
    await provider.waitForTransaction((await faucet.execute(transfer(STRK_ADDRESS, k.address, 1000n))).transaction_hash, WAIT);
    await expect(k.account.deployAccount({ classHash: OZ_ACCOUNT_CLASS_HASH, constructorCalldata: [k.pub], addressSalt: k.pub })).rejects.toSatisfy((e) => rpcCode(e) === 54);
    await expect(provider.getClassHashAt(k.address)).rejects.toSatisfy((e) => rpcCode(e) === 20);
  });

  it("executes a named transfer and emits the Cairo 1 Transfer event from the token", async () => {
    const k = await fundedDeployed();
    const to = stark.randomAddress();
    const before = await balance(STRK_ADDRESS, k.address);
    const r = await k.account.execute(transfer(STRK_ADDRESS, to, 10n ** 17n));
    const receipt = (await provider.waitForTransaction(r.transaction_hash, WAIT)).value as { events: { from_address: string; keys: string[]; data: string[] }[]; actual_fee: { amount: string } };
    expect(await balance(STRK_ADDRESS, to)).toBe(10n ** 17n);
    expect(await balance(STRK_ADDRESS, k.address)).toBe(before - 10n ** 17n - BigInt(receipt.actual_fee.amount));
    const ev = receipt.events[0]!;
    expect(BigInt(ev.from_address)).toBe(BigInt(STRK_ADDRESS));
    expect(ev.keys.map(BigInt)).toEqual([SEL.Transfer, BigInt(k.address), BigInt(to)]);
    expect(ev.data.map(BigInt)).toEqual([10n ** 17n, 0n]);
    const page = await provider.getEvents({ address: STRK_ADDRESS, keys: [["0x" + SEL.Transfer.toString(16)], [k.address], [to]], chunk_size: 10 });
    expect(page.events).toHaveLength(1);
    expect(page.events[0]!.transaction_hash).toBe(r.transaction_hash);
  });

  it("executes a multicall (approve + transfer_from + transfer) as one transaction", async () => {
    const k = await fundedDeployed();
    const spender = await fundedDeployed();
    await provider.waitForTransaction((await faucet.execute(transfer(USDC, k.address, 5_000_000n))).transaction_hash, WAIT);
    const to = stark.randomAddress();
    const r = await k.account.execute([
      { contractAddress: USDC, entrypoint: "approve", calldata: CallData.compile({ spender: spender.address, amount: cairo.uint256(2_000_000n) }) },
      transfer(USDC, to, 1_000_000n),
    ]);
    await provider.waitForTransaction(r.transaction_hash, WAIT);
    const [aLow] = await provider.callContract({ contractAddress: USDC, entrypoint: "allowance", calldata: [k.address, spender.address] });
    expect(BigInt(aLow!)).toBe(2_000_000n);
    const r2 = await spender.account.execute({ contractAddress: USDC, entrypoint: "transfer_from", calldata: CallData.compile({ sender: k.address, recipient: to, amount: cairo.uint256(1_500_000n) }) });
    await provider.waitForTransaction(r2.transaction_hash, WAIT);
    expect(await balance(USDC, to)).toBe(2_500_000n);
    expect(await balance(USDC, k.address)).toBe(2_500_000n);
    const [left] = await provider.callContract({ contractAddress: USDC, entrypoint: "allowance", calldata: [k.address, spender.address] });
    expect(BigInt(left!)).toBe(500_000n);
  });

  it("a reverting multicall: the simulation shows revert_reason, the estimate fails (41), a forced submission reverts all calls but charges the fee", async () => {
    const k = await fundedDeployed();
    await provider.waitForTransaction((await faucet.execute(transfer(USDC, k.address, 3_000_000n))).transaction_hash, WAIT);
    const to = stark.randomAddress();
    const calls = [transfer(USDC, to, 1_000_000n), transfer(USDC, to, 9_000_000n)];
    const [sim] = (await k.account.simulateTransaction([{ type: "INVOKE", payload: calls }], { skipValidate: false })).simulated_transactions;
    const exec = (sim!.transaction_trace as { execute_invocation: { revert_reason?: string } }).execute_invocation;
    expect(exec.revert_reason).toContain("ERC20: insufficient balance");
    expect(exec.revert_reason).toContain(BigInt(USDC).toString(16));
    await expect(k.account.execute(calls)).rejects.toSatisfy((e) => rpcCode(e) === 41);
    const nonce = BigInt(await provider.getNonceForAddress(k.address));
    const strkBefore = await balance(STRK_ADDRESS, k.address);
    // Skip the estimate (explicit bounds), as a client that does not estimate would: the node includes it reverted.
    const r = await k.account.execute(calls, { resourceBounds: BOUNDS, tip: 0 });
    const receipt = await provider.waitForTransaction(r.transaction_hash, WAIT);
    expect(receipt.isReverted()).toBe(true);
    const v = receipt.value as { revert_reason: string; actual_fee: { amount: string }; events: { from_address: string }[] };
    expect(v.revert_reason).toContain("ERC20: insufficient balance");
    expect(await balance(USDC, to)).toBe(0n);
    expect(await balance(USDC, k.address)).toBe(3_000_000n);
    expect(await balance(STRK_ADDRESS, k.address)).toBe(strkBefore - BigInt(v.actual_fee.amount));
    expect(v.events.every((e) => BigInt(e.from_address) === BigInt(STRK_ADDRESS))).toBe(true);
    expect(BigInt(await provider.getNonceForAddress(k.address))).toBe(nonce + 1n);
  });

  it("a call to a contract the node does not know reverts; starknet_call on it is CONTRACT_NOT_FOUND (20)", async () => {
    const k = await fundedDeployed();
    const ghost = "0x0123456789abcdef";
    const [sim] = (await k.account.simulateTransaction([{ type: "INVOKE", payload: [{ contractAddress: ghost, entrypoint: "transfer", calldata: ["0x1", "0x1", "0x0"] }] }])).simulated_transactions;
    expect((sim!.transaction_trace as { execute_invocation: { revert_reason?: string } }).execute_invocation.revert_reason).toContain("is not deployed");
    await expect(provider.callContract({ contractAddress: ghost, entrypoint: "balance_of", calldata: ["0x1"] })).rejects.toSatisfy((e) => rpcCode(e) === 20);
    await expect(provider.callContract({ contractAddress: USDC, entrypoint: "mint", calldata: ["0x1"] })).rejects.toSatisfy((e) => rpcCode(e) === 21);
  });

  it("refuses a stale nonce (52) and a forged signature (55); nothing moves", async () => {
    const k = await fundedDeployed();
    const to = stark.randomAddress();
    await expect(k.account.execute(transfer(STRK_ADDRESS, to, 1n), { nonce: 0, resourceBounds: BOUNDS, tip: 0 })).rejects.toSatisfy((e) => rpcCode(e) === 52);
    const forger = new Account({ provider, address: k.address, signer: stark.randomAddress() });
    await expect(forger.execute(transfer(STRK_ADDRESS, to, 1n))).rejects.toSatisfy((e) => rpcCode(e) === 55);
    // The estimate itself refuses a stale nonce, as a node's does (41).
    await expect(k.account.execute(transfer(STRK_ADDRESS, to, 1n), { nonce: 0 })).rejects.toSatisfy((e) => rpcCode(e) === 41);
    expect(await balance(STRK_ADDRESS, to)).toBe(0n);
  });

  it("holds a transaction whose nonce is ahead (RECEIVED) and runs it once the one before it lands, in nonce order", async () => {
    const k = await fundedDeployed();
    const to = stark.randomAddress();
    const nonce = BigInt(await provider.getNonceForAddress(k.address));
    const ahead = await k.account.execute(transfer(STRK_ADDRESS, to, 2n), { nonce: nonce + 1n, resourceBounds: BOUNDS, tip: 0 });
    expect((await provider.getTransactionStatus(ahead.transaction_hash)).finality_status).toBe("RECEIVED");
    expect(BigInt(await provider.getNonceForAddress(k.address))).toBe(nonce);
    expect(await balance(STRK_ADDRESS, to)).toBe(0n);
    // The same bytes again are a duplicate; another transaction for the same held nonce is refused; too far ahead is refused.
    await expect(k.account.execute(transfer(STRK_ADDRESS, to, 3n), { nonce: nonce + 1n, resourceBounds: BOUNDS, tip: 0 })).rejects.toSatisfy((e) => rpcCode(e) === 52);
    await expect(k.account.execute(transfer(STRK_ADDRESS, to, 3n), { nonce: nonce + 40n, resourceBounds: BOUNDS, tip: 0 })).rejects.toSatisfy((e) => rpcCode(e) === 52);
    const forger = new Account({ provider, address: k.address, signer: stark.randomAddress() });
    await expect(forger.execute(transfer(STRK_ADDRESS, to, 3n), { nonce: nonce + 2n, resourceBounds: BOUNDS, tip: 0 })).rejects.toSatisfy((e) => rpcCode(e) === 55);

    const first = await k.account.execute(transfer(STRK_ADDRESS, to, 1n), { nonce, resourceBounds: BOUNDS, tip: 0 });
    const r1 = await provider.waitForTransaction(first.transaction_hash, WAIT);
    const r2 = await provider.waitForTransaction(ahead.transaction_hash, WAIT);
    expect(r1.isSuccess() && r2.isSuccess()).toBe(true);
    expect((r2.value as { block_number: number }).block_number).toBe((r1.value as { block_number: number }).block_number + 1);
    expect(await balance(STRK_ADDRESS, to)).toBe(3n);
    expect(BigInt(await provider.getNonceForAddress(k.address))).toBe(nonce + 2n);
  });

  it("is_valid_signature answers VALID for the owner's signature only", async () => {
    const k = await fundedDeployed();
    const msg = "0x1234";
    const sig = ec.starkCurve.sign(msg, k.pk);
    const call = (r: bigint, s: bigint) => provider.callContract({ contractAddress: k.address, entrypoint: "is_valid_signature", calldata: [msg, "0x2", "0x" + r.toString(16), "0x" + s.toString(16)] });
    expect(BigInt((await call(sig.r, sig.s))[0]!)).toBe(BigInt("0x56414c4944"));
    expect(BigInt((await call(sig.r, sig.s + 1n))[0]!)).toBe(0n);
  });

  it("keeps its state in the data directory across a restart", async () => {
    const k = await fundedDeployed();
    const to = stark.randomAddress();
    const r = await k.account.execute(transfer(STRK_ADDRESS, to, 12345n));
    await provider.waitForTransaction(r.transaction_hash, WAIT);
    const height = await provider.getBlockNumber();
    await sb.close();
    sb = await startStarknetSandbox({ dataDir: dir });
    provider = new RpcProvider({ nodeUrl: sb.url });
    faucet = new Account({ provider, address: sb.node.faucet.address, signer: sb.node.faucet.privateKey });
    expect(await provider.getBlockNumber()).toBe(height);
    expect(await balance(STRK_ADDRESS, to)).toBe(12345n);
    expect(BigInt(await provider.getNonceForAddress(k.address))).toBe(2n);
    expect((await provider.getTransactionReceipt(r.transaction_hash)).isSuccess()).toBe(true);
  });
});
