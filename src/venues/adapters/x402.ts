/**
 * x402 payments: v2 PaymentPayload {x402Version, resource, accepted, payload}, PaymentRequired
 * {x402Version, accepts: [...]}, a bare PaymentRequirements, a facilitator request {paymentPayload,
 * paymentRequirements}, and legacy v1 payloads. What is judged is what the signed authorization would
 * move (EIP-3009 value and to, or the SVM transaction's transfer); any disagreement with the terms it
 * claims to accept is a warning. Resource descriptions come from the payee and are untrusted.
 */
import type { Facts, TransferFact, VenueAdapter } from "../types";
import { fromBase, usdOf, wholeUnits } from "../lib/decimal";
import { networkToChain } from "../lib/chains";
import { facts, finish, fmt, fmtUsd } from "../lib/facts";
import { priceOf } from "../lib/prices";
import { decodeSolanaTx, looksLikeBase64Tx } from "../lib/solana";
import { resolveEvmToken } from "../lib/tokens-evm";
import { resolveMint } from "../lib/tokens-solana";
import { bigInt, clip, evmAddr, isRecord, num, str } from "../lib/util";
import { describeSolanaTx } from "./solana";

type Ctx = Record<string, unknown> | null | undefined;
type R = Record<string, unknown>;

const INJECTION = /\b(ignore|disregard|override|pre-?approved|approved by|without (running )?(policy|checks?|review)|must pay|should pay|system (note|prompt)|bypass)\b/i;

function reqAmount(r: R): bigint | null {
  return bigInt(r.amount ?? r.maxAmountRequired);
}

function isRequirements(r: unknown): r is R {
  return isRecord(r) && typeof r.scheme === "string" && typeof r.network === "string" && (r.amount !== undefined || r.maxAmountRequired !== undefined) && r.payTo !== undefined;
}

function tokenOf(asset: unknown, network: unknown, ctx: Ctx, w: string[]): { symbol: string; decimals: number | null; address: string | null } {
  const n = networkToChain(network);
  const a = str(asset);
  if (!a) {
    w.push("payment asset not given");
    return { symbol: "UNKNOWN", decimals: null, address: null };
  }
  if (n.kind === "solana") {
    const m = resolveMint(a, ctx);
    w.push(...m.warnings);
    return { symbol: m.symbol ?? a, decimals: m.decimals, address: a };
  }
  if (!/^0x[0-9a-fA-F]{40}$/.test(a)) {
    w.push(`payment asset ${a} is not a token address`);
    return { symbol: a.toUpperCase(), decimals: null, address: null };
  }
  const t = resolveEvmToken(a, n.chainId, ctx);
  w.push(...t.warnings);
  return { symbol: t.symbol ?? t.address, decimals: t.decimals, address: t.address };
}

const sameAddr = (a: unknown, b: unknown) => typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();

function resourceDetails(resource: unknown, w: string[]): R {
  const r = isRecord(resource) ? resource : typeof resource === "string" ? { url: resource } : {};
  const url = str(r.url);
  let host: string | null = null;
  try {
    host = url ? new URL(url).hostname.toLowerCase() : null;
  } catch {
    w.push(`resource url is not a valid URL: ${clip(url ?? "", 80)}`);
  }
  const description = str(r.description);
  if (description && INJECTION.test(description)) w.push(`resource description (written by the payee, untrusted) contains instruction-like text: ${JSON.stringify(clip(description, 120))}`);
  return { resourceUrl: url, resourceHost: host, resourceDescription: description ? clip(description, 300) : null, mimeType: str(r.mimeType) };
}

