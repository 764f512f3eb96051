/**
 * The Solana ChainAdapter against the sandbox cluster: custody (ed25519 seed sealed in the envelope),
 * named transfers (SOL, USDC with the recipient's ATA created), caller transactions built with kit
 * (legacy and v0 with a lookup table), asset changes from account state, control-granting warnings,
 * refusals naming the field, execution with a fresh blockhash, idempotent broadcast, reconcile.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AccountRole,
  appendTransactionMessageInstructions,
  compressTransactionMessageUsingAddressLookupTables,
  createNoopSigner,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  compileTransaction,
  getAddressEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
} from "@solana/kit";
import { getTransferSolInstruction, getAssignInstruction } from "@solana-program/system";
import { findAssociatedTokenPda, getApproveInstruction, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { startSolana, type SolanaRuntime } from "../../../src/chains/solana/start";
import { MasterKey } from "../../../src/wallets/custody/envelope";
import { envelopeVault } from "../../../src/wallets/custody/vault";
import { USDC_MINT } from "../../../src/chains/solana/tokens";
import { ChainInputError } from "../../../src/chains/port";
import type { SolanaPayload } from "../../../src/chains/solana/payload";

let sol: SolanaRuntime;
const vault = envelopeVault(new MasterKey(randomBytes(32).toString("hex")));
beforeAll(async () => {
  sol = (await startSolana({ sandbox: true, dataDir: "/nonexistent", ephemeral: true, sandboxPort: 0, publicUrl: "http://127.0.0.1:1", vault }))!;
});
afterAll(() => sol?.stop());

const USDC = USDC_MINT as Address;
async function newWallet(fund: { SOL?: string; USDC?: string } = { SOL: "2", USDC: "100" }) {
  const id = `wal_${randomBytes(6).toString("hex")}`;
  const { address, keyRef } = await sol.adapter.custody.createKey(id);
  if (fund.SOL) await sol.sandbox!.faucet.fund({ address, asset: "SOL", amount: fund.SOL });
  if (fund.USDC) await sol.sandbox!.faucet.fund({ address, asset: "USDC", amount: fund.USDC });
  return { id, address, chain: "solana", keyRef };
}
type W = Awaited<ReturnType<typeof newWallet>>;

async function execute(w: W, payload: SolanaPayload) {
  const a = sol.adapter;
  const prepared = await a.prepare(w, payload);
  if (!prepared.ok) throw new Error(prepared.reason);
  const signed = await a.sign(prepared.prepared, { handle: { walletId: w.id, address: w.address, keyRef: w.keyRef }, nextSequence: null });
  expect(await a.broadcast(signed)).toEqual({ kind: "sent" });
  const final = await a.waitForFinal(signed.hash, 10_000);
  return { signed, final };
}

async function callerTx(w: W, ixs: Instruction[], o: { version?: "legacy" | 0; blockhash?: string; tables?: Record<string, Address[]> } = {}) {
  const latest = (await sol.adapter.client.rpc.getLatestBlockhash().send()).value;
  let msg = pipe(
    createTransactionMessage({ version: o.version ?? 0 }),
    (m) => setTransactionMessageFeePayer(w.address as Address, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(o.blockhash ? { blockhash: o.blockhash as never, lastValidBlockHeight: 0n } : latest, m),
    (m) => appendTransactionMessageInstructions(ixs, m),
  );
  if (o.tables) msg = compressTransactionMessageUsingAddressLookupTables(msg as never, o.tables as never) as typeof msg;
  return getBase64EncodedWireTransaction(compileTransaction(msg as never) as never);
}

const field = async (p: Promise<unknown>) => {
  const e = await p.then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(ChainInputError);
  return { message: (e as Error).message, field: (e as { field?: string }).field };
};

describe("solana adapter", () => {
  it("custody: the address is the ed25519 public key of the sealed seed; a copied envelope does not open for another wallet", async () => {
    const w = await newWallet({});
    expect(sol.adapter.address.validate(w.address)).toBeNull();
    expect(sol.adapter.custody.canSign({ walletId: w.id, address: w.address, keyRef: w.keyRef })).toBe(true);
    expect(w.keyRef).not.toContain(w.address);
    await expect(sol.adapter.custody.signMessage({ walletId: "wal_other", address: w.address, keyRef: w.keyRef }, new Uint8Array([1]))).rejects.toThrow();
    // base58 compares exactly: a case change is another (usually invalid) key, never equal.
    const swapped = w.address.replace(/[a-z]/, (c) => c.toUpperCase());
    expect(sol.adapter.address.equals(w.address, swapped)).toBe(false);
    expect(sol.adapter.address.equals(w.address, w.address)).toBe(true);
  });

  it("named USDC transfer: ATA created, changes from state (USDC out to the owner, rent in SOL to the owner), landed, balances", async () => {
    const w = await newWallet();
    const bob = (await generateKeyPairSigner()).address;
    const plan = sol.adapter.buildTransfer(w, { asset: "USDC", amount: "12.5", to: bob });
    expect(plan.payload).toMatchObject({ kind: "transfer", asset: USDC_MINT, amount: "12500000", to: bob });
    expect(sol.adapter.requestHashOf(plan.payload)).toBe(plan.requestHash);
    const sim = await sol.adapter.simulate(w, plan.payload);
    expect(sim.report.status).toBe("clean");
    const usdcOut = sim.report.changes.find((c) => c.contractAddress === USDC_MINT)!;
    expect(usdcOut).toMatchObject({ direction: "out", assetType: "spl", rawAmount: "12500000", amount: "12.5", counterparty: bob, usdValue: 12.5, symbol: "USDC" });
    const rent = sim.report.changes.find((c) => c.assetType === "native")!;
    expect(rent).toMatchObject({ direction: "out", rawAmount: "2039280", counterparty: bob });
    expect(sim.report.caip2).toBe(sol.sandbox!.caip2);

    const { final } = await execute(w, plan.payload);
    expect(final).toEqual({ state: "succeeded" });
    const balances = await sol.adapter.balances(bob);
    expect(balances.find((b) => b.symbol === "USDC")).toMatchObject({ amount: "12500000", amountFormatted: "12.5", usdValue: 12.5, caip2: sol.sandbox!.caip2 });
    const mine = await sol.adapter.balances(w.address);
    expect(mine[0]).toMatchObject({ symbol: "SOL", tokenAddress: "native", decimals: 9 });
    expect(mine.find((b) => b.symbol === "USDC")?.amountFormatted).toBe("87.5");
    // A second transfer to the same owner: the ATA exists, no rent.
    const again = await sol.adapter.simulate(w, sol.adapter.buildTransfer(w, { asset: "USDC", amount: "1", to: bob }).payload);
    expect(again.report.changes.filter((c) => c.assetType === "native")).toEqual([]);
  });

  it("a held transfer signed later uses a fresh blockhash; the requestHash does not change", async () => {
    const w = await newWallet({ SOL: "1" });
    const to = (await generateKeyPairSigner()).address;
    const plan = sol.adapter.buildTransfer(w, { asset: "SOL", amount: "0.25", to });
    await fetch(sol.sandbox!.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "sandbox_warpSlots", params: [9000] }) });
    expect(sol.adapter.requestHashOf(plan.payload)).toBe(plan.requestHash);
    const { final } = await execute(w, plan.payload);
    expect(final).toEqual({ state: "succeeded" });
    expect((await sol.adapter.balances(to))[0]!.amount).toBe("250000000");
  });

  it("broadcast is idempotent and reconcile knows whether a signed transaction landed before anyone re-signs", async () => {
    const w = await newWallet({ SOL: "1" });
    const to = (await generateKeyPairSigner()).address;
    const plan = sol.adapter.buildTransfer(w, { asset: "SOL", amount: "0.1", to });
    const prepared = await sol.adapter.prepare(w, plan.payload);
    const signed = await sol.adapter.sign((prepared as { prepared: unknown }).prepared, { handle: { walletId: w.id, address: w.address, keyRef: w.keyRef }, nextSequence: null });
    // Not sent yet, blockhash valid: not_found (re-broadcasting the same bytes is safe).
    expect(await sol.adapter.lookup({ hash: signed.hash, raw: signed.raw, address: w.address, sequence: null })).toEqual({ state: "not_found" });
    expect(await sol.adapter.broadcast(signed)).toEqual({ kind: "sent" });
    expect(await sol.adapter.broadcast(signed)).toEqual({ kind: "sent" });
    expect(await sol.adapter.waitForFinal(signed.hash, 5000)).toEqual({ state: "succeeded" });
    expect((await sol.adapter.balances(to))[0]!.amount).toBe("100000000");
    expect(await sol.adapter.lookup({ hash: signed.hash, raw: signed.raw, address: w.address, sequence: null })).toEqual({ state: "succeeded" });

    // Signed, never sent, blockhash expired: dropped (it can never land; only now may the core re-sign).
    const p2 = await sol.adapter.prepare(w, sol.adapter.buildTransfer(w, { asset: "SOL", amount: "0.1", to }).payload);
    const s2 = await sol.adapter.sign((p2 as { prepared: unknown }).prepared, { handle: { walletId: w.id, address: w.address, keyRef: w.keyRef }, nextSequence: null });
    await fetch(sol.sandbox!.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "sandbox_warpSlots", params: [200] }) });
    expect(await sol.adapter.lookup({ hash: s2.hash, raw: s2.raw, address: w.address, sequence: null })).toMatchObject({ state: "dropped" });
    expect((await sol.adapter.broadcast(s2)).kind).toBe("rejected");
    expect((await sol.adapter.balances(to))[0]!.amount).toBe("100000000");
  });

  it("solana_transaction (v0 with a lookup table): decoded, resolved, simulated from state, executed autonomously", async () => {
    const w = await newWallet();
    const alice = (await generateKeyPairSigner()).address;
    const [walletAta] = await findAssociatedTokenPda({ owner: w.address as Address, mint: USDC, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const [aliceAta] = await findAssociatedTokenPda({ owner: alice, mint: USDC, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    await sol.sandbox!.faucet.fund({ address: alice, asset: "USDC", amount: "1" }); // creates alice's ATA
    // A lookup table holding alice's ATA and the mint.
    const table = (await generateKeyPairSigner()).address;
    const enc = getAddressEncoder();
    const header = new Uint8Array(56);
    const dv = new DataView(header.buffer);
    dv.setUint32(0, 1, true);
    dv.setBigUint64(4, 0xffffffffffffffffn, true);
    const data = new Uint8Array([...header, ...enc.encode(aliceAta), ...enc.encode(USDC)]);
    sol.sandbox!.ledger.writeAccounts([{ address: table, programAddress: "AddressLookupTab1e1111111111111111111111111" as Address, executable: false, lamports: 10_000_000n, data, space: BigInt(data.length) } as never]);
    const noop = createNoopSigner(w.address as Address);
    const b64 = await callerTx(
      w,
      [
        getTransferCheckedInstruction({ source: walletAta, mint: USDC, destination: aliceAta, authority: noop, amount: 3_000_000n, decimals: 6 }),
        getTransferSolInstruction({ source: noop, destination: alice, amount: 5_000_000n }),
      ],
      { tables: { [table]: [aliceAta, USDC] } },
    );
    const plan = await sol.adapter.plan(w, { kind: "solana_transaction", transaction: b64 });
    expect(plan.payload).toMatchObject({ kind: "solana_transaction", version: 0 });
    expect((plan.payload as { lookups: unknown[] }).lookups).toHaveLength(1);
    const sim = await sol.adapter.simulate(w, plan.payload);
    expect(sim.report.status).toBe("clean");
    expect(sim.warnings).toEqual([]);
    expect(sim.report.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ direction: "out", contractAddress: USDC_MINT, rawAmount: "3000000", counterparty: alice }),
        expect.objectContaining({ direction: "out", contractAddress: "native", rawAmount: "5000000", counterparty: alice, usdValue: 0.75 }),
      ]),
    );
    expect(sim.report.totalUsdOut).toBeCloseTo(3.75, 6);
    const { final } = await execute(w, plan.payload);
    expect(final).toEqual({ state: "succeeded" });
    expect((await sol.adapter.balances(alice)).find((b) => b.symbol === "USDC")?.amount).toBe("4000000");
  });

  it("control without movement: Approve is an approval change + warning; System Assign and an unknown program hold for the owner", async () => {
    const w = await newWallet();
    const spender = (await generateKeyPairSigner()).address;
    const noop = createNoopSigner(w.address as Address);
    const [walletAta] = await findAssociatedTokenPda({ owner: w.address as Address, mint: USDC, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const approve = await sol.adapter.plan(w, { kind: "solana_transaction", transaction: await callerTx(w, [getApproveInstruction({ source: walletAta, delegate: spender, owner: noop, amount: 0xffffffffffffffffn })]) });
    const s1 = await sol.adapter.simulate(w, approve.payload);
    expect(s1.report.changes).toEqual([expect.objectContaining({ changeType: "approval", counterparty: spender, unlimited: true, contractAddress: USDC_MINT })]);
    expect(s1.warnings.map((x) => [x.code, x.severity])).toEqual([["solana_token_delegate", "warn"]]);
    expect(s1.report.warnings[0]).toMatch(/Approve/);

    const assign = await sol.adapter.plan(w, { kind: "solana_transaction", transaction: await callerTx(w, [getAssignInstruction({ account: noop, programAddress: TOKEN_PROGRAM_ADDRESS })]) });
    const s2 = await sol.adapter.simulate(w, assign.payload);
    expect(s2.warnings.map((x) => [x.code, x.severity])).toEqual([["solana_account_assigned", "block"]]);
    expect(s2.report.changes[0]).toMatchObject({ changeType: "authority", unlimited: true });

    const unknownProgram = (await generateKeyPairSigner()).address;
    const weird = await sol.adapter.plan(w, {
      kind: "solana_transaction",
      transaction: await callerTx(w, [getTransferSolInstruction({ source: noop, destination: spender, amount: 1_000_000n }), { programAddress: "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr" as Address, accounts: [], data: new Uint8Array([104, 105]) }]),
    });
    expect((await sol.adapter.simulate(w, weird.payload)).warnings).toEqual([]);
    const bogus = await sol.adapter.plan(w, { kind: "solana_transaction", transaction: await callerTx(w, [{ programAddress: unknownProgram, accounts: [{ address: w.address as Address, role: AccountRole.WRITABLE }], data: new Uint8Array([1]) }]) });
    const s3 = await sol.adapter.simulate(w, bogus.payload);
    expect(s3.report.status).toBe("reverted"); // the program does not exist here
  });

  it("refuses bad input with a ChainInputError naming the field", async () => {
    const w = await newWallet({ SOL: "0.01" });
    const other = await generateKeyPairSigner();
    const a = sol.adapter;
    expect(await field(a.plan(w, { kind: "solana_transaction", transaction: "not base64!!" }))).toMatchObject({ field: "input.transaction", message: expect.stringMatching(/base64/) });
    expect(await field(a.plan(w, { kind: "solana_transaction", transaction: "AAAA" }))).toMatchObject({ field: "input.transaction", message: expect.stringMatching(/does not decode/) });
    // Fee payer is someone else.
    const foreignPayer = await callerTx({ ...w, address: other.address }, [getTransferSolInstruction({ source: createNoopSigner(other.address), destination: w.address as Address, amount: 1n })]);
    expect(await field(a.plan(w, { kind: "solana_transaction", transaction: foreignPayer }))).toMatchObject({ field: "input.transaction", message: expect.stringMatching(/fee payer must be the wallet/) });
    // Another signer required.
    const twoSigners = await callerTx(w, [getTransferSolInstruction({ source: createNoopSigner(other.address), destination: w.address as Address, amount: 1n })]);
    expect(await field(a.plan(w, { kind: "solana_transaction", transaction: twoSigners }))).toMatchObject({ message: expect.stringMatching(/other accounts/) });
    // Another cluster's transaction (a blockhash this cluster never issued).
    const foreign = await callerTx(w, [getTransferSolInstruction({ source: createNoopSigner(w.address as Address), destination: other.address, amount: 1n })], { blockhash: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG" });
    expect(await field(a.plan(w, { kind: "solana_transaction", transaction: foreign }))).toMatchObject({ message: expect.stringMatching(/another cluster/) });
    expect(() => a.checkInputChain({ kind: "solana_transaction", caip2: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1" })).toThrow(/wrong chain/);
    expect(() => a.checkInputChain({ kind: "evm_transaction", chain: "solana" })).toThrow(/not available on Solana/);
    // Named transfers.
    const t = (x: Partial<{ asset: string; amount: string; to: string }>) => () => a.buildTransfer(w, { asset: "USDC", amount: "1", to: other.address, ...x });
    expect(t({ asset: "BONK" })).toThrow(/unknown asset/);
    expect(t({ asset: "So11111111111111111111111111111111111111113" })).toThrow(/unknown asset/);
    expect(t({ amount: "1e3" })).toThrow(/plain decimal/);
    expect(t({ amount: "0.0000001" })).toThrow(/more than 6 decimal places/);
    expect(t({ amount: "0" })).toThrow(/greater than zero/);
    expect(t({ to: "0x000000000000000000000000000000000000dEaD" })).toThrow(/base58/);
    expect(t({ to: "1111111111111111111111111111111O" })).toThrow(/base58/);
    try {
      t({ to: "nope" })();
    } catch (e) {
      expect((e as { field?: string }).field).toBe("input.transfer.to");
    }
    // The wallet cannot pay the fee and keep its rent-exempt minimum.
    const drain = a.buildTransfer(w, { asset: "SOL", amount: "0.0099", to: other.address });
    expect(await field(a.simulate(w, drain.payload))).toMatchObject({ field: "input.transfer.amount", message: expect.stringMatching(/fee|rent/) });
    const empty = await newWallet({});
    expect(await field(a.simulate(empty, a.buildTransfer(empty, { asset: "SOL", amount: "0.001", to: other.address }).payload))).toMatchObject({ field: "input.transfer.amount" });
  });

  it("kit-signed dApp transactions keep only the wallet's signature slot; the service re-signs", async () => {
    const w = await newWallet({ SOL: "1" });
    // A transaction the wallet "already signed" with a random key is refused only if it needs others; here it is decoded and rebuilt.
    const fake = await generateKeyPairSigner();
    const latest = (await sol.adapter.client.rpc.getLatestBlockhash().send()).value;
    const signedByOther = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: "legacy" }),
        (m) => setTransactionMessageFeePayerSigner(fake, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
        (m) => appendTransactionMessageInstructions([getTransferSolInstruction({ source: fake, destination: w.address as Address, amount: 1n })], m),
      ),
    );
    expect(await field(sol.adapter.plan(w, { kind: "solana_transaction", transaction: getBase64EncodedWireTransaction(signedByOther) }))).toMatchObject({ message: expect.stringMatching(/fee payer/) });
    const legacy = await callerTx(w, [getTransferSolInstruction({ source: createNoopSigner(w.address as Address), destination: fake.address, amount: 10_000_000n })], { version: "legacy" });
    const plan = await sol.adapter.plan(w, { kind: "solana_transaction", transaction: legacy });
    expect(plan.payload).toMatchObject({ version: "legacy" });
    const { final } = await execute(w, plan.payload);
    expect(final).toEqual({ state: "succeeded" });
  });
});
