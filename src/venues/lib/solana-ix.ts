/**
 * Instruction decoders for the programs payment and trading agents use on Solana: System transfers, SPL
 * Token (transfer, transferChecked, approve, setAuthority, closeAccount, burn), ComputeBudget, Memo, the
 * Associated Token program, Jupiter v6 routes and the native Stake program (solana-stake.ts). Memo text is untrusted: it is kept as data and flagged.
 */
import { createHash } from "node:crypto";
import { identifySystemInstruction, getTransferSolInstructionDataDecoder, SystemInstruction } from "@solana-program/system";
import { getTransferCheckedInstructionDataDecoder, identifyTokenInstruction, TokenInstruction } from "@solana-program/token";
import type { AmountFact } from "../types";
import { fromBase, usdOf, wholeUnits } from "./decimal";
import { facts, fmt, fmtUsd, type FactsInit } from "./facts";
import { priceOf } from "./prices";
import type { SolIx } from "./solana";
import { u16le, u32le, u64le } from "./solana";
import { STAKE_PROGRAM, stakeIx } from "./solana-stake";
import { ownerOfAssociated, walletsInContext } from "./solana-ata";
import { resolveMint, tokenAccountOwner } from "./tokens-solana";
import { clip } from "./util";

type Ctx = Record<string, unknown> | null | undefined;

export const PROGRAMS = {
  system: "11111111111111111111111111111111",
  token: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
  token2022: "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
  computeBudget: "ComputeBudget111111111111111111111111111111",
  memo: "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
  memoV1: "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo",
  ata: "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
  jupiter: "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4",
  stake: STAKE_PROGRAM,
};

export interface IxScan {
  parts: FactsInit[];
  memos: string[];
  computeUnitLimit: number | null;
  microLamportsPerCu: bigint | null;
  ataCreates: { owner: string; mint: string }[];
  unknownPrograms: string[];
  warnings: string[];
}

function amount(asset: string, base: bigint | null, decimals: number | null, ctx: Ctx, mint: string | null): AmountFact {
  const whole = base !== null && decimals !== null ? wholeUnits(base, decimals) : null;
  const usd = base !== null && decimals !== null ? usdOf(fromBase(base, decimals), priceOf(asset, ctx)) : null;
  return { asset, tokenAddress: mint, amount: whole, amountBase: base?.toString() ?? null, decimals, usd };
}

/**
 * The wallet behind a destination token account: from the context's address book, else the wallet (named in the
 * context, or whose account this transaction creates) whose associated account for this mint it provably is.
 */
function recipient(ta: string, ctx: Ctx, w: string[], derive?: { mint: string | null; program: string; created: string[] }): { to: string; tokenAccount: string; label: string | null } {
  const o = tokenAccountOwner(ta, ctx);
  if (o.owner) return { to: o.owner, tokenAccount: ta, label: o.label };
  const owner = derive?.mint ? ownerOfAssociated(ta, derive.mint, derive.program, [...derive.created, ...walletsInContext(ctx)]) : null;
  if (owner) return { to: owner, tokenAccount: ta, label: null };
  w.push(`recipient ${ta} is an SPL token account whose owner is not known from context`);
  return { to: ta, tokenAccount: ta, label: null };
}

function systemIx(ix: SolIx, ctx: Ctx, w: string[]): FactsInit | null {
  let kind: SystemInstruction;
  try {
    kind = identifySystemInstruction(ix.data);
  } catch {
    return null;
  }
  if (kind === SystemInstruction.TransferSol || kind === SystemInstruction.TransferSolWithSeed) {
    const lamports = kind === SystemInstruction.TransferSol ? getTransferSolInstructionDataDecoder().decode(ix.data).amount : u64le(ix.data, 4);
    const [from, to] = kind === SystemInstruction.TransferSol ? [ix.accounts[0], ix.accounts[1]] : [ix.accounts[0], ix.accounts[2]];
    const a = amount("SOL", lamports, 9, ctx, null);
    if (a.usd === null) w.push("no context price for SOL: USD value unknown");
    const f = facts("solana", "transfer", "transferSol", "solana");
    f.transfers = [{ ...a, to: to ?? null, from: from ?? null, kind: "system.transfer" }];
    f.assets = ["SOL"];
    f.summary = `Send ${fmt(a.amount)} SOL (${fmtUsd(a.usd)}) to ${to}`;
    return f;
  }
  if (kind === SystemInstruction.CreateAccount) {
    const f = facts("solana", "unknown", "createAccount", "solana");
    f.summary = `Create account ${ix.accounts[1]} funded with ${wholeUnits(u64le(ix.data, 4) ?? 0n, 9)} SOL`;
    f.notionalUsd = null;
    return f;
  }
  const f = facts("solana", kind === SystemInstruction.AuthorizeNonceAccount || kind === SystemInstruction.Assign ? "permission" : "unknown", `system.${SystemInstruction[kind]}`, "solana");
  f.summary = `System program ${SystemInstruction[kind]}`;
  return f;
}