function describePayload(p: R, requirements: R | null, ctx: Ctx): Facts {
  const w: string[] = [];
  const accepted = isRecord(p.accepted) ? p.accepted : requirements;
  const version = num(p.x402Version);
  const network = accepted?.network ?? p.network;
  const chain = networkToChain(network);
  const tok = tokenOf(accepted?.asset, network, ctx, w);
  checkDomain(accepted, tok.symbol, w);
  const payload = isRecord(p.payload) ? p.payload : {};
  const auth = isRecord(payload.authorization) ? payload.authorization : null;
  const f = facts("x402", "payment", "paymentPayload", chain.chain);
  if (chain.chainId !== null) f.chainId = chain.chainId;
  const transfers: TransferFact[] = [];
  let value: bigint | null = null;
  let to: string | null = null;
  if (auth) {
    value = bigInt(auth.value);
    to = evmAddr(auth.to) ?? str(auth.to);
    const whole = value !== null && tok.decimals !== null ? wholeUnits(value, tok.decimals) : null;
    const usd = value !== null && tok.decimals !== null ? usdOf(fromBase(value, tok.decimals), priceOf(tok.symbol, ctx)) : null;
    transfers.push({ asset: tok.symbol, tokenAddress: tok.address, amount: whole, amountBase: value?.toString() ?? null, decimals: tok.decimals, usd, to, from: evmAddr(auth.from), kind: "eip3009.transferWithAuthorization" });
    const after = num(auth.validAfter);
    const before = num(auth.validBefore);
    f.details = { validAfter: after, validBefore: before, nonce: str(auth.nonce) };
    if (after !== null && before !== null && before - after > 86_400) w.push(`authorization stays valid for ${Math.round((before - after) / 3600)} hours`);
  } else if (looksLikeBase64Tx(payload.transaction)) {
    const tx = decodeSolanaTx(payload.transaction as string);
    if (tx) {
      const sf = describeSolanaTx(tx, ctx, "x402");
      transfers.push(...(sf.transfers ?? []));
      w.push(...(sf.warnings ?? []));
      const first = sf.transfers?.[0];
      value = first?.amountBase ? BigInt(first.amountBase) : null;
      to = first?.to ?? null;
    } else w.push("payment transaction could not be decoded");
  } else w.push("payment payload has no authorization or transaction: what it moves is unknown");
  if (accepted) {
    const want = reqAmount(accepted);
    if (value !== null && want !== null && value !== want) w.push(`x402 authorization value ${value} differs from accepted amount ${want}`);
    const payTo = str(accepted.payTo);
    // an SVM transfer goes to the payee's token account, which need not equal payTo
    if (auth && to && payTo && !sameAddr(to, payTo)) w.push(`x402 authorization pays ${to}, not the accepted payTo ${payTo}`);
  } else w.push("no accepted payment terms in the payload (x402 v1 or stripped): amount and payee cannot be cross-checked");
  if (requirements && isRecord(p.accepted)) {
    for (const k of ["network", "asset", "payTo", "scheme"]) {
      if (str(requirements[k]) && str(p.accepted[k]) && !sameAddr(requirements[k], p.accepted[k])) w.push(`accepted.${k} ${str(p.accepted[k])} differs from the requirements' ${str(requirements[k])}`);
    }
    const ra = reqAmount(requirements);
    const aa = reqAmount(p.accepted);
    if (ra !== null && aa !== null && ra !== aa) w.push(`accepted amount ${aa} differs from the required amount ${ra}`);
  }
  if (version !== null && version !== 2) w.push(`x402 version ${version} (this service speaks v2)`);
  const scheme = str(accepted?.scheme);
  if (scheme && scheme !== "exact") w.push(`payment scheme ${scheme}: the amount is an upper bound`);
  f.transfers = transfers;
  f.assets = [tok.symbol];
  f.recipients = to ? [to] : [];
  f.details = { ...(f.details ?? {}), ...resourceDetails(p.resource ?? accepted?.resource, w), network: str(network), scheme, payer: auth ? evmAddr(auth.from) : null, acceptedAmount: accepted ? reqAmount(accepted)?.toString() : null, acceptedPayTo: str(accepted?.payTo) };
  const t = transfers[0];
  f.summary = `x402 payment of ${fmt(t?.amount ?? null)} ${tok.symbol} (${fmtUsd(t?.usd)}) to ${to ?? "?"} on ${chain.chain ?? "?"} for ${(f.details.resourceUrl as string | null) ?? "an unnamed resource"}`;
  f.warnings = w;
  return finish(f);
}

