/**
 * Upper bounds the action is inside, whatever the rest of the clause means.
 *
 * Owners write caps in endless shapes ("Disbursements above 2,500 USDC need a human signer", "per day: 6k USDC
 * total, counting what went out today (context.spent_today_usdc)"). When the parser cannot read such a clause it
 * holds the action, even though a careful reader sees that the action is below every figure the clause names, and
 * a clause made only of upper bounds cannot forbid an action that is below all of them.
 *
 * So an unread clause is set aside when ALL of this holds (any doubt keeps it on the action, failing closed):
 * - it states at least one upper bound ("max", "at most", "up to", "no more than", "never above", "above X needs
 *   a human") and every figure in it is money: "$2,500", "2.5k USDC", "12 SOL" (a bare number, a percentage, a
 *   multiple, bps or a count leaves it on the action);
 * - nothing in it could be a lower bound, a condition, a scope or a state: "under", "at least", "between",
 *   "exactly", "only", "except", "unless", "if", "when", "after", a time of day, "balance", "keep", "position",
 *   "price", "fee", "leverage"...; no negation other than the one in "no more than"; no address;
 * - nothing in it could narrow a permission to someone: a destination ("to ..."), a payee noun
 *   ("vendors", "treasury"), a proper name; the assets, venues and chains it names include the action's own;
 * - the action is measured the way a real cap measures it (`checkCap`), and is at or under the smallest figure of
 *   each unit, read as a cap per action and, when the clause names a period or a total, as a running total with
 *   the context's counter (none found: held);
 * - an order is also at or under it read as a price ("never buy ETH above $3,000"), unless the clause says it
 *   measures size ("notional", "per order", "size", "value").
 * The transcript says the clause was set aside because the action is inside every bound it states.
 */
import type { ActionView, Constraint, Period } from "./types";
import { checkCap, measure } from "./checks/amounts";
import { asSymbol } from "./parse/state";
import { related } from "./relevance";
import { CHAINS, USD_STABLES, VENUES } from "./vocab";

type Ctx = Record<string, unknown> | null;
type Cap = Extract<Constraint, { kind: "cap" }>;

/** Phrases that bound from above; one is needed. */
const UPPER =
  /\b(?:max(?:imum)?|at most|up to|upto|cap(?:ped)?(?: at)?|limit(?:ed)? (?:to|of|at)|ceiling|(?:no|not|never|nothing|none)\b[^.]{0,40}?\b(?:more (?:than|as|of)|above|over|exceed(?:s|ing)?|greater than|bigger than|larger than|higher than)|(?:above|over|more than|greater than|bigger than|larger than|exceeding|in excess of|north of|beyond|past)\b[^.]{0,60}?\b(?:needs?|requires?|required|must (?:get|be (?:approved|signed|confirmed))|approval|sign-?off|signer|countersign\w*|co-?sign\w*|human|vote|confirm\w*|ask|check with|escalat\w*))\b|\b(?:per|a|each|every)\s+(?:day|week|month|order|trade|bet|payment|transfer|payout|withdrawal|tx|call|request|swap)\s*[:=]|≤|<=/i;

/** Words that could make the clause a lower bound, a condition, a scope, a count or a rule about state. */
export const DOUBT =
  /\b(?:below|under|less|fewer|lower|least|min(?:imum)?|floor|between|exact(?:ly)?|precisely|equal\w*|only|solely|just|exclusively|except\w*|unless|but|other(?:wise)?|else|instead|if|when(?:ever)?|while|until|after|before|during|once|since|provided|as long as|weekends?|weekdays?|night|morning|evening|hours?|utc|am|pm|balances?|remain\w*|left|keep|leave|reserve|buffer|holdings?|hold|positions?|exposure|portfolio|inventory|collateral|health|ltv|ratio|debt|leverage\w*|margin|liquidat\w*|drawdown|loss(?:es)?|pnl|profit|prices?|priced|rates?|fees?|slippage|spread|impact|odds|probabilit\w*|shares?|apy|apr|yield|funding|times|count|number|orders? per|trades? per|transactions? per|txs? per|calls? per|first|new|unknown|whitelist\w*|allowlist\w*|listed|list)\b|%|\bbps\b|\b\d+(?:\.\d+)?x\b|0x[0-9a-f]{6,}|[1-9A-HJ-NP-Za-km-z]{32,44}/i;

/**
 * Words that could narrow a permission to someone ("up to 1,000 USDC may go to Alice" permits Alice, and no one
 * else): a destination, a payee, a proper name. "Payments up to 500 USDC are fine" narrows nothing.
 */
