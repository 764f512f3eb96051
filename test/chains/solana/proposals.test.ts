/**
 * The escrow pipeline on Solana wallets over the real HTTP app and the litesvm sandbox (read back with
 * @solana/kit): named transfers always held for the owner (SPEC 3) then confirmed and landed, autonomous
 * `solana_transaction` executed, each limit blocking for free, the judge blocking, the daily cap under 20
 * concurrent proposals, expiry, and bad input answered 400 naming the field with no credit charged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNoopSigner, type Address } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { ManualClock } from "../../../src/lib/clock";
import { solanaAddressCodec } from "../../../src/chains/solana/codec";
import { freshSolAddress, startSolanaEscrow, USDC_MINT, type SolanaEscrow } from "./helpers";

let t: SolanaEscrow;
const clock = new ManualClock(new Date());
beforeAll(async () => {
  t = await startSolanaEscrow({ clock });
});
afterAll(async () => {
  expect(await t.ledgerMismatches()).toEqual([]);
  await t?.close();
});

async function funded(key: string, body: Record<string, unknown>, sol = "2", usdc = "100") {
  const w = await t.createSolWallet(key, body);
  await t.fundSol(w.address, "SOL", sol);
  if (usdc !== "0") await t.fundSol(w.address, "USDC", usdc);
  return w;
}

/** A SOL transfer from the wallet, built by the caller with kit. */
const solTx = (from: string, to: string, lamports: bigint) => t.callerTx(from, [getTransferSolInstruction({ source: createNoopSigner(from as Address), destination: to as Address, amount: lamports })]);

async function usdcTx(from: string, to: string, units: bigint) {
  const [src] = await findAssociatedTokenPda({ owner: from as Address, mint: USDC_MINT, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const [dst] = await findAssociatedTokenPda({ owner: to as Address, mint: USDC_MINT, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return t.callerTx(from, [getTransferCheckedInstruction({ source: src, mint: USDC_MINT, destination: dst, authority: createNoopSigner(from as Address), amount: units, decimals: 6 })]);
}

describe("wallet creation rules", () => {
  it("refuses safe mode on Solana with 400 create_failed; chainType solana works", async () => {
    const a = await t.createAccount(1);
    const safe = await t.json(await t.request("POST", "/api/v1/wallets", { key: a.apiKey, body: { name: "s", chain: "solana", mode: "safe", mandate: "x" } }));
    expect(safe.status).toBe(400);
    expect(safe.body).toMatchObject({ error: "create_failed" });
    expect(safe.body.message).toMatch(/safe is not available on solana wallets/);
    const byType = await t.json(await t.request("POST", "/api/v1/wallets", { key: a.apiKey, body: { name: "typed", chainType: "solana", mode: "autonomous", mandate: "x", limits: { tokenAllowlist: ["USDC", "SOL"] } } }));
    expect(byType.status).toBe(201);
    expect(byType.body).toMatchObject({ chain: "solana", limits: { tokenAllowlist: [USDC_MINT, "native"] } });
    const badRecipient = await t.json(await t.request("POST", "/api/v1/wallets", { key: a.apiKey, body: { name: "bad", chain: "solana", mode: "autonomous", mandate: "x", limits: { recipientAllowlist: ["0x000000000000000000000000000000000000dEaD"] } } }));
    expect(badRecipient.status).toBe(400);
    expect(badRecipient.body.message).toMatch(/recipientAllowlist/);
  });
});

describe("named transfers wait for the owner", () => {
  it("a USDC transfer is awaiting_user with an approvalUrl even on ALLOW; confirmed, it lands with the recipient's token account created", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "named" });
    const bob = await freshSolAddress();
    const r = await t.proposeSol(a.apiKey, "named", { kind: "transfer", transfer: { asset: "USDC", amount: "12.5", to: bob } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "awaiting_user", verdict: "ALLOW", approvalUrl: `http://arbiter.test/dashboard/proposals/${r.body.txId}`, creditsRemaining: 4 });
    expect(r.body.reasoning).toMatch(/^Held for the owner: a named transfer on a solana wallet always waits/);
    expect(r.body.simulation).toMatchObject({ status: "clean", caip2: t.info.caip2 });
    expect(r.body.simulation.changes).toEqual(expect.arrayContaining([expect.objectContaining({ direction: "out", assetType: "spl", contractAddress: USDC_MINT, rawAmount: "12500000", counterparty: bob, usdValue: 12.5 })]));
    expect(await t.usdcOf(bob)).toBe(0n);

    const c = await t.json(await t.admin("POST", `/admin/v1/proposals/${r.body.txId}/confirm`));
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ status: "executed", verdict: "ALLOW" });
    expect(await t.usdcOf(bob)).toBe(12_500_000n);
    expect(await t.usdcOf(w.address)).toBe(87_500_000n);
    const status = await t.json(await t.request("GET", `/api/v1/escrow-transactions/${r.body.txId}`, { key: a.apiKey }));
    expect(status.body).toMatchObject({ status: "executed", txHash: c.body.txHash, explorerUrl: `http://arbiter.test/sandbox/explorer/solana/tx/${c.body.txHash}` });
    const onChain = await t.rpc.getSignatureStatuses([c.body.txHash]).send();
    expect(onChain.value[0]?.err).toBeNull();
    expect(await t.credits(a.apiKey)).toBe(4);
  });

  it("expires after the approval window: cannot be confirmed, nothing moves, its reservation is released", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "slow", limits: { dailyCapUsd: 10 } });
    const bob = await freshSolAddress();
    const r = await t.proposeSol(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "8", to: bob } });
    expect(r.body.status).toBe("awaiting_user");
    expect((await t.proposeSol(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "5", to: bob } })).body.reasoning).toMatch(/^dailyCapUsd/);
    clock.advance(60 * 60_000 + 1);
    const s = await t.json(await t.request("GET", `/api/v1/escrow-transactions/${r.body.txId}`, { key: a.apiKey }));
    expect(s.body).toMatchObject({ status: "expired", approvalUrl: null });
    const c = await t.json(await t.admin("POST", `/admin/v1/proposals/${r.body.txId}/confirm`));
    expect(c.status).toBe(409);
    expect(c.body.message).toMatch(/expired/);
    expect((await t.proposeSol(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "5", to: bob } })).body.status).toBe("awaiting_user");
    expect(await t.usdcOf(bob)).toBe(0n);
  });
});

