/**
 * Planning: proposal inputs into Solana payloads (./payload.ts).
 *
 * A caller's `solana_transaction` is decoded, never signed as sent: its instructions are rebuilt into a
 * message the service compiles itself. Refused (400, naming `input.transaction`): malformed base64, bytes
 * that are not a transaction, versions other than legacy and 0, a fee payer other than the wallet, any
 * other required signer (the service only ever adds the wallet's signature), a durable-nonce lifetime,
 * a blockhash this cluster does not know (a transaction built for another cluster), and lookup tables
 * that do not exist here. Lookup tables are resolved and pinned, not refused.
 */
import { getBase58Decoder, getCompiledTransactionMessageDecoder, getTransactionDecoder, decompileTransactionMessage, type Address, type Blockhash } from "@solana/kit";
import { isPlainDecimal, parseUnitsStrict } from "../../lib/money";
import { NATIVE, type PlannedTransaction, type RawChange } from "../types";
import type { AssetRegistry, WalletRef } from "../port";
import { solanaAddressCodec } from "./codec";
import { inputError } from "./errors";
import { requestHashOf, type PinnedLookup, type SolanaTransferPayload, type SolanaTxPayload } from "./payload";
import type { SolanaClient } from "./client";
import { decodeLookupTable, SYSTEM_PROGRAM } from "./spl";

const TX_FIELD = "input.transaction";
const b58 = getBase58Decoder();

export function buildTransferPlan(assets: AssetRegistry, wallet: WalletRef, t: { asset: string; amount: string; to: string }, fieldPrefix = "input.transfer"): PlannedTransaction<SolanaTransferPayload> {
  const resolved = assets.resolve(String(t.asset ?? ""));
  if (!resolved) throw inputError(`${fieldPrefix}.asset: unknown asset ${JSON.stringify(String(t.asset).slice(0, 60))} on Solana; use SOL, ${assets.tokens.map((x) => x.symbol).join(", ")} or a known mint`, `${fieldPrefix}.asset`);
  const to = solanaAddressCodec.parse(String(t.to ?? ""), `${fieldPrefix}.to`);
  const amountText = String(t.amount ?? "").trim();
  if (!isPlainDecimal(amountText)) throw inputError(`${fieldPrefix}.amount must be a plain decimal number of whole units (no sign, no exponent), e.g. "1.5"`, `${fieldPrefix}.amount`);
  const decimals = resolved.kind === "native" ? resolved.asset.decimals : resolved.token.decimals;
  const symbol = resolved.kind === "native" ? resolved.asset.symbol : resolved.token.symbol;
  let amount: bigint;
  try {
    amount = parseUnitsStrict(amountText, decimals);
  } catch {
    throw inputError(`${fieldPrefix}.amount has more than ${decimals} decimal places (${symbol} has ${decimals})`, `${fieldPrefix}.amount`);
  }
  if (amount <= 0n) throw inputError(`${fieldPrefix}.amount must be greater than zero`, `${fieldPrefix}.amount`);
  if (amount >= 2n ** 64n) throw inputError(`${fieldPrefix}.amount is too large`, `${fieldPrefix}.amount`);
  if (to === wallet.address) throw inputError(`${fieldPrefix}.to is the wallet itself`, `${fieldPrefix}.to`);
  const asset = resolved.kind === "native" ? NATIVE : resolved.token.address;
  const payload: SolanaTransferPayload = { v: 1, kind: "transfer", from: wallet.address, asset, decimals, amount: amount.toString(), to };
  const declared: RawChange[] = [{ direction: "out", assetType: asset === NATIVE ? "native" : "spl", changeType: "transfer", token: asset, rawAmount: amount, counterparty: to, unlimited: false }];
  return { kind: "transfer", payload, requestHash: requestHashOf(payload), summary: `transfer ${amountText} ${symbol} to ${solanaAddressCodec.display(to)}`, declared };
}

function decodeBase64Strict(s: string): Uint8Array {
  const t = s.trim();
  if (!t || t.length % 4 === 1 || !/^[A-Za-z0-9+/]+={0,2}$/.test(t)) throw inputError(`${TX_FIELD} is not valid base64`, TX_FIELD);
  return new Uint8Array(Buffer.from(t, "base64"));
}

interface CompiledLike {
  version: "legacy" | 0 | 1;
  header: { numSignerAccounts: number };
  staticAccounts: string[];
  lifetimeToken: string;
  instructions: { programAddressIndex: number; data?: Uint8Array }[];
  addressTableLookups?: { lookupTableAddress: string; writableIndexes: number[]; readonlyIndexes: number[] }[];
}

