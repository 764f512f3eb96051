/**
 * Protocol-neutral EVM calls: native value transfers, ERC-20 transfer/approve/transferFrom/increaseAllowance/
 * permit, Permit2 approve, WETH deposit/withdraw, ERC-721 setApprovalForAll and safeTransferFrom, and ERC-4626
 * deposit/mint/withdraw/redeem. Used by the `ethereum` adapter and, when a caller names a protocol, by that
 * protocol's adapter for the plain token steps around it (approve the router, wrap ETH, ...).
 */
import { parseAbi, type Hex } from "viem";
import type { ApprovalFact, TransferFact } from "../types";
import { evmAmount, nativeAmount, priced } from "./amounts";
import { facts, fmt, fmtUsd, type FactsInit } from "./facts";
import { addrArg, bigArg, isUnlimited, jsonSafe, safeDecode, type EvmTx } from "./evm";
import { ctxByAddress, resolveEvmToken, wrappedNative } from "./tokens-evm";
import { isRecord, num, str } from "./util";
import { wholeUnits } from "./decimal";

const ABI = parseAbi([
  "function transfer(address to, uint256 amount)",
  "function approve(address spender, uint256 amount)",
  "function transferFrom(address from, address to, uint256 amount)",
  "function increaseAllowance(address spender, uint256 addedValue)",
  "function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
  "function deposit()",
  "function withdraw(uint256 wad)",
  "function setApprovalForAll(address operator, bool approved)",
  "function safeTransferFrom(address from, address to, uint256 tokenId)",
  "function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)",
  "function deposit(uint256 assets, address receiver)",
  "function mint(uint256 shares, address receiver)",
  "function withdraw(uint256 assets, address receiver, address owner)",
  "function redeem(uint256 shares, address receiver, address owner)",
]);

export const PERMIT2 = "0x000000000022d473030f116ddee9f6b43ac78ba3";
const PERMIT2_ABI = parseAbi(["function approve(address token, address spender, uint160 amount, uint48 expiration)"]);

type Ctx = Record<string, unknown> | null | undefined;

export function approvalFact(token: string, spender: string, amount: bigint, tx: EvmTx, ctx: Ctx, warnings: string[], kind: ApprovalFact["kind"] = "erc20", bits = 256): ApprovalFact {
  const unlimited = isUnlimited(amount, bits);
  const t = resolveEvmToken(token, tx.chainId, ctx);
  warnings.push(...t.warnings);
  if (unlimited) warnings.push(`unlimited approval of ${t.symbol ?? token} to ${spender}`);
  const a = unlimited ? null : evmAmount(token, amount, tx.chainId, ctx, []);
  return {
    token: t.symbol ?? t.address,
    tokenAddress: t.address,
    spender,
    amount: a?.amount ?? null,
    amountBase: amount.toString(),
    unlimited,
    usd: a?.usd ?? null,
    kind,
  };
}

function vaultInfo(tx: EvmTx, ctx: Ctx): { asset: string | null; symbol: string | null; decimals: number | null; shareDecimals: number | null } {
  const c = isRecord(ctx) ? ctx : {};
  const v = ctxByAddress(c.vaults, tx.to) ?? ctxByAddress(c.tokens, tx.to);
  if (!isRecord(v)) return { asset: null, symbol: null, decimals: null, shareDecimals: null };
  const underlying = str(v.asset) ?? str(v.underlying);
  const u = underlying && /^0x[0-9a-fA-F]{40}$/.test(underlying) ? resolveEvmToken(underlying, tx.chainId, ctx) : null;
  const d = num(v.assetDecimals) ?? num(v.underlyingDecimals) ?? u?.decimals ?? null;
  return {
    asset: u?.address ?? null,
    symbol: u?.symbol ?? str(v.assetSymbol) ?? str(v.underlyingSymbol) ?? (underlying && !underlying.startsWith("0x") ? underlying.toUpperCase() : null),
    decimals: d,
    shareDecimals: num(v.decimals) ?? d,
  };
}

