/**
 * Well-known Solana mints, plus mint info and token-account owners from context. wSOL is reported as SOL:
 * swaps wrap and unwrap it transparently and its value is SOL at par, so owners' rules about "SOL" apply.
 */
import { canonSymbol } from "./prices";
import { isRecord, num, own, str } from "./util";

const MINTS: Record<string, [string, number]> = {
  EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v: ["USDC", 6],
  Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB: ["USDT", 6],
  So11111111111111111111111111111111111111112: ["SOL", 9],
  JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN: ["JUP", 6],
  DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263: ["BONK", 5],
  J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn: ["JITOSOL", 9],
  mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So: ["MSOL", 9],
  "2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo": ["PYUSD", 6],
  EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm: ["WIF", 6],
  "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU": ["USDC", 6], // devnet USDC
};

export const WSOL_MINT = "So11111111111111111111111111111111111111112";

export interface MintInfo {
  symbol: string | null;
  decimals: number | null;
  warnings: string[];
}

function ctxMint(mint: string, ctx: unknown): { symbol: string | null; decimals: number | null } | null {
  if (!isRecord(ctx)) return null;
  for (const table of ["mints", "tokens"]) {
    const e = own(ctx[table], mint);
    if (isRecord(e)) {
      const d = num(e.decimals);
      return { symbol: str(e.symbol), decimals: d !== null && Number.isInteger(d) && d >= 0 && d <= 18 ? d : null };
    }
    if (typeof e === "string") return { symbol: e, decimals: null };
  }
  const d = num(own(ctx.decimals, mint));
  return d !== null ? { symbol: null, decimals: d } : null;
}

export function resolveMint(mint: string, ctx: unknown, decimalsFromIx: number | null = null): MintInfo {
  const warnings: string[] = [];
  const reg = Object.prototype.hasOwnProperty.call(MINTS, mint) ? MINTS[mint] : null;
  const c = ctxMint(mint, ctx);
  if (reg) {
    if (c?.decimals !== null && c?.decimals !== undefined && c.decimals !== reg[1]) warnings.push(`context gives ${c.decimals} decimals for ${reg[0]} mint ${mint}; the mint has ${reg[1]}`);
    if (decimalsFromIx !== null && decimalsFromIx !== reg[1]) warnings.push(`instruction says ${decimalsFromIx} decimals for ${reg[0]}, which has ${reg[1]} (the transfer would fail)`);
    return { symbol: reg[0], decimals: reg[1], warnings };
  }
  const decimals = decimalsFromIx ?? c?.decimals ?? null;
  if (decimals === null) warnings.push(`unknown decimals for mint ${mint}`);
  if (!c?.symbol) warnings.push(`unknown token mint ${mint}`);
  return { symbol: c?.symbol ? canonSymbol(c.symbol) : null, decimals, warnings };
}

const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/**
 * Owner wallet of an SPL token account, from context: {token_accounts: {ta: owner | {owner, mint}}} or an
 * address book whose entries list the account ({address_book: {owner: {usdc_token_account: ta}}}). Any other
 * table keyed by wallet addresses whose entries list token accounts ({vendors | counterparties | grantees:
 * {owner: {label, usdc_token_account: ta}}}) says the same thing in the owner's own words.
 */
export function tokenAccountOwner(ta: string, ctx: unknown): { owner: string | null; mint: string | null; label: string | null } {
  if (!isRecord(ctx)) return { owner: null, mint: null, label: null };
  for (const t of ["token_accounts", "tokenAccounts"]) {
    const e = own(ctx[t], ta);
    if (typeof e === "string") return { owner: e, mint: null, label: null };
    if (isRecord(e)) return { owner: str(e.owner), mint: str(e.mint), label: str(e.label) };
  }
  for (const t of ["address_book", "addressBook", "contacts", "recipients", "wallets"]) {
    const book = ctx[t];
    if (!isRecord(book)) continue;
    for (const owner of Object.keys(book).slice(0, 500)) {
      const e = book[owner];
      if (!isRecord(e)) continue;
      for (const v of Object.values(e)) if (v === ta) return { owner, mint: null, label: str(e.label) ?? str(e.name) };
    }
  }
  for (const t of Object.keys(ctx).slice(0, 50)) {
    const table = ctx[t];
    if (!isRecord(table)) continue;
    for (const owner of Object.keys(table).slice(0, 500)) {
      const e = table[owner];
      if (!BASE58_KEY.test(owner) || owner === ta || !isRecord(e)) continue;
      for (const v of Object.values(e)) if (v === ta) return { owner, mint: null, label: str(e.label) ?? str(e.name) };
    }
  }
  return { owner: null, mint: null, label: null };
}
