/**
 * Decoding a base64 Solana transaction (legacy or v0) to its instructions with @solana/kit. The compiled
 * message is read directly instead of being decompiled: decompiling a v0 message fails when accounts come
 * from address lookup tables, while the static keys still name the programs and most accounts. Accounts
 * that live in a lookup table are reported as "lookup:<n>" rather than guessed.
 */
import { getBase64Encoder, getCompiledTransactionMessageDecoder, getTransactionDecoder } from "@solana/kit";
import { isRecord } from "./util";

export interface SolIx {
  programId: string;
  accounts: string[];
  data: Uint8Array;
}

export interface SolTx {
  version: string;
  feePayer: string | null;
  signers: string[];
  instructions: SolIx[];
  usesLookupTables: boolean;
  signatureCount: number;
}

const B64_RE = /^[A-Za-z0-9+/]+={0,2}$/;
const MAX_B64 = 16_000; // a transaction is at most 1232 bytes; leave room for future larger formats

export const looksLikeBase64Tx = (s: unknown): s is string => typeof s === "string" && s.length >= 100 && s.length <= MAX_B64 && s.length % 4 === 0 && B64_RE.test(s);

const B64 = getBase64Encoder();
const TX = getTransactionDecoder();
const MSG = getCompiledTransactionMessageDecoder();
// matches() and describe() decode the same string back to back; keep the last result
let last: { b64: string; tx: SolTx | null } | null = null;

export function decodeSolanaTx(b64: string): SolTx | null {
  if (!looksLikeBase64Tx(b64)) return null;
  if (last?.b64 === b64) return last.tx;
  const tx = decodeUncached(b64);
  last = { b64, tx };
  return tx;
}

function decodeUncached(b64: string): SolTx | null {
  try {
    const bytes = B64.encode(b64);
    const tx = TX.decode(bytes);
    const msg = MSG.decode(tx.messageBytes) as unknown as Record<string, unknown>;
    const keys = Array.isArray(msg.staticAccounts) ? (msg.staticAccounts as string[]).map(String) : [];
    const header = isRecord(msg.header) ? msg.header : {};
    const nSigners = typeof header.numSignerAccounts === "number" ? header.numSignerAccounts : 1;
    const lookups = Array.isArray(msg.addressTableLookups) ? msg.addressTableLookups.length : 0;
    const key = (i: unknown) => (typeof i === "number" ? (keys[i] ?? `lookup:${i - keys.length}`) : "?");
    const instructions: SolIx[] = [];
    const raw = Array.isArray(msg.instructions) ? msg.instructions : [];
    for (const ix of raw.slice(0, 64)) {
      if (!isRecord(ix)) continue;
      const accounts = Array.isArray(ix.accountIndices) ? ix.accountIndices.map(key) : [];
      const data = ix.data instanceof Uint8Array ? ix.data : new Uint8Array();
      instructions.push({ programId: key(ix.programAddressIndex), accounts, data });
    }
    // zero-filled or truncated input can decode structurally; a real transaction has a payer and instructions
    if (keys.length === 0 || instructions.length === 0) return null;
    return {
      version: String(msg.version ?? "legacy"),
      feePayer: keys[0] ?? null,
      signers: keys.slice(0, nSigners),
      instructions,
      usesLookupTables: lookups > 0,
      signatureCount: Object.keys(tx.signatures ?? {}).length,
    };
  } catch {
    return null;
  }
}

export function u64le(d: Uint8Array, off: number): bigint | null {
  if (d.length < off + 8) return null;
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(d[off + i]);
  return v;
}

export function u32le(d: Uint8Array, off: number): number | null {
  if (d.length < off + 4) return null;
  return (d[off] | (d[off + 1] << 8) | (d[off + 2] << 16)) + d[off + 3] * 2 ** 24;
}

export function u16le(d: Uint8Array, off: number): number | null {
  return d.length < off + 2 ? null : d[off] | (d[off + 1] << 8);
}
