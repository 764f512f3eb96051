/**
 * Accounts in the JSON-RPC shapes Agave answers with: `{data, executable, lamports, owner, rentEpoch, space}`,
 * `data` as `[b64, "base64"]`, a base58 string (the legacy default) or `jsonParsed` for SPL Token accounts,
 * mints and address lookup tables (kit's lookup-table fetch and web3.js's parsed token reads need these).
 */
import type { EncodedAccount } from "@solana/kit";
import { formatUnits } from "../../../lib/money";
import { decodeLookupTable, decodeMintAccount, decodeTokenAccount, TOKEN_2022_PROGRAM, type MintState } from "../spl";
import { base58FromBytes } from "./wire";

export const RENT_EPOCH_EXEMPT = 18446744073709551615n;

export type AccountEncoding = "base64" | "base58" | "jsonParsed" | "base64+zstd";

export function tokenAmountJson(amount: bigint, decimals: number) {
  const s = formatUnits(amount, decimals);
  return { amount: amount.toString(), decimals, uiAmount: Number(s), uiAmountString: s };
}

export function encodeAccount(a: EncodedAccount, encoding: AccountEncoding, mintOf: (mint: string) => MintState | null): Record<string, unknown> {
  const owner = String(a.programAddress);
  const base = { executable: a.executable, lamports: BigInt(a.lamports), owner, rentEpoch: RENT_EPOCH_EXEMPT, space: BigInt(a.data.length) };
  if (encoding === "base58") return { ...base, data: [base58FromBytes.decode(a.data), "base58"] };
  if (encoding === "jsonParsed") {
    const parsed = parseAccount(owner, a.data as Uint8Array, mintOf);
    if (parsed) return { ...base, data: parsed };
  }
  return { ...base, data: [Buffer.from(a.data).toString("base64"), "base64"] };
}

function parseAccount(owner: string, data: Uint8Array, mintOf: (mint: string) => MintState | null): Record<string, unknown> | null {
  const program = owner === TOKEN_2022_PROGRAM ? "spl-token-2022" : "spl-token";
  const token = decodeTokenAccount(owner, data);
  if (token) {
    const decimals = mintOf(token.mint)?.decimals ?? 0;
    const info: Record<string, unknown> = {
      isNative: token.isNative !== null,
      mint: token.mint,
      owner: token.owner,
      state: token.state === 2 ? "frozen" : "initialized",
      tokenAmount: tokenAmountJson(token.amount, decimals),
    };
    if (token.delegate) {
      info.delegate = token.delegate;
      info.delegatedAmount = tokenAmountJson(token.delegatedAmount, decimals);
    }
    if (token.closeAuthority) info.closeAuthority = token.closeAuthority;
    return { program, parsed: { type: "account", info }, space: BigInt(data.length) };
  }
  const mint = decodeMintAccount(owner, data);
  if (mint) {
    return {
      program,
      parsed: { type: "mint", info: { decimals: mint.decimals, freezeAuthority: mint.freezeAuthority, isInitialized: mint.isInitialized, mintAuthority: mint.mintAuthority, supply: mint.supply.toString() } },
      space: BigInt(data.length),
    };
  }
  const alt = decodeLookupTable(owner, data, (b) => base58FromBytes.decode(b));
  if (alt) {
    const info: Record<string, unknown> = {
      addresses: alt.addresses,
      deactivationSlot: alt.deactivationSlot.toString(),
      lastExtendedSlot: alt.lastExtendedSlot.toString(),
      lastExtendedSlotStartIndex: alt.lastExtendedSlotStartIndex,
    };
    if (alt.authority) info.authority = alt.authority;
    return { program: "address-lookup-table", parsed: { type: "lookupTable", info }, space: BigInt(data.length) };
  }
  return null;
}

/** JSON with bigints written as raw digits (u64 values such as rentEpoch exceed 2^53). */
export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `\u0000big:${v}` : v)).replace(/"\\u0000big:(-?\d+)"/g, "$1");
}
