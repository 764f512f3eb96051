/**
 * Wallet limits (SPEC 2.5): the owner's hard rules, checked by this service against the simulated
 * effects before the judge runs (proposals/limits-check.ts). Pure: parsing, bounds, enforcement table,
 * and the "what did this update loosen" diff.
 *
 * Bounds (docs/wallets.md): `maxPerTxUsd` and `dailyCapUsd` are finite numbers from 0.01 to
 * 1,000,000,000 USD with at most two decimals; each allowlist holds 1 to 100 entries.
 */
import { z } from "zod";
import { ChainInputError, type AddressCodec, type AssetRegistry } from "../chains/port";
import { addressProblem, looksLikeAddress } from "../chains/codecs";

export const LIMIT_USD_MIN = 0.01;
export const LIMIT_USD_MAX = 1_000_000_000;
export const ALLOWLIST_MAX = 100;

const usd = z
  .number({ error: "must be a number (USD)" })
  .refine(Number.isFinite, "must be a finite number")
  .refine((n) => n >= LIMIT_USD_MIN && n <= LIMIT_USD_MAX, `must be between ${LIMIT_USD_MIN} and ${LIMIT_USD_MAX} USD`)
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, "must have at most two decimal places (cents)");
const entry = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .superRefine((s, ctx) => {
    const p = looksLikeAddress(s) ? addressProblem(s) : null;
    if (p) ctx.addIssue({ code: "custom", message: p });
  });
const list = z.array(entry).min(1, "must not be empty (omit it for no allowlist)").max(ALLOWLIST_MAX, `at most ${ALLOWLIST_MAX} entries`);

/** Limits as sent at creation. */
export const LimitsInput = z
  .object({
    maxPerTxUsd: usd.optional(),
    dailyCapUsd: usd.optional(),
    tokenAllowlist: list.optional(),
    recipientAllowlist: list.optional(),
  })
  .strict();
export type LimitsInput = z.infer<typeof LimitsInput>;

/** Limits in an update: merged into the current ones; `null` removes a limit. */
export const LimitsPatch = z
  .object({
    maxPerTxUsd: usd.nullable().optional(),
    dailyCapUsd: usd.nullable().optional(),
    tokenAllowlist: list.nullable().optional(),
    recipientAllowlist: list.nullable().optional(),
  })
  .strict();
export type LimitsPatch = z.infer<typeof LimitsPatch>;

/** Stored and returned form: only the set limits; addresses checksummed; native ETH as "native". */
export interface Limits {
  maxPerTxUsd?: number;
  dailyCapUsd?: number;
  tokenAllowlist?: string[];
  recipientAllowlist?: string[];
}

export type LimitName = keyof Limits;
export const LIMIT_NAMES: LimitName[] = ["maxPerTxUsd", "dailyCapUsd", "tokenAllowlist", "recipientAllowlist"];

export class LimitsError extends Error {}

/** What normalising limits needs from the wallet's chain: its address codec and asset registry (a chain adapter has both). */
export interface LimitsChain {
  address: AddressCodec;
  assets: AssetRegistry;
}

/**
 * Token entries: a token address, the native asset (its symbol or `native`), or a well-known symbol that
 * resolves to its one real address on the chain (the chain's registry decides). Any other symbol is kept
 * as written and permits nothing (SPEC 4.12); `notes` says so. Recipients must be addresses of the chain,
 * stored in its canonical form.
 */