export const GRANT =
  /\b(?:vendors?|suppliers?|contractors?|freelancers?|payees?|recipients?|counterpart(?:y|ies)|partners?|staff|team|employees?|grantees?|wallets?|address(?:es)?|accounts?|treasury|own|ours?)\b/i;
export const DESTINATION = /\bto\b/i;
export const BOUND_TO = /\b(?:up to|upto|limited to|capped to|go (?:up )?to|need(?:s)? to|has to|have to|got to)\b/gi;
/** A proper name inside the clause (not its first word): a payee, a person, a place the rules do not resolve. */
export const PROPER = /(?<=\s)[A-Z][a-z]{2,}\b/;

/** "before it is placed", "before execution": a step of the procedure, not a time of day. */
const PROCEDURE = /\bbefore\s+(?:it|they|each|any|the (?:order|payment|transfer|trade|transaction|withdrawal)|(?:it|they) (?:is|are|goes?|gets?) \w+|execution|executing|placing|sending|signing|settlement|submission|submitting|broadcast\w*)\b/gi;

/** Human-approval phrases: the negation inside them is not a prohibition. */
export const HUMAN_NEG = /\b(?:without|not without|never without)\s+(?:my |our |a |an |the )?(?:asking|approval|sign-?off|confirm\w*|checking|a human|human approval|permission|ok|okay)\b/gi;
/** The negation inside an upper bound ("no more than", "never above"). */
export const BOUND_NEG =
  /\b(?:no|not|never|nothing|none|don'?t|do not|must not|mustn'?t|should not|shouldn'?t|cannot|can'?t|may not|won'?t)\b(?:\s+[\w']+){0,3}?\s+(?:more (?:than|as|of)|above|over|exceed(?:s|ing)?|greater than|bigger than|larger than|higher than|go (?:above|over|past))\b/gi;