describe("solana_transaction", () => {
  it("executes an ALLOW autonomously: changes derived from state, funds moved, one credit", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "auto", limits: { maxPerTxUsd: 50 } });
    const bob = await freshSolAddress();
    const r = await t.proposeSol(a.apiKey, w.id, { kind: "solana_transaction", transaction: await solTx(w.address, bob, 100_000_000n) }, "tip");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "executed", verdict: "ALLOW", creditsRemaining: 4 });
    expect(r.body.txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(r.body.simulation.changes).toEqual([expect.objectContaining({ direction: "out", assetType: "native", symbol: "SOL", rawAmount: "100000000", counterparty: bob, usdValue: 15 })]);
    expect(await t.lamportsOf(bob)).toBe(100_000_000n);
    expect(t.judge.inputs.at(-1)!.facts?.chainId).toBe(t.info.caip2);
  });

  it("blocks each limit for free (no judge, no credit) with the limit named; base58 compared exactly", async () => {
    const a = await t.createAccount(3);
    const bob = await freshSolAddress();
    const w = await funded(a.apiKey, { name: "limited", limits: { maxPerTxUsd: 20, dailyCapUsd: 30, tokenAllowlist: ["USDC"], recipientAllowlist: [bob] } });
    const judged = t.judge.inputs.length;
    const stranger = await freshSolAddress();
    // bob's address with one letter's case changed, still a valid key: another account, never "the same".
    const twin = [...bob].map((_, i) => bob.slice(0, i) + (bob[i] === bob[i]!.toUpperCase() ? bob[i]!.toLowerCase() : bob[i]!.toUpperCase()) + bob.slice(i + 1)).find((x) => x !== bob && solanaAddressCodec.validate(x) === null)!;
    expect(twin).toBeDefined();
    await t.fundSol(twin, "USDC", "1");
    const cases: [string, RegExp][] = [
      [await usdcTx(w.address, twin, 1_000_000n), /^recipientAllowlist: /],
      [await usdcTx(w.address, bob, 25_000_000n), /^maxPerTxUsd: /],
      [await solTx(w.address, bob, 1_000_000n), /^tokenAllowlist: 0.001 SOL/],
      [await usdcTx(w.address, stranger, 1_000_000n), /^recipientAllowlist: /],
    ];
    // The recipient's token account must exist for a raw TransferChecked to simulate.
    await t.fundSol(stranger, "USDC", "1");
    await t.fundSol(bob, "USDC", "1");
    for (const [transaction, reason] of cases) {
      const r = await t.proposeSol(a.apiKey, w.id, { kind: "solana_transaction", transaction });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: "blocked", verdict: "BLOCK", scanId: null, creditsRemaining: null, proof: null });
      expect(r.body.reasoning).toMatch(reason);
    }
    expect((await t.proposeSol(a.apiKey, w.id, { kind: "solana_transaction", transaction: await usdcTx(w.address, bob, 20_000_000n) })).body.status).toBe("executed");
    const over = await t.proposeSol(a.apiKey, w.id, { kind: "solana_transaction", transaction: await usdcTx(w.address, bob, 15_000_000n) });
    expect(over.body).toMatchObject({ status: "blocked", verdict: "BLOCK", scanId: null });
    expect(over.body.reasoning).toMatch(/^dailyCapUsd: \$20.00 already counted/);
    expect(t.judge.inputs.length).toBe(judged + 1);
    expect(await t.credits(a.apiKey)).toBe(2);
    expect(await t.usdcOf(bob)).toBe(21_000_000n);
  });

  it("the judge blocks against the mandate (one credit); nothing moves", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "judged", mandate: "[judge:block] never tip" });
    const bob = await freshSolAddress();
    const r = await t.proposeSol(a.apiKey, w.id, { kind: "solana_transaction", transaction: await solTx(w.address, bob, 1_000_000n) });
    expect(r.body).toMatchObject({ status: "blocked", verdict: "BLOCK", reasoning: "the mandate forbids this", creditsRemaining: 4 });
    expect(r.body.scanId).toBeTruthy();
    expect(await t.lamportsOf(bob)).toBe(0n);
  });

  it("20 concurrent proposals of 30% of the daily cap: exactly three execute, the rest blocked for free", async () => {
    const a = await t.createAccount(30);
    const w = await funded(a.apiKey, { name: "capped", limits: { dailyCapUsd: 100 } }, "2", "1000");
    const bob = await freshSolAddress();
    await t.fundSol(bob, "USDC", "1");
    const txs = await Promise.all(Array.from({ length: 20 }, () => usdcTx(w.address, bob, 30_000_000n)));
    const results = await Promise.all(txs.map((transaction) => t.proposeSol(a.apiKey, w.id, { kind: "solana_transaction", transaction })));
    const statuses = results.map((r) => r.body.status);
    expect(statuses.filter((s) => s === "executed")).toHaveLength(3);
    expect(statuses.filter((s) => s === "blocked")).toHaveLength(17);
    for (const r of results.filter((x) => x.body.status === "blocked")) expect(r.body.reasoning).toMatch(/^dailyCapUsd: /);
    expect(await t.usdcOf(bob)).toBe(91_000_000n);
    expect(await t.credits(a.apiKey)).toBe(27);
  });
});