/** The EIP-712 domain in `extra` names the token the signature is for; it should agree with `asset`. */
function checkDomain(terms: R | null, symbol: string, w: string[]): void {
  const name = terms && isRecord(terms.extra) ? str(terms.extra.name) : null;
  if (!name) return;
  const saysUsdc = /usd\s*coin|^usdc$/i.test(name);
  if (saysUsdc && symbol !== "USDC") w.push(`accepted.extra names "${clip(name, 40)}" but the asset is ${symbol}, not a known USDC contract on this network`);
}

function describeRequired(options: R[], resource: unknown, type: string, ctx: Ctx): Facts {
  const w: string[] = [];
  const transfers: TransferFact[] = options.slice(0, 20).map((o) => {
    const tok = tokenOf(o.asset, o.network, ctx, w);
    checkDomain(o, tok.symbol, w);
    const amt = reqAmount(o);
    const whole = amt !== null && tok.decimals !== null ? wholeUnits(amt, tok.decimals) : null;
    const usd = amt !== null && tok.decimals !== null ? usdOf(fromBase(amt, tok.decimals), priceOf(tok.symbol, ctx)) : null;
    return { asset: tok.symbol, tokenAddress: tok.address, amount: whole, amountBase: amt?.toString() ?? null, decimals: tok.decimals, usd, to: str(o.payTo), kind: `x402.${str(o.scheme) ?? "?"}` };
  });
  const chains = [...new Set(options.map((o) => networkToChain(o.network).chain))];
  const f = facts("x402", "payment", type, chains.length === 1 ? chains[0] : null);
  const first = networkToChain(options[0]?.network);
  if (chains.length === 1 && first.chainId !== null) f.chainId = first.chainId;
  if (options.length > 1) w.push(`${options.length} payment options offered; the payer picks one (notional is the largest)`);
  f.transfers = transfers;
  f.assets = transfers.map((t) => t.asset);
  const usds = transfers.map((t) => t.usd);
  f.notionalUsd = usds.length && usds.every((u) => u !== null) ? Math.max(...(usds as number[])) : null;
  f.details = { ...resourceDetails(resource ?? options[0]?.resource, w), options: options.slice(0, 20).map((o) => ({ scheme: str(o.scheme), network: str(o.network), amount: reqAmount(o)?.toString() ?? null, asset: str(o.asset), payTo: str(o.payTo) })) };
  f.summary = `x402 payment terms: ${transfers.map((t) => `${fmt(t.amount)} ${t.asset} to ${t.to}`).join(" or ")} for ${(f.details.resourceUrl as string | null) ?? "an unnamed resource"}`;
  f.warnings = w;
  return finish(f);
}

function describe(action: unknown, ctx?: Ctx): Facts | null {
  if (!isRecord(action)) return null;
  if (isRecord(action.paymentPayload)) return describePayload(action.paymentPayload, isRequirements(action.paymentRequirements) ? action.paymentRequirements : null, ctx);
  if (Array.isArray(action.accepts) && action.accepts.some(isRequirements)) return describeRequired(action.accepts.filter(isRequirements), action.resource, "paymentRequired", ctx);
  if ((action.x402Version !== undefined || isRecord(action.accepted)) && isRecord(action.payload)) return describePayload(action, null, ctx);
  if (isRequirements(action)) return describeRequired([action], action.resource, "paymentRequirements", ctx);
  return null;
}

export const x402: VenueAdapter = { id: "x402", aliases: ["x402v2", "http402", "x402payment", "402"], matches: (a) => describe(a, null) !== null, describe };