export function normaliseLimits(input: LimitsInput, chain: LimitsChain): { limits: Limits; notes: string[] } {
  const limits: Limits = {};
  const notes: string[] = [];
  if (input.maxPerTxUsd !== undefined) limits.maxPerTxUsd = input.maxPerTxUsd;
  if (input.dailyCapUsd !== undefined) limits.dailyCapUsd = input.dailyCapUsd;
  if (input.tokenAllowlist) {
    const out = new Set<string>();
    for (const raw of input.tokenAllowlist) {
      const t = raw.trim();
      let e;
      try {
        e = chain.assets.allowlistEntry(t);
      } catch (err) {
        if (err instanceof ChainInputError) throw new LimitsError(`limits.tokenAllowlist: ${t} ${err.message}`);
        throw err;
      }
      if ("id" in e) out.add(e.id);
      else {
        out.add(e.unknown);
        notes.push(`tokenAllowlist entry "${t}" is not a well-known token on this chain; it permits nothing`);
      }
    }
    limits.tokenAllowlist = [...out];
  }
  if (input.recipientAllowlist) {
    const out = new Set<string>();
    for (const raw of input.recipientAllowlist) {
      const r = raw.trim();
      const problem = chain.address.validate(r);
      if (problem) throw new LimitsError(looksLikeAddress(r) ? `limits.recipientAllowlist: ${r} ${problem}` : `limits.recipientAllowlist: "${r.slice(0, 60)}" is not ${chain.address.describe}`);
      out.add(chain.address.parse(r));
    }
    limits.recipientAllowlist = [...out];
  }
  return { limits, notes };
}

/** Applies an update patch to the current limits (null removes, undefined keeps). */
export function mergeLimits(current: Limits, patch: LimitsPatch, chain: LimitsChain): { limits: Limits; notes: string[] } {
  const merged: LimitsInput = {};
  for (const k of LIMIT_NAMES) {
    const p = patch[k];
    if (p === null) continue;
    const v = p !== undefined ? p : current[k];
    if (v !== undefined) (merged as Record<string, unknown>)[k] = v;
  }
  return normaliseLimits(merged, chain);
}

/**
 * Who refuses a violation (SPEC 2.5 `rules.enforcement`): `signer` when the custodian itself enforces the
 * limit, `service` for the checks this service makes against the simulation before signing. The mandate
 * is weighed only by the judge.
 */
export function enforcement(limits: Limits, signerEnforces: boolean, hasMandate: boolean): Record<string, "signer" | "service" | "judge"> {
  const out: Record<string, "signer" | "service" | "judge"> = {};
  for (const k of LIMIT_NAMES) if (limits[k] !== undefined) out[k] = signerEnforces ? "signer" : "service";
  if (hasMandate) out.mandate = "judge";
  return out;
}

/** Plain-language list of what `next` permits that `prev` did not. Empty when nothing was loosened. */
export function loosenedBy(prev: Limits, next: Limits): string[] {
  const out: string[] = [];
  for (const k of ["maxPerTxUsd", "dailyCapUsd"] as const) {
    const a = prev[k];
    const b = next[k];
    if (a !== undefined && b === undefined) out.push(`${k} removed (was ${a} USD): no ${k === "maxPerTxUsd" ? "per-transaction" : "daily"} USD cap now`);
    else if (a !== undefined && b !== undefined && b > a) out.push(`${k} raised from ${a} to ${b} USD`);
  }
  for (const k of ["tokenAllowlist", "recipientAllowlist"] as const) {
    const a = prev[k];
    const b = next[k];
    if (a && !b) out.push(`${k} removed: any ${k === "tokenAllowlist" ? "token" : "recipient"} is allowed now`);
    else if (a && b) {
      // Both lists hold canonical forms (normaliseLimits), so equal strings are the same entry on any chain.
      const had = new Set(a);
      const added = b.filter((x) => !had.has(x));
      if (added.length) out.push(`${k} now also allows ${added.join(", ")}`);
    }
  }
  return out;
}

/** Parses the stored JSON (defensive: unknown keys dropped). */
export function limitsFromRow(v: unknown): Limits {
  const o = (v && typeof v === "object" ? v : {}) as Record<string, unknown>;
  const out: Limits = {};
  if (typeof o.maxPerTxUsd === "number") out.maxPerTxUsd = o.maxPerTxUsd;
  if (typeof o.dailyCapUsd === "number") out.dailyCapUsd = o.dailyCapUsd;
  if (Array.isArray(o.tokenAllowlist)) out.tokenAllowlist = o.tokenAllowlist.map(String);
  if (Array.isArray(o.recipientAllowlist)) out.recipientAllowlist = o.recipientAllowlist.map(String);
  return out;
}