export const NEGATION = /\b(?:no|not|never|nor|none|nothing|nobody|don'?t|doesn'?t|cannot|can'?t|mustn'?t|won'?t|without)\b|n't\b/i;

export const PERIOD: Array<[RegExp, Period]> = [
  [/\b(?:day|days|daily|today|24\s?h(?:ours?)?|per diem)\b/i, "day"],
  [/\b(?:week|weeks|weekly|7\s?d)\b/i, "week"],
  [/\b(?:month|months|monthly|30\s?d)\b/i, "month"],
  [/\b(?:total|totals|combined|cumulative|aggregate|overall|in all|so far|running|budget|spend|spent|spending|lifetime)\b/i, "total"],
];
/** The clause says it measures an order's size, not its price. */
export const SIZE_WORDS = /\b(?:notional|size|value|worth|per (?:order|trade|position|bet)|each (?:order|trade|bet)|an? (?:order|trade|bet)|single (?:order|trade|bet)|orders?|trades?|bets?)\b/i;

/** Assets (other than dollar units) and venues or chains a clause names. */
export function namedScope(clause: string): { assets: string[]; places: string[] } {
  const assets: string[] = [];
  const places: string[] = [];
  for (const w of clause.split(/[^A-Za-z0-9.]+/)) {
    const word = w.replace(/\.$/, "");
    const lw = word.toLowerCase();
    if (lw in VENUES || (lw in CHAINS && (lw !== "base" || word === "Base"))) places.push(VENUES[lw] ?? CHAINS[lw]);
    else {
      const sym = asSymbol(word);
      if (sym && !USD_STABLES.has(sym) && !/USD/.test(sym)) assets.push(sym);
    }
  }
  return { assets, places };
}

/** Money figures: "$2,500", "2.5k USDC", "12 SOL", "40 dollars". Null when any figure is not money. */
export function moneyFigures(clause: string): Array<{ value: number; unit: string }> | null {
  const out: Array<{ value: number; unit: string }> = [];
  const scale = (s: string | undefined) => (s && /^k$/i.test(s) ? 1e3 : s && /^(?:m|mm)$/i.test(s) ? 1e6 : 1);
  const re = /(\$|usd\s*)?(\d[\d,]*(?:\.\d+)?)\s*(k|m|mm)?\b\s*([A-Za-z][A-Za-z0-9.]{1,9})?/gi;
  const ctxFree = clause.replace(/\bcontext\.[A-Za-z0-9_.]+/g, " ");
  for (const m of ctxFree.matchAll(re)) {
    const value = Number(m[2].replace(/,/g, "")) * scale(m[3]);
    if (!Number.isFinite(value)) return null;
    if (m[1]) {
      out.push({ value, unit: "USD" });
      continue;
    }
    const word = (m[4] ?? "").replace(/\.$/, "");
    if (/^(?:usd|dollars?|bucks)$/i.test(word)) out.push({ value, unit: "USD" });
    else if (word && asSymbol(word)) out.push({ value, unit: asSymbol(word) as string });
    else return null;
  }
  return out;
}

/** True when the clause states only upper bounds in money and the action is inside every one of them. */
export function insideEveryBound(text: string, view: ActionView, ctx: Ctx): boolean {
  const clause = text.replace(PROCEDURE, " ");
  if (!UPPER.test(clause) || DOUBT.test(clause) || GRANT.test(clause) || PROPER.test(clause)) return false;
  if (DESTINATION.test(clause.replace(BOUND_TO, " "))) return false;
  const rest = clause.replace(HUMAN_NEG, " ").replace(BOUND_NEG, " ");
  if (NEGATION.test(rest)) return false;
  // Assets, venues or chains the clause names may scope it: the action must be on one of them.
  const named = namedScope(clause);
  const own = view.assets.map((a) => a.toUpperCase());
  if (named.assets.length && (own.length === 0 || !own.every((a) => named.assets.some((n) => related(a, n))))) return false;
  if (named.places.length && !named.places.some((p) => p === view.venue || p === view.chain)) return false;
  const figures = moneyFigures(clause);
  if (!figures || figures.length === 0) return false;
  return actionInside(clause, figures, view, ctx);
}

/**
 * The measuring half: the action is at or under every figure (times `factor`, strictly under when `strict`), read as
 * a cap per action and, when the clause names a period or a total, as a running total with the context's counter.
 * With `otherTokens`, a figure in a token the action does not move is left out, but only when every asset the action
 * moves is measured by another figure of the clause ("3 SOL or 250 USDC per transfer" over a USDC transfer).
 */
export function actionInside(
  clause: string,
  figures: Array<{ value: number; unit: string }>,
  view: ActionView,
  ctx: Ctx,
  o: { strict?: boolean; factor?: number; otherTokens?: boolean } = {},
): boolean {
  const periods = PERIOD.filter(([re]) => re.test(clause)).map(([, p]) => p);
  const counterRef = /\bcontext\.[A-Za-z0-9_.]+/.exec(clause)?.[0].replace(/[.]+$/, "");
  const refs = clause.match(/\bcontext\.[A-Za-z0-9_.]+/g) ?? [];
  if (refs.length > 1 || (refs.length === 1 && periods.length === 0)) return false; // a context list, not a counter
  const units = [...new Set(figures.map((f) => f.unit))];
  const measured = units.filter((u) => measure(view, u, ctx).length > 0);
  const skip = o.otherTokens && coveredByOthers(view, measured) ? units.filter((u) => u !== "USD" && !measured.includes(u)) : [];
  for (const unit of units) {
    if (skip.includes(unit)) continue;
    const limit = Math.min(...figures.filter((f) => f.unit === unit).map((f) => f.value)) * (o.factor ?? 1);
    const strict = o.strict ?? false;
    const caps: Cap[] = [{ kind: "cap", limit: { value: limit, unit }, period: "action", scope: "any", strict, rule: clause }];
    for (const period of periods) caps.push({ kind: "cap", limit: { value: limit, unit }, period, scope: "any", strict, rule: clause, subject: "spent", counterRef });
    // A figure of this action in the unit must exist: a cap on another token does not measure it here.
    const figuresHere = measure(view, unit, ctx);
    if (figuresHere.length === 0 || figuresHere.some((i) => i.value === null)) return false;
    for (const cap of caps) if (checkCap(cap, view, ctx).length > 0) return false;
    if (view.orders.length && !SIZE_WORDS.test(clause)) {
      const dollars = unit === "USD" || USD_STABLES.has(unit);
      if (!dollars || view.orders.some((o) => o.price === null || o.price > limit)) return false;
    }
  }
  return true;
}

/** Every asset the action moves is one a measured figure is written in (a stablecoin answers for a stablecoin). */
function coveredByOthers(view: ActionView, measured: string[]): boolean {
  const tokens = measured.filter((u) => u !== "USD");
  const own = view.assets.map((a) => a.toUpperCase());
  if (own.length === 0 || tokens.length === 0 || view.orders.length > 0 || view.swap) return false;
  return own.every((a) => tokens.some((u) => related(a, u) || (USD_STABLES.has(a) && USD_STABLES.has(u))));
}
