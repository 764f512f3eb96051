/**
 * State the sentence recognisers share while one intent is parsed, plus small word helpers.
 */
import type { Activity, Constraint, ListDim } from "../types";
import type { ClauseReading } from "./reading";
import { KNOWN_TOKENS, NOT_TOKENS, USD_STABLES, VENUES } from "../vocab";

export interface ParseState {
  constraints: Constraint[];
  unknown: string[];
  /** Names given to addresses in the intent ("our Safe 0x..", "Uniswap V3 SwapRouter 0x..") -> address. */
  names: Map<string, string>;
  /** Addresses naming the owner's own wallet ("Solana payouts wallet <addr>:"). */
  self: string[];
  /** The intent is about prediction markets (Polymarket, "bets"). */
  prediction: boolean;
  /** "Never use any other token": restates an allowlist; unknown when no such list exists. */
  reinforce: Array<{ dim: string; rule: string; forbid?: { activities: Activity[]; label: string; external?: boolean } }>;
  /** Activities suggested by a leading label ("Polymarket bets:", "staking bot"), used when no sentence permits any. */
  labelPermits: Activity[];
  /** Every token the intent names is a dollar stablecoin (so a bare "capped at 7,500" is dollars). */
  stableOnly: boolean;
  /** Per clause, how it was read. */
  readings: ClauseReading[];
  /** Running totals the rules point at ("month-to-date spend is context.month_to_date_usd"), with their words. */
  counters: Array<{ path: string; words: string }>;
  /** Referral clauses read only if the rest of the rules permit what they name or check the list they doubt (referrals.ts). */
  referrals: Array<{ rule: string; needs: { activities?: Activity[]; dims?: ListDim[] } }>;
  /** Figures the rules name in words and point at once ("the bankroll is in context.bankroll_usdc"): noun -> path (bases.ts). */
  bases: Map<string, string>;
  /** The unit of the intent's last review-band figure, for a later band written bare ("25 to 75 text me", tiers.ts). */
  bareUnit?: string;
}

export function newState(intent: string): ParseState {
  return {
    constraints: [],
    unknown: [],
    names: new Map(),
    self: [],
    // "pm bot", "pm acct": Polymarket's short name at the head of a mandate (not "3 pm").
    prediction: /polymarket|\bbets?\b|\bwagers?\b|prediction[- ]markets?|kalshi|\bpm\s+(?:bot|acct|account|agent|rules|mandate|book|desk|wallet)\b/i.test(intent),
    labelPermits: [],
    reinforce: [],
    stableOnly: stablesOnly(intent),
    readings: [],
    counters: [],
    referrals: [],
    bases: new Map(),
  };
}

function stablesOnly(intent: string): boolean {
  const syms = (intent.replace(/\b0x[0-9a-fA-F]+\b|https?:\/\/\S+/g, " ").match(/\b[A-Za-z][A-Za-z0-9]{1,9}\b/g) ?? []).map((w) => asSymbol(w)).filter((s): s is string => !!s);
  return syms.length > 0 && syms.every((s) => USD_STABLES.has(s));
}

export function add(st: ParseState, c: Constraint): void {
  st.constraints.push(c);
}

/** Lower-case words that may be a token symbol in lower case without ambiguity with English. */
const SAFE_LOWER = new Set(
  "btc eth sol usdc usdt dai weth wbtc hype jup bonk strk arb matic avax bnb doge xrp pepe wif usde steth wsteth cbbtc".split(" "),
);

/** Is this word a token symbol? Returns the upper-case symbol or null. */
export function asSymbol(word: string): string | null {
  const w = word.replace(/['’]s$/, "");
  if (!/^[A-Za-z][A-Za-z0-9]{0,9}$/.test(w)) return null;
  const lower = w.toLowerCase();
  if (NOT_TOKENS.has(lower) || lower in VENUES) {
    // "JUP" is a token even though "jupiter" is a venue; only the exact venue word is excluded.
    if (!(KNOWN_TOKENS.has(lower) && w === w.toUpperCase())) return null;
  }
  if (w === w.toUpperCase() && w.length >= 2 && /[A-Z]/.test(w)) return w.toUpperCase();
  if (SAFE_LOWER.has(lower)) return lower.toUpperCase();
  // Mixed-case well-known symbols: stETH, cbBTC, wstETH, kPEPE.
  if (KNOWN_TOKENS.has(lower) && /^[a-z]{1,3}[A-Z]{2,}$/.test(w)) return w.toUpperCase();
  // Other mixed-case spellings of well-known symbols with at least two capitals: JitoSOL, USDe, crvUSD.
  if (KNOWN_TOKENS.has(lower) && (w.match(/[A-Z]/g) ?? []).length >= 2) return w.toUpperCase();
  return null;
}

/** Plural and -ing forms folded to a stem, so "withdrawals" and "withdrawing" read as "withdraw". */
export function stem(word: string): string {
  const w = word.toLowerCase().replace(/['’]s$/, "");
  if (w.endsWith("ies")) return w.slice(0, -3) + "y";
  if (w.endsWith("ing") && w.length > 5) return w.slice(0, -3);
  if (w.endsWith("als") && w.length > 5) return w.slice(0, -3);
  if (w.endsWith("al") && w.length > 6 && !w.endsWith("ial")) return w.slice(0, -2);
  if (w.endsWith("s") && !w.endsWith("ss") && w.length > 3) return w.slice(0, -1);
  return w;
}

export function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