/** Facts for a protocol-neutral call, or null when the calldata is none of the standard functions. */
export function describeGeneric(tx: EvmTx, ctx: Ctx, venue: string): FactsInit | null {
  const w: string[] = [];
  if (tx.data === "0x") {
    const a = nativeAmount(tx.value, tx.chainId, ctx, w);
    const f = facts(venue, "transfer", "nativeTransfer", tx.chain);
    f.transfers = [{ ...a, to: tx.to, from: tx.from, kind: "native" }];
    f.assets = [a.asset];
    f.summary = `Send ${fmt(a.amount)} ${a.asset} (${fmtUsd(a.usd)}) to ${tx.to}`;
    if (tx.value === 0n) w.push("native transfer of zero value");
    return withMeta(f, tx, w);
  }
  if (tx.to === PERMIT2 && tx.selector === "0x87517c45") {
    const d = safeDecode(PERMIT2_ABI, tx.data);
    if (!d) return null;
    const [token, spender, amount, expiration] = d.args;
    const f = facts(venue, "permission", "permit2.approve", tx.chain);
    f.approvals = [approvalFact(addrArg(token), addrArg(spender), bigArg(amount) ?? 0n, tx, ctx, w, "permit2", 160)];
    f.assets = [f.approvals[0].token];
    f.details = { expiration: jsonSafe(expiration) };
    f.summary = `Permit2 allowance: ${f.approvals[0].unlimited ? "unlimited" : fmt(f.approvals[0].amount)} ${f.approvals[0].token} to ${addrArg(spender)}`;
    return withMeta(f, tx, w);
  }
  const d = safeDecode(ABI, tx.data);
  if (!d) return null;
  const args = d.args;
  const token = tx.to;
  switch (d.functionName) {
    case "transfer":
    case "transferFrom": {
      const [a0, a1, a2] = args;
      const from = d.functionName === "transferFrom" ? addrArg(a0) : tx.from;
      const to = addrArg(d.functionName === "transferFrom" ? a1 : a0);
      const amt = bigArg(d.functionName === "transferFrom" ? a2 : a1);
      const a = evmAmount(token, amt, tx.chainId, ctx, w);
      const f = facts(venue, "transfer", d.functionName, tx.chain);
      const t: TransferFact = { ...a, to, from, kind: `erc20.${d.functionName}` };
      f.transfers = [t];
      f.assets = [a.asset];
      f.summary = `Transfer ${fmt(a.amount ?? `${a.amountBase} base units`)} ${a.asset} (${fmtUsd(a.usd)}) to ${to}${d.functionName === "transferFrom" ? ` from ${from}` : ""}`;
      return withMeta(f, tx, w);
    }
    case "approve":
    case "increaseAllowance":
    case "permit": {
      const spender = addrArg(d.functionName === "permit" ? args[1] : args[0]);
      const amount = bigArg(d.functionName === "permit" ? args[2] : args[1]) ?? 0n;
      const f = facts(venue, "permission", d.functionName, tx.chain);
      const ap = approvalFact(token, spender, amount, tx, ctx, w, d.functionName === "permit" ? "permit" : "erc20");
      f.approvals = [ap];
      f.assets = [ap.token];
      f.summary = `${amount === 0n ? "Revoke" : "Approve"} ${ap.unlimited ? "UNLIMITED" : fmt(ap.amount ?? `${ap.amountBase} base units`)} ${ap.token} for spender ${spender}`;
      return withMeta(f, tx, w);
    }
    case "setApprovalForAll": {
      const [operator, approved] = args;
      const f = facts(venue, "permission", "setApprovalForAll", tx.chain);
      f.approvals = [{ token: tx.to, tokenAddress: tx.to, spender: addrArg(operator), amount: approved ? null : "0", amountBase: null, unlimited: approved === true, usd: null, kind: "setApprovalForAll" }];
      f.assets = [tx.to];
      if (approved === true) w.push(`setApprovalForAll gives ${addrArg(operator)} control of every token in collection ${tx.to}`);
      f.summary = `${approved ? "Approve" : "Revoke"} operator ${addrArg(operator)} for ALL tokens of collection ${tx.to}`;
      return withMeta(f, tx, w);
    }
    case "safeTransferFrom": {
      const [from, to, tokenId] = args;
      const f = facts(venue, "transfer", "safeTransferFrom", tx.chain);
      f.transfers = [{ asset: `${tx.to}#${jsonSafe(tokenId)}`, tokenAddress: tx.to, amount: "1", amountBase: "1", decimals: 0, usd: null, to: addrArg(to), from: addrArg(from), kind: "erc721.safeTransferFrom" }];
      f.assets = [tx.to];
      f.summary = `Transfer NFT ${tx.to} #${jsonSafe(tokenId)} to ${addrArg(to)}`;
      return withMeta(f, tx, w);
    }
    case "deposit":
    case "withdraw":
      if (args.length <= 1) return wrapping(d.functionName, bigArg(args[0]), tx, ctx, venue, w);
      return erc4626(d.functionName, args, tx, ctx, venue, w);
    case "mint":
    case "redeem":
      return erc4626(d.functionName, args, tx, ctx, venue, w);
  }
  return null;
}