export async function planSolanaTransaction(client: SolanaClient, wallet: WalletRef, raw: unknown): Promise<PlannedTransaction<SolanaTxPayload>> {
  if (typeof raw !== "string") throw inputError(`${TX_FIELD} must be a base64 string`, TX_FIELD);
  if (raw.length > 16_384) throw inputError(`${TX_FIELD} is too long for a Solana transaction (1232 bytes at most)`, TX_FIELD);
  const bytes = decodeBase64Strict(raw);
  let compiled: CompiledLike;
  try {
    const tx = getTransactionDecoder().decode(bytes);
    compiled = getCompiledTransactionMessageDecoder().decode(tx.messageBytes) as unknown as CompiledLike;
  } catch {
    throw inputError(`${TX_FIELD} does not decode as a Solana transaction (base64 of a legacy or v0 wire transaction)`, TX_FIELD);
  }
  if (compiled.version !== "legacy" && compiled.version !== 0) throw inputError(`${TX_FIELD}: version ${String(compiled.version)} transactions are not supported (legacy or v0)`, TX_FIELD);
  const feePayer = compiled.staticAccounts[0];
  if (feePayer !== wallet.address) throw inputError(`${TX_FIELD}: the fee payer must be the wallet ${wallet.address}, not ${String(feePayer)}`, TX_FIELD);
  if (compiled.header.numSignerAccounts !== 1) {
    const others = compiled.staticAccounts.slice(1, compiled.header.numSignerAccounts);
    throw inputError(`${TX_FIELD} requires signatures from other accounts (${others.join(", ")}); the service signs only as the wallet`, TX_FIELD);
  }
  if (compiled.instructions.length === 0) throw inputError(`${TX_FIELD} has no instructions`, TX_FIELD);
  const first = compiled.instructions[0]!;
  if (compiled.staticAccounts[first.programAddressIndex] === SYSTEM_PROGRAM && first.data?.[0] === 4 && first.data[1] === 0) {
    throw inputError(`${TX_FIELD} uses a durable nonce; send a transaction with a recent blockhash (the service signs with a fresh one)`, TX_FIELD);
  }
  const known = await client.call("isBlockhashValid", () => client.rpc.isBlockhashValid(compiled.lifetimeToken as Blockhash, { commitment: "confirmed" }).send());
  if (!known.value) throw inputError(`${TX_FIELD}: its recent blockhash is not one of this cluster's (${client.caip2}): built for another cluster, or expired; rebuild it with a fresh blockhash from this cluster`, TX_FIELD);

  const lookups = compiled.addressTableLookups ?? [];
  const tables = await fetchLookupTables(client, lookups.map((l) => l.lookupTableAddress));
  const pinned: PinnedLookup[] = [];
  for (const l of lookups) {
    const addresses = tables[l.lookupTableAddress];
    if (!addresses) throw inputError(`${TX_FIELD}: address lookup table ${l.lookupTableAddress} does not exist on this cluster`, TX_FIELD);
    const entries = [...l.writableIndexes, ...l.readonlyIndexes].map((index) => {
      const address = addresses[index];
      if (!address) throw inputError(`${TX_FIELD}: lookup table ${l.lookupTableAddress} has no entry ${index}`, TX_FIELD);
      return { index, address };
    });
    pinned.push({ table: l.lookupTableAddress, entries });
  }
  let message;
  try {
    message = decompileTransactionMessage(compiled as never, { addressesByLookupTableAddress: tables as never });
  } catch (e) {
    throw inputError(`${TX_FIELD} could not be decoded: ${(e as Error).message}`, TX_FIELD);
  }
  const instructions = message.instructions.map((ix) => ({
    programAddress: String(ix.programAddress),
    accounts: (ix.accounts ?? []).map((a) => ({ address: String(a.address), role: a.role as number as 0 | 1 | 2 | 3 })),
    data: Buffer.from(ix.data ?? new Uint8Array()).toString("base64"),
  }));
  const payload: SolanaTxPayload = { v: 1, kind: "solana_transaction", from: wallet.address, version: compiled.version, instructions, lookups: pinned };
  const programs = [...new Set(instructions.map((i) => i.programAddress))];
  return {
    kind: "solana_transaction",
    payload,
    requestHash: requestHashOf(payload),
    summary: `solana transaction: ${instructions.length} instruction${instructions.length === 1 ? "" : "s"} (${programs.map((p) => solanaAddressCodec.display(p)).join(", ")})`,
    declared: [],
  };
}

/** Current address lists of the given lookup tables (missing or non-table accounts are absent). */
export async function fetchLookupTables(client: SolanaClient, addresses: string[]): Promise<Record<string, string[]>> {
  if (!addresses.length) return {};
  const res = await client.call("getMultipleAccounts", () => client.rpc.getMultipleAccounts(addresses as Address[], { encoding: "base64" }).send());
  const out: Record<string, string[]> = {};
  res.value.forEach((acct, i) => {
    if (!acct) return;
    const data = new Uint8Array(Buffer.from(acct.data[0], "base64"));
    const t = decodeLookupTable(acct.owner, data, (b) => b58.decode(b));
    if (t && t.deactivationSlot === 0xffffffffffffffffn) out[addresses[i]!] = t.addresses;
  });
  return out;
}
