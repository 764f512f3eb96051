/**
 * The sandbox Solana cluster through unmodified standard clients: @solana/kit (createSolanaRpc,
 * createSolanaRpcSubscriptions, sendAndConfirmTransactionFactory, fetchMint, simulate) and web3.js v1
 * (Connection, sendAndConfirmTransaction, confirmTransaction over WebSocket). Also: state survives a
 * restart on the same data dir, blockhashes expire after 150 slots, preflight failures come back in
 * Agave's error shape.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isSolanaError,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { fetchMint, fetchToken, findAssociatedTokenPda, getTransferCheckedInstruction, getCreateAssociatedTokenIdempotentInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction, sendAndConfirmTransaction } from "@solana/web3.js";
import { startSolanaSandbox, type SolanaSandbox } from "../../../src/chains/solana/sandbox";
import { USDC_MINT } from "../../../src/chains/solana/tokens";

const dirs: string[] = [];
const running: SolanaSandbox[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const start = async (dataDir?: string) => {
  const s = await startSolanaSandbox({ dataDir });
  running.push(s);
  return s;
};
const stop = async (s: SolanaSandbox) => {
  await s.stop();
  running.splice(running.indexOf(s), 1);
};

describe("solana sandbox: JSON-RPC for standard clients", () => {
  it("kit: reads the USDC mint, funds, sends and confirms over WebSocket", async () => {
    const sb = await start();
    const rpc = createSolanaRpc(sb.rpcUrl);
    const subs = createSolanaRpcSubscriptions(sb.wsUrl);
    expect(await rpc.getGenesisHash().send()).toBe(sb.genesisHash);
    expect(sb.caip2).toBe(`solana:${sb.genesisHash.slice(0, 32)}`);
    const mint = await fetchMint(rpc, USDC_MINT as Address);
    expect(mint.data.decimals).toBe(6);
    expect(mint.programAddress).toBe(TOKEN_PROGRAM_ADDRESS);

    const alice = await generateKeyPairSigner();
    const bob = await generateKeyPairSigner();
    const sol = await sb.faucet.fund({ address: alice.address, asset: "SOL", amount: "2" });
    const usdc = await sb.faucet.fund({ address: alice.address, asset: "USDC", amount: "25.5" });
    expect(sol.txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    const statuses = await rpc.getSignatureStatuses([sol.txHash as never, usdc.txHash as never]).send();
    expect(statuses.value.map((s) => s?.err)).toEqual([null, null]);
    expect((await rpc.getBalance(alice.address).send()).value).toBe(2_000_000_000n);
    const [aliceAta] = await findAssociatedTokenPda({ owner: alice.address, mint: USDC_MINT as Address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    expect((await fetchToken(rpc, aliceAta)).data.amount).toBe(25_500_000n);
    const parsed = await rpc.getTokenAccountsByOwner(alice.address, { mint: USDC_MINT as Address }, { encoding: "jsonParsed" }).send();
    expect(parsed.value[0]!.account.data.parsed.info.tokenAmount.uiAmountString).toBe("25.5");

    // SOL + USDC (with the recipient's ATA created) in one transaction, confirmed through kit's factory.
    const [bobAta] = await findAssociatedTokenPda({ owner: bob.address, mint: USDC_MINT as Address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const { value: latest } = await rpc.getLatestBlockhash().send();
    const msg = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(alice, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
      (m) =>
        appendTransactionMessageInstructions(
          [
            getTransferSolInstruction({ source: alice, destination: bob.address, amount: lamports(100_000_000n) }),
            getCreateAssociatedTokenIdempotentInstruction({ payer: alice, ata: bobAta, owner: bob.address, mint: USDC_MINT as Address }),
            getTransferCheckedInstruction({ source: aliceAta, mint: USDC_MINT as Address, destination: bobAta, authority: alice, amount: 5_000_000n, decimals: 6 }),
          ],
          m,
        ),
    );
    const signed = await signTransactionMessageWithSigners(msg);
    // Simulation with the accounts' post state, as the escrow pipeline reads it.
    const sim = await rpc
      .simulateTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64", sigVerify: false, replaceRecentBlockhash: true, accounts: { addresses: [bobAta], encoding: "base64" } })
      .send();
    expect(sim.value.err).toBeNull();
    expect(sim.value.accounts?.[0]).not.toBeNull();
    await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions: subs })(signed as never, { commitment: "confirmed" });
    expect((await fetchToken(rpc, bobAta)).data.amount).toBe(5_000_000n);
    expect((await rpc.getBalance(bob.address).send()).value).toBe(100_000_000n);
    const fee = (await rpc.getTransaction(getSignatureFromTransaction(signed), { maxSupportedTransactionVersion: 0, encoding: "json" }).send())?.meta?.fee;
    expect(fee).toBe(5000n);

    // The same bytes again: refused before landing, in Agave's preflight error shape.
    const again = await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64" }).send().catch((e: unknown) => e);
    expect(isSolanaError(again)).toBe(true);
    // kit turns the node's `err` into a typed cause (SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED).
    expect(String((again as { cause?: Error }).cause?.message)).toMatch(/already been processed/);

    // An overdraft: preflight fails with InstructionError Custom 1, nothing lands.
    const { value: latest2 } = await rpc.getLatestBlockhash().send();
    const over = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(alice, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(latest2, m),
        (m) => appendTransactionMessageInstructions([getTransferCheckedInstruction({ source: aliceAta, mint: USDC_MINT as Address, destination: bobAta, authority: alice, amount: 999_000_000n, decimals: 6 })], m),
      ),
    );
    const refused = await rpc.sendTransaction(getBase64EncodedWireTransaction(over), { encoding: "base64" }).send().catch((e: unknown) => e);
    expect(isSolanaError(refused)).toBe(true);
    expect(String((refused as { cause?: Error }).cause?.message)).toMatch(/custom program error: #1/i);
    expect(await rpc.getSignatureStatuses([getSignatureFromTransaction(over)]).send().then((r) => r.value[0])).toBeNull();
  });

  it("web3.js v1: airdrop + confirmTransaction, sendAndConfirmTransaction, SendTransactionError", async () => {
    const sb = await start();
    const conn = new Connection(sb.rpcUrl, "confirmed");
    const payer = Keypair.generate();
    const sig = await conn.requestAirdrop(payer.publicKey, 2 * LAMPORTS_PER_SOL);
    const latest = await conn.getLatestBlockhash();
    await conn.confirmTransaction({ signature: sig, ...latest }, "confirmed");
    expect(await conn.getBalance(payer.publicKey)).toBe(2 * LAMPORTS_PER_SOL);
    const to = Keypair.generate().publicKey;
    const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: LAMPORTS_PER_SOL / 2 }));
    const landed = await sendAndConfirmTransaction(conn, tx, [payer]);
    expect(landed).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(await conn.getBalance(to)).toBe(LAMPORTS_PER_SOL / 2);
    const parsed = await conn.getParsedAccountInfo(new PublicKey(USDC_MINT));
    expect((parsed.value?.data as { parsed: { info: { decimals: number } } }).parsed.info.decimals).toBe(6);

    const tooMuch = new Transaction().add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 100 * LAMPORTS_PER_SOL }));
    const err = await sendAndConfirmTransaction(conn, tooMuch, [payer]).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toMatch(/simulation failed/i);
  });

  it("blockhashes expire after 150 slots; a transaction on an old one is refused", async () => {
    const sb = await start();
    const rpc = createSolanaRpc(sb.rpcUrl);
    const alice = await generateKeyPairSigner();
    await sb.faucet.fund({ address: alice.address, asset: "SOL", amount: "1" });
    const { value: old } = await rpc.getLatestBlockhash().send();
    expect((await rpc.isBlockhashValid(old.blockhash).send()).value).toBe(true);
    const res = await fetch(sb.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "sandbox_warpSlots", params: [151] }) });
    expect(((await res.json()) as { result: number }).result).toBeGreaterThan(Number(old.lastValidBlockHeight));
    expect((await rpc.isBlockhashValid(old.blockhash).send()).value).toBe(false);
    const stale = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(alice, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(old, m),
        (m) => appendTransactionMessageInstructions([getTransferSolInstruction({ source: alice, destination: sb.faucet.address as Address, amount: lamports(1000n) })], m),
      ),
    );
    const refused = await rpc.sendTransaction(getBase64EncodedWireTransaction(stale), { encoding: "base64" }).send().catch((e: unknown) => e);
    expect(String((refused as { cause?: Error }).cause?.message)).toMatch(/blockhash/i);
    expect((await rpc.getBalance(alice.address).send()).value).toBe(1_000_000_000n);
  });

  it("state, genesis hash and signature statuses survive a restart on the same data dir", async () => {
    const dir = mkdtempSync(join(tmpdir(), "arbiter-solana-"));
    dirs.push(dir);
    const first = await start(dir);
    const alice = await generateKeyPairSigner();
    const funded = await first.faucet.fund({ address: alice.address, asset: "USDC", amount: "7" });
    const genesis = first.genesisHash;
    await stop(first);
    const second = await start(dir);
    expect(second.genesisHash).toBe(genesis);
    const rpc = createSolanaRpc(second.rpcUrl);
    const [ata] = await findAssociatedTokenPda({ owner: alice.address, mint: USDC_MINT as Address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    expect((await fetchToken(rpc, ata)).data.amount).toBe(7_000_000n);
    const st = await rpc.getSignatureStatuses([funded.txHash as never]).send();
    expect(st.value[0]?.err).toBeNull();
    // The faucet still works after the restart (mint authority restored with the state).
    await second.faucet.fund({ address: alice.address, asset: "USDC", amount: "1" });
    expect((await fetchToken(rpc, ata)).data.amount).toBe(8_000_000n);
    // A different data dir is a different cluster.
    const other = await start();
    expect(other.genesisHash).not.toBe(genesis);
  });

  it("faucet refuses bad input", async () => {
    const sb = await start();
    await expect(sb.faucet.fund({ address: "not-base58-0OIl", asset: "SOL", amount: "1" })).rejects.toThrow(/base58/);
    const a = (await generateKeyPairSigner()).address;
    await expect(sb.faucet.fund({ address: a, asset: "USDC", amount: "1e3" })).rejects.toThrow(/amount/);
    await expect(sb.faucet.fund({ address: a, asset: "USDC", amount: "1.0000001" })).rejects.toThrow(/decimal/);
    await expect(sb.faucet.fund({ address: a, asset: "ETH" as never, amount: "1" })).rejects.toThrow(/SOL or USDC/);
  });
});
