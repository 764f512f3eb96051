/**
 * Execution on Solana: prepare (fresh blockhash, pinned lookup tables re-checked, a preflight simulation),
 * sign (the wallet's ed25519 signature over the message this service compiled), broadcast (idempotent:
 * the same bytes are the same signature, "already processed" is `sent`), wait, and lookup for reconcile.
 * Each signing adds a Memo with a random tag, so two proposals of identical instructions never share a signature.
 *
 * Reconcile never sends twice: a signed transaction is tied to its blockhash. While that blockhash is
 * valid, the stored bytes may be re-broadcast (same signature: it lands at most once). Once it has expired
 * and the signature has no status (history searched), the transaction can never land: `dropped`, and only
 * then may the core sign again.
 */
import { getBase58Decoder, getCompiledTransactionMessageDecoder, getTransactionDecoder, type Address, type Blockhash, type Signature, type Transaction } from "@solana/kit";
import { randomBytes } from "node:crypto";
import type { BroadcastOutcome, SignedTransaction, TransactionState } from "../types";
import type { Prepared, SignContext, WalletRef } from "../port";
import type { SolanaClient } from "./client";
import type { Ed25519CustodySigner } from "./custody";
import { buildMessage, withSignature, type SolanaPayload } from "./payload";
import { checkPinnedTables } from "./simulate";

const b58 = getBase58Decoder();
/** Solana's packet limit for a wire transaction. */
const MAX_WIRE_BYTES = 1232;

interface PreparedSolana {
  from: string;
  tx: Transaction;
}

export async function prepareSolana(client: SolanaClient, wallet: WalletRef, payload: SolanaPayload): Promise<Prepared> {
  if (payload.from !== wallet.address) return { ok: false, reason: "the payload names another wallet" };
  const pins = await checkPinnedTables(client, payload);
  if ("changed" in pins) return { ok: false, reason: pins.changed };
  const latest = await client.call("getLatestBlockhash", () => client.rpc.getLatestBlockhash({ commitment: "confirmed" }).send());
  // A signature is a pure function of the message: two proposals with the same instructions signed under the
  // same blockhash would be one transaction (the second "already processed", yet recorded as its own). A memo
  // with a random tag makes every signing distinct; it moves nothing. Dropped only if the message would
  // outgrow the packet limit.
  let built = await buildMessage(payload, latest.value, pins.tables, `arbiter:${randomBytes(8).toString("hex")}`);
  if (Buffer.from(built.unsignedWire, "base64").length > MAX_WIRE_BYTES) built = await buildMessage(payload, latest.value, pins.tables);
  const sim = await client.call("simulateTransaction", () =>
    client.rpc.simulateTransaction(built.unsignedWire as never, { encoding: "base64", sigVerify: false, replaceRecentBlockhash: true, commitment: "confirmed" }).send(),
  );
  if (sim.value.err) return { ok: false, reason: `the transaction would fail now: ${JSON.stringify(sim.value.err, (_k, v) => (typeof v === "bigint" ? Number(v) : v))}` };
  const prepared: PreparedSolana = { from: wallet.address, tx: built.tx };
  return { ok: true, prepared };
}

export async function signSolana(custody: Ed25519CustodySigner, prepared: unknown, ctx: SignContext): Promise<SignedTransaction> {
  const p = prepared as PreparedSolana;
  if (ctx.handle.address !== p.from) throw new Error("signing handle is not the payload's wallet");
  const signature = await custody.signMessage(ctx.handle, p.tx.messageBytes as unknown as Uint8Array);
  const wire = withSignature(p.tx, p.from, signature);
  return { raw: Buffer.from(wire).toString("base64"), hash: b58.decode(signature), sequence: null, sequenceUsed: 0 };
}

async function rawRpc(rpcUrl: string, method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string; data?: { err?: unknown } } }> {
  const res = await fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }), signal: AbortSignal.timeout(20_000) });
  return (await res.json()) as { result?: unknown; error?: { code: number; message: string; data?: { err?: unknown } } };
}

export async function broadcastSolana(client: SolanaClient, signed: { raw: string; hash: string }): Promise<BroadcastOutcome> {
  let body;
  try {
    body = await rawRpc(client.rpcUrl, "sendTransaction", [signed.raw, { encoding: "base64", skipPreflight: false, preflightCommitment: "confirmed", maxRetries: 5 }]);
  } catch (err) {
    return { kind: "unknown", reason: `Solana RPC unreachable: ${(err as Error).message}` };
  }
  if (!body.error) return { kind: "sent" };
  const err = JSON.stringify(body.error.data?.err ?? null);
  if (/AlreadyProcessed/.test(err) || /already been processed/i.test(body.error.message)) return { kind: "sent" };
  if (body.error.code === -32002 || body.error.code === -32003) return { kind: "rejected", reason: `${body.error.message}${err !== "null" ? ` ${err}` : ""}` };
  return { kind: "unknown", reason: body.error.message };
}

async function statusOf(client: SolanaClient, hash: string): Promise<TransactionState | null> {
  const r = await client.call("getSignatureStatuses", () => client.rpc.getSignatureStatuses([hash as Signature], { searchTransactionHistory: true }).send());
  const s = r.value[0];
  if (!s) return null;
  if (s.err) return { state: "reverted", reason: JSON.stringify(s.err, (_k, v) => (typeof v === "bigint" ? Number(v) : v)) };
  if (s.confirmationStatus === "processed") return { state: "pending" };
  return { state: "succeeded" };
}

export async function waitForFinalSolana(client: SolanaClient, hash: string, timeoutMs: number, pollMs: number): Promise<TransactionState | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const s = await statusOf(client, hash);
      if (s && s.state !== "pending") return s;
    } catch {
      /* keep polling until the deadline */
    }
    if (Date.now() + pollMs > deadline) return null;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export async function lookupSolana(client: SolanaClient, record: { hash: string; raw: string }): Promise<TransactionState> {
  const s = await statusOf(client, record.hash);
  if (s) return s;
  let blockhash: string;
  try {
    const tx = getTransactionDecoder().decode(new Uint8Array(Buffer.from(record.raw, "base64")));
    blockhash = String((getCompiledTransactionMessageDecoder().decode(tx.messageBytes) as unknown as { lifetimeToken: string }).lifetimeToken);
  } catch {
    return { state: "not_found" };
  }
  const valid = await client.call("isBlockhashValid", () => client.rpc.isBlockhashValid(blockhash as Blockhash, { commitment: "confirmed" }).send());
  if (valid.value) return { state: "not_found" };
  // The blockhash expired: unless it landed just now, it never will.
  const again = await statusOf(client, record.hash);
  return again ?? { state: "dropped", reason: "its blockhash expired before it landed" };
}

/** SOL balance and SPL token accounts of an owner, for balances and the fee/rent checks. */
export async function lamportsOf(client: SolanaClient, address: string): Promise<bigint> {
  const r = await client.call("getBalance", () => client.rpc.getBalance(address as Address, { commitment: "confirmed" }).send());
  return BigInt(r.value);
}