function tokenIx(ix: SolIx, ctx: Ctx, w: string[], created: string[] = []): FactsInit | null {
  let kind: TokenInstruction;
  try {
    kind = identifyTokenInstruction(ix.data);
  } catch {
    return null;
  }
  const acc = ix.accounts;
  const name = TokenInstruction[kind] ?? String(kind);
  const type = name.charAt(0).toLowerCase() + name.slice(1);
  if (kind === TokenInstruction.TransferChecked || kind === TokenInstruction.Transfer) {
    const checked = kind === TokenInstruction.TransferChecked;
    const data = checked ? getTransferCheckedInstructionDataDecoder().decode(ix.data) : { amount: u64le(ix.data, 1), decimals: null };
    const [source, mintAcc, dest, authority] = checked ? [acc[0], acc[1], acc[2], acc[3]] : [acc[0], null, acc[1], acc[2]];
    const mint = mintAcc ?? tokenAccountOwner(source ?? "", ctx).mint;
    const info = mint ? resolveMint(mint, ctx, checked ? data.decimals : null) : { symbol: null, decimals: null, warnings: ["SPL transfer without a mint (use transferChecked, or give context.token_accounts)"] };
    w.push(...info.warnings);
    const asset = info.symbol ?? mint ?? "UNKNOWN_SPL";
    const a = amount(asset, data.amount, info.decimals, ctx, mint);
    if (a.amount !== null && a.usd === null) w.push(`no context price for ${asset}: USD value unknown`);
    const r = recipient(dest ?? "?", ctx, w, { mint, program: ix.programId, created });
    const f = facts("solana", "transfer", type, "solana");
    f.transfers = [{ ...a, to: r.to, from: authority ?? null, kind: `spl.${type}` }];
    f.assets = [asset];
    f.details = { sourceTokenAccount: source, destinationTokenAccount: r.tokenAccount, recipientLabel: r.label };
    f.summary = `Transfer ${fmt(a.amount ?? `${a.amountBase} base units`)} ${asset} (${fmtUsd(a.usd)}) to ${r.to}${r.to !== r.tokenAccount ? ` (token account ${r.tokenAccount})` : ""}`;
    return f;
  }
  if (kind === TokenInstruction.Approve || kind === TokenInstruction.ApproveChecked) {
    const checked = kind === TokenInstruction.ApproveChecked;
    const amt = u64le(ix.data, 1);
    const mint = checked ? acc[1] : null;
    const delegate = checked ? acc[2] : acc[1];
    const info = mint ? resolveMint(mint, ctx, ix.data[9] ?? null) : { symbol: null, decimals: null, warnings: [] };
    const unlimited = amt === 2n ** 64n - 1n;
    const f = facts("solana", "permission", type, "solana");
    f.approvals = [{ token: info.symbol ?? mint ?? `token account ${acc[0]}`, tokenAddress: mint, spender: delegate ?? "?", amount: unlimited || amt === null || info.decimals === null ? null : wholeUnits(amt, info.decimals), amountBase: amt?.toString() ?? null, unlimited, usd: null, kind: "erc20" }];
    if (unlimited) w.push(`unlimited SPL delegate approval to ${delegate}`);
    f.summary = `Approve delegate ${delegate} over token account ${acc[0]}${unlimited ? " (unlimited)" : ""}`;
    return f;
  }
  if (kind === TokenInstruction.SetAuthority) {
    const f = facts("solana", "permission", type, "solana");
    const hasNew = ix.data[2] === 1 && ix.data.length >= 35;
    f.summary = `Change authority of ${acc[0]}${hasNew ? "" : " (to none)"}`;
    w.push(`setAuthority changes who controls ${acc[0]}`);
    return f;
  }
  if (kind === TokenInstruction.CloseAccount) {
    const f = facts("solana", "transfer", type, "solana");
    f.transfers = [{ asset: "SOL", amount: null, usd: null, to: acc[1] ?? null, from: acc[0] ?? null, kind: "spl.closeAccount" }];
    f.summary = `Close token account ${acc[0]}, rent to ${acc[1]}`;
    f.notionalUsd = 0;
    return f;
  }
  const f = facts("solana", kind === TokenInstruction.Burn || kind === TokenInstruction.BurnChecked ? "transfer" : "unknown", type, "solana");
  f.summary = `SPL Token ${name}`;
  return f;
}

