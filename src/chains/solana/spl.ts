/**
 * SPL Token account layouts (Token and Token-2022 share the base layout; Token-2022 appends extensions).
 * Decoding is by owner program and size, so a random account is never mistaken for a token account.
 */
import { getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { isSome, type Address, type Option } from "@solana/kit";

export const TOKEN_PROGRAM = TOKEN_PROGRAM_ADDRESS as string;
export const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
export const ASSOCIATED_TOKEN_PROGRAM = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";
export const SYSTEM_PROGRAM = "11111111111111111111111111111111";
export const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";
export const MEMO_PROGRAM = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
export const ADDRESS_LOOKUP_TABLE_PROGRAM = "AddressLookupTab1e1111111111111111111111111";
export const TOKEN_ACCOUNT_SIZE = 165;
export const MINT_SIZE = 82;

export interface TokenAccountState {
  mint: string;
  owner: string;
  amount: bigint;
  delegate: string | null;
  delegatedAmount: bigint;
  /** 0 uninitialized, 1 initialized, 2 frozen. */
  state: number;
  isNative: bigint | null;
  closeAuthority: string | null;
}

export interface MintState {
  mintAuthority: string | null;
  supply: bigint;
  decimals: number;
  isInitialized: boolean;
  freezeAuthority: string | null;
}

const tokenDecoder = getTokenDecoder();
const mintDecoder = getMintDecoder();
const opt = <T>(o: Option<T>): T | null => (isSome(o) ? o.value : null);

export const isTokenProgram = (owner: string) => owner === TOKEN_PROGRAM || owner === TOKEN_2022_PROGRAM;

export function decodeTokenAccount(owner: string, data: Uint8Array): TokenAccountState | null {
  if (!isTokenProgram(owner) || data.length < TOKEN_ACCOUNT_SIZE) return null;
  // Token-2022 puts the account type at byte 165 (2 = Account); a 2022 mint with extensions is longer too.
  if (data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] !== 2) return null;
  const t = tokenDecoder.decode(data.subarray(0, TOKEN_ACCOUNT_SIZE));
  if ((t.state as number) === 0) return null;
  return {
    mint: t.mint,
    owner: t.owner,
    amount: t.amount,
    delegate: opt(t.delegate as Option<Address>),
    delegatedAmount: t.delegatedAmount,
    state: t.state as number,
    isNative: opt(t.isNative as Option<bigint>),
    closeAuthority: opt(t.closeAuthority as Option<Address>),
  };
}

export function decodeMintAccount(owner: string, data: Uint8Array): MintState | null {
  if (!isTokenProgram(owner) || data.length < MINT_SIZE) return null;
  if (data.length !== MINT_SIZE && !(owner === TOKEN_2022_PROGRAM && data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === 1)) return null;
  const m = mintDecoder.decode(data.subarray(0, MINT_SIZE));
  if (!m.isInitialized) return null;
  return {
    mintAuthority: opt(m.mintAuthority as Option<Address>),
    supply: m.supply,
    decimals: m.decimals,
    isInitialized: m.isInitialized,
    freezeAuthority: opt(m.freezeAuthority as Option<Address>),
  };
}

export interface LookupTableState {
  deactivationSlot: bigint;
  lastExtendedSlot: bigint;
  lastExtendedSlotStartIndex: number;
  authority: string | null;
  addresses: string[];
}

/** Address lookup table: a 56-byte header (type u32, deactivation u64, last extended u64, start u8, authority Option<Pubkey>, padding) then 32-byte keys. */
export function decodeLookupTable(owner: string, data: Uint8Array, toBase58: (b: Uint8Array) => string): LookupTableState | null {
  if (owner !== ADDRESS_LOOKUP_TABLE_PROGRAM || data.length < 56 || (data.length - 56) % 32 !== 0) return null;
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (v.getUint32(0, true) !== 1) return null;
  const addresses: string[] = [];
  for (let o = 56; o < data.length; o += 32) addresses.push(toBase58(data.subarray(o, o + 32)));
  return {
    deactivationSlot: v.getBigUint64(4, true),
    lastExtendedSlot: v.getBigUint64(12, true),
    lastExtendedSlotStartIndex: data[20]!,
    authority: data[21] === 1 ? toBase58(data.subarray(22, 54)) : null,
    addresses,
  };
}