function wrapping(fn: "deposit" | "withdraw", wad: bigint | null, tx: EvmTx, ctx: Ctx, venue: string, w: string[]): FactsInit | null {
  const known = wrappedNative(tx.chainId, tx.to);
  const t = resolveEvmToken(tx.to, tx.chainId, ctx);
  const wrapped = t.symbol ?? "WETH";
  if (!known && t.symbol !== "WETH") {
    if (fn === "withdraw") return null;
    w.push(`deposit() with value to ${tx.to}, which is not a known wrapped-native token`);
  }
  const amount = fn === "deposit" ? tx.value : (wad ?? 0n);
  const native = nativeAmount(amount, tx.chainId, ctx, w);
  const wrap = priced(wrapped, amount, 18, ctx, [], tx.to);
  const f = facts(venue, "swap", fn, tx.chain);
  // wrapping pays the sender itself: no third party receives anything, so no recipient is listed
  f.swap = fn === "deposit" ? { sell: native, buy: { ...wrap, minAmount: wrap.amount }, slippageBps: 0, recipient: null } : { sell: wrap, buy: { ...native, minAmount: native.amount }, slippageBps: 0, recipient: null };
  f.details = { recipient: "sender" };
  f.assets = [native.asset, wrapped];
  f.summary = fn === "deposit" ? `Wrap ${fmt(native.amount)} ${native.asset} into ${wrapped} (${fmtUsd(native.usd)})` : `Unwrap ${fmt(wrap.amount)} ${wrapped} into ${native.asset} (${fmtUsd(wrap.usd)})`;
  return withMeta(f, tx, w);
}

function erc4626(fn: string, args: readonly unknown[], tx: EvmTx, ctx: Ctx, venue: string, w: string[]): FactsInit {
  const v = vaultInfo(tx, ctx);
  const amount = bigArg(args[0]);
  const receiver = addrArg(args[1]);
  const owner = args.length > 2 ? addrArg(args[2]) : null;
  const inAssets = fn === "deposit" || fn === "withdraw";
  const decimals = inAssets ? v.decimals : v.shareDecimals;
  const asset = inAssets ? (v.symbol ?? v.asset ?? `underlying of ${tx.to}`) : `shares of ${tx.to}`;
  if (decimals === null) w.push(`unknown decimals for vault ${tx.to} (add context.vaults[address] = {asset, decimals})`);
  const a = priced(asset, amount, decimals, ctx, w, inAssets ? v.asset : tx.to);
  const f = facts(venue, "vault", fn, tx.chain);
  const entering = fn === "deposit" || fn === "mint";
  f.transfers = [{ ...a, to: entering ? tx.to : receiver, from: entering ? tx.from : tx.to, kind: `erc4626.${fn}`, intoProtocol: entering }];
  f.recipients = [receiver];
  f.assets = [asset];
  f.details = { vault: tx.to, receiver, owner, underlying: v.asset };
  if (!entering && owner && tx.from && owner !== tx.from) w.push(`vault ${fn} of shares owned by ${owner}, not the sender`);
  f.summary = `${entering ? "Deposit into" : "Withdraw from"} ERC-4626 vault ${tx.to}: ${fn} ${fmt(a.amount ?? `${a.amountBase} base units`)} ${asset}${entering ? `, shares to ${receiver}` : ` to ${receiver}`}`;
  return withMeta(f, tx, w);
}

/** Chain, sender and raw call data every EVM fact carries. */
export function withMeta(f: FactsInit, tx: EvmTx, w: string[]): FactsInit {
  f.chainId = tx.chainId;
  f.chain = tx.chain;
  if (tx.chainId === null) w.push("no chainId in the transaction: chain unknown");
  f.details = { to: tx.to, from: tx.from, value: tx.value.toString(), selector: tx.selector, ...(f.details ?? {}) };
  f.warnings = [...(f.warnings ?? []), ...w];
  return f;
}

/** A contract call none of the adapters understands: still a fact (chain, target, value), family unknown. */
export function describeUnknownCall(tx: EvmTx, ctx: Ctx, venue: string): FactsInit {
  const w: string[] = [`unrecognised calldata (selector ${tx.selector ?? "none"}) to ${tx.to}`];
  const f = facts(venue, "unknown", tx.selector ? `call:${tx.selector}` : "call", tx.chain);
  if (tx.value > 0n) {
    const a = nativeAmount(tx.value, tx.chainId, ctx, w);
    f.transfers = [{ ...a, to: tx.to, from: tx.from, kind: "native" }];
    f.assets = [a.asset];
  }
  f.recipients = [tx.to];
  f.summary = `Call ${tx.selector ?? "(no selector)"} on ${tx.to}${tx.value > 0n ? ` sending ${wholeUnits(tx.value, 18)} native` : ""}`;
  return withMeta(f, tx, w);
}

export type { Hex };