describe("bad input: 400 naming the field, nothing charged", () => {
  it("answers malformed base64, another cluster, unknown mints, bad amounts and recipients, unpayable fees", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "strict" }, "0.002", "10");
    const bob = await freshSolAddress();
    const post = async (input: Record<string, unknown>) => t.proposeSol(a.apiKey, w.id, input);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ kind: "solana_transaction", transaction: "not base64!!" }, "invalid_input", /^input.transaction is not valid base64/],
      [{ kind: "solana_transaction", transaction: "AAAA" }, "invalid_input", /^input.transaction does not decode/],
      [{ kind: "solana_transaction", transaction: 42 }, "invalid_input", /^input.transaction: /],
      [{ kind: "solana_transaction", caip2: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", transaction: "AAAA" }, "invalid_input", /^input.caip2: wrong chain/],
      [{ kind: "transfer", transfer: { asset: "So11111111111111111111111111111111111111113", amount: "1", to: bob } }, "invalid_input", /^input.transfer.asset: unknown asset/],
      [{ kind: "transfer", transfer: { asset: "BONK", amount: "1", to: bob } }, "invalid_input", /^input.transfer.asset: /],
      [{ kind: "transfer", transfer: { asset: "USDC", amount: "1e3", to: bob } }, "invalid_input", /^input.transfer.amount: /],
      [{ kind: "transfer", transfer: { asset: "USDC", amount: "1.0000001", to: bob } }, "invalid_input", /^input.transfer.amount has more than 6 decimal places/],
      [{ kind: "transfer", transfer: { asset: "SOL", amount: "0.0000000001", to: bob } }, "invalid_input", /^input.transfer.amount has more than 9 decimal places/],
      [{ kind: "transfer", transfer: { asset: "USDC", amount: "1", to: "1111111111111111111111111111111O" } }, "invalid_input", /^input.transfer.to: /],
      [{ kind: "transfer", transfer: { asset: "USDC", amount: "1", to: "0x000000000000000000000000000000000000dEaD" } }, "invalid_input", /^input.transfer.to must be a base58 Solana address/],
      [{ kind: "transfer", transfer: { asset: "SOL", amount: "0.0019", to: bob } }, "invalid_input", /^input.transfer.amount: the wallet could not pay this transaction's fee/],
      [{ kind: "transfer", transfer: { asset: "SOL", amount: "0.0000001", to: bob } }, "invalid_input", /^input.transfer.amount: .*below the rent-exempt minimum/],
      [{ kind: "transfer", transfer: { asset: "SOL", amount: "0.001", to: "11111111111111111111111111111111" } }, "invalid_input", /^input.transfer.to: the cluster cannot run this transaction/],
      [{ kind: "solana_transaction", transaction: await solTx(w.address, bob, 1_900_000n) }, "invalid_input", /^input.transaction: the wallet could not pay this transaction's fee/],
      [{ kind: "evm_transaction", transaction: { to: "0x000000000000000000000000000000000000dEaD" } }, "invalid_input", /^input.kind: /],
    ];
    for (const [input, error, message] of cases) {
      const r = await post(input);
      expect(r.status, JSON.stringify(input)).toBe(400);
      // The propose route answers every service refusal as propose_failed (SPEC 7); the schema's as invalid_input.
      expect([error, "propose_failed"], JSON.stringify(input)).toContain(r.body.error);
      expect(r.body.message, JSON.stringify(input)).toMatch(message);
    }
    expect(await t.credits(a.apiKey)).toBe(5);
    const list = await t.json(await t.request("GET", `/api/v1/escrow-transactions?wallet=${w.id}`, { key: a.apiKey }));
    expect(list.body.transactions).toEqual([]);
  });
});