const disc = (name: string) => createHash("sha256").update(`global:${name}`).digest().subarray(0, 8).toString("hex");
const JUP: Record<string, { name: string; exactOut: boolean; srcMint: number | null; dstMint: number }> = {
  [disc("route")]: { name: "route", exactOut: false, srcMint: null, dstMint: 5 },
  [disc("shared_accounts_route")]: { name: "sharedAccountsRoute", exactOut: false, srcMint: 7, dstMint: 8 },
  [disc("exact_out_route")]: { name: "exactOutRoute", exactOut: true, srcMint: 5, dstMint: 6 },
  [disc("shared_accounts_exact_out_route")]: { name: "sharedAccountsExactOutRoute", exactOut: true, srcMint: 7, dstMint: 8 },
};

function jupiterIx(ix: SolIx, ctx: Ctx, w: string[]): FactsInit {
  const d = Buffer.from(ix.data.subarray(0, 8)).toString("hex");
  const spec = JUP[d];
  const f = facts("jupiter", "swap", spec?.name ?? "jupiterInstruction", "solana");
  if (!spec || ix.data.length < 27) {
    w.push("Jupiter instruction not decoded: amounts unknown");
    f.summary = "Jupiter swap (instruction not decoded)";
    f.notionalUsd = null;
    return f;
  }
  // the fixed-size arguments end the instruction: amount u64, quoted u64, slippage_bps u16, platform_fee_bps u8
  const end = ix.data.length;
  const a1 = u64le(ix.data, end - 19);
  const a2 = u64le(ix.data, end - 11);
  const slippage = u16le(ix.data, end - 3);
  const src = spec.srcMint === null ? null : (ix.accounts[spec.srcMint] ?? null);
  const dst = ix.accounts[spec.dstMint] ?? null;
  const si = src && !src.startsWith("lookup:") ? resolveMint(src, ctx) : null;
  const di = dst && !dst.startsWith("lookup:") ? resolveMint(dst, ctx) : null;
  if (!si) w.push("input mint not visible in this instruction (or in a lookup table)");
  if (!di) w.push("output mint is in an address lookup table: not visible offline");
  const sellAsset = si?.symbol ?? src ?? "UNKNOWN";
  const buyAsset = di?.symbol ?? dst ?? "UNKNOWN";
  const [inBase, outBase] = spec.exactOut ? [a2, a1] : [a1, a2];
  const sell = amount(sellAsset, inBase, si?.decimals ?? null, ctx, src);
  const buy = amount(buyAsset, outBase, di?.decimals ?? null, ctx, dst);
  const minOut = !spec.exactOut && outBase !== null && slippage !== null && di?.decimals != null ? wholeUnits((outBase * BigInt(10_000 - Math.min(slippage, 10_000))) / 10_000n, di.decimals) : buy.amount;
  f.swap = { sell, buy: { ...buy, minAmount: minOut }, slippageBps: slippage, recipient: null, route: "jupiter v6" };
  f.assets = [sellAsset, buyAsset];
  f.notionalUsd = sell.usd ?? buy.usd ?? null;
  f.summary = `Jupiter ${spec.name}: ${fmt(sell.amount)} ${sellAsset} for ~${fmt(buy.amount)} ${buyAsset} (min ${fmt(minOut)}), slippage ${slippage} bps`;
  return f;
}

export function scanInstructions(ixs: SolIx[], ctx: Ctx): IxScan {
  const s: IxScan = { parts: [], memos: [], computeUnitLimit: null, microLamportsPerCu: null, ataCreates: [], unknownPrograms: [], warnings: [] };
  for (const ix of ixs) {
    const p = ix.programId;
    if (p === PROGRAMS.computeBudget) {
      if (ix.data[0] === 2) s.computeUnitLimit = u32le(ix.data, 1);
      if (ix.data[0] === 3) s.microLamportsPerCu = u64le(ix.data, 1);
    } else if (p === PROGRAMS.memo || p === PROGRAMS.memoV1) {
      s.memos.push(clip(new TextDecoder("utf-8", { fatal: false }).decode(ix.data), 500));
    } else if (p === PROGRAMS.ata) {
      s.ataCreates.push({ owner: ix.accounts[2] ?? "?", mint: ix.accounts[3] ?? "?" });
    } else if (p === PROGRAMS.system) {
      const f = systemIx(ix, ctx, s.warnings);
      if (f) s.parts.push(f);
    } else if (p === PROGRAMS.token || p === PROGRAMS.token2022) {
      const f = tokenIx(ix, ctx, s.warnings, s.ataCreates.map((a) => a.owner));
      if (f) s.parts.push(f);
    } else if (p === PROGRAMS.jupiter) {
      s.parts.push(jupiterIx(ix, ctx, s.warnings));
    } else if (p === PROGRAMS.stake) {
      s.parts.push(stakeIx(ix, ctx, s.warnings));
    } else {
      s.unknownPrograms.push(p);
    }
  }
  return s;
}
