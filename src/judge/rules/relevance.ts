/**
 * Does a clause the engine could not read bear on this action?
 *
 * An owner's mandate mixes rules about several kinds of activity ("Never withdraw to a new address", "max $2k per
 * order"). A clause the parser could not fully read stops an ALLOW, but only when it could restrict the action
 * being judged: a rule that speaks only of withdrawals cannot forbid an order, just as a careful human reading
 * "withdrawals over $5k need my sign-off" would not hold a $400 order for it.
 *
 * The test fails closed: a clause bears on the action unless it names at least one kind of activity, every
 * kind it names is foreign to the action, and it has no word that reaches beyond the kinds it names:
 * - exclusive words ("only", "except", "nothing but", "no other") turn a named activity into a scope that forbids
 *   every other one ("this agent only pays invoices" forbids orders);
 * - catch-all words ("anything", "any action", "spend", "budget", "exposure", "balance", "total") speak of every
 *   action;
 * - a clause with no activity word at all ("nothing above $5k without asking me") bears on everything.
 * An action whose kind is unknown is borne on by every clause. What owners call an activity beyond these words
 * ("LP", "looping", "stake authority", "leave the account") is the parser's vocabulary too (activity-words.ts).
 */
import { ACTIVITIES, type Activity } from "./types";
import { asSymbol } from "./parse/state";
import { DISPUTED_STABLES, USD_STABLES } from "./vocab";
import { wordsReach } from "./activity-words";

/** Every activity but trading's own: an activity added later counts as moving value, so it fails closed. */
const MOVES_VALUE: Activity[] = ACTIVITIES.filter((a) => !["order", "cancel", "leverage", "margin", "unknown"].includes(a));
const TRADES: Activity[] = ["order", "cancel", "leverage", "margin", "swap", "wrap", "unwrap"];
/** Buying can be a purchase paid for, not only an order: "never buy datasets over $5" bears on a payment. */
const BUYS: Activity[] = [...TRADES, "payment", "transfer"];
const LEVERAGE: Activity[] = ["order", "leverage", "margin", "borrow"];
const STAKES: Activity[] = ["stake", "unstake", "delegate", "undelegate", "vault_deposit", "vault_withdraw", "permission"];
const LENDS: Activity[] = ["supply", "redeem", "borrow", "repay", "vault_deposit", "vault_withdraw", "transfer", "approval"];
const GRANTS: Activity[] = ["approval", "permission", "subaccount"];

/** Each kind of activity a clause can name, with the actions it can restrict. */
const KINDS: Array<[RegExp, Activity[]]> = [
  [/\b(?:orders?|trad(?:e|es|ed|ing)|positions?|perps?|perpetuals?|futures|longs?|shorts?|shorting|sell(?:s|ing)?|sold|bids?|asks?|entr(?:y|ies)|exits?|notional|tif|gtc|ioc|alo|fok|fak|gtd|twaps?|reduce[- ]only|hedg(?:e|es|ed|ing)|markets?|swaps?|swapping|slippage|spot)\b/, TRADES],
  // "Never pay more than 60c a share": paying is also what an order does.
  [/\b(?:pay(?:s|ing)?|paid|buy(?:s|ing)?|bought|purchas(?:e|es|ed|ing)|acquir(?:e|es|ed|ing)|bets?|betting|wagers?|tickets?|shares?|outcomes?)\b/, BUYS],
  [/\b(?:leverage[ds]?|margin|isolated|cross)\b/, LEVERAGE],
  [/\b(?:withdraw(?:s|als?|ing|n)?|transfer(?:s|red|ring)?|send(?:s|ing)?|sent|payments?|payouts?|remit\w*|disburs\w*|wire[sd]?|bridg(?:e|es|ed|ing)|mov(?:e|es|ed|ing)|recipients?|payees?|vendors?|invoices?|tips?|refunds?|donat\w*|treasury|wallets?|address(?:es)?|deposit(?:s|ed|ing)?|x402|calls?|api|endpoints?|hosts?|resources?)\b/, MOVES_VALUE],
  [/\b(?:stak(?:e|es|ed|ing)|unstak\w*|validators?|delegat\w*|undelegat\w*)\b/, STAKES],
  [/\b(?:borrow\w*|lend(?:s|ing)?|loans?|suppl(?:y|ies|ied|ying)|collateral|repay\w*|aave|morpho|compound|health factor)\b/, LENDS],
  [/\b(?:allowances?|spenders?|permit2?|permits|api wallets?|agent wallets?|(?:new|other|extra|additional|more) agents?|signers?|operators?|sub-?accounts?)\b/, GRANTS],
];

/** Words that reach beyond the activities a clause names, or scope every activity by naming some. */
const REACHES_ALL =
  /\b(?:only|solely|exclusively|just|except|excluding|besides|other(?:wise)?|else|nothing|anything|everything|every|whatever|whichever|actions?|transactions?|txs?|operations?|activit(?:y|ies)|spend(?:s|ing)?|spent|budgets?|exposure|risk|loss(?:es)?|drawdown|pnl|balances?|reserves?|keep|leave|left|remain(?:s|ing)?|floor|total|combined|aggregate|overall|cumulative)\b/;

/**
 * Scope by asset. A prohibition or a human threshold that names only assets the action does not touch cannot
 * restrict it: "never send more than 5 SOL to one address" does not hold a USDC payment, "don't touch the ETH" does not hold a
 * SOL transfer. Fail-closed conditions, each keeping the clause on the action:
 * - the clause must forbid or ask for a human ("never", "no", "needs my approval"): a statement such as "we pay in
 *   USDC" or a bare cap such as "orders up to 1 BTC" may be an exclusive scope in disguise;
 * - it may not name a dollar figure, a stablecoin (dollars measure every asset and quote every order), a value
 *   word ("worth", "equivalent", "notional"), an asset class ("tokens", "funds", "alts"), an escape from a scope
 *   ("outside", "off", "elsewhere", "instead"), an address or a context path (a list could name any asset);
 * - an asset is foreign only when neither symbol contains the other (ETH / WETH / wstETH, USDC / USDC.e are one);
 * - the action's own assets must be known.
 */
const NEGATES_OR_LIMITS = /\b(?:never|no|not|nor|don'?t|do not|doesn'?t|cannot|can'?t|mustn'?t|must not|shouldn'?t|won'?t|needs?|requires?|approv\w+|sign-?off|ask)\b/;
const REACHES_ASSETS =
  /\$|\b(?:worth|equivalents?|value[ds]?|valued|notional|usd|dollars?|bucks?|cents?|tokens?|coins?|assets?|funds?|money|cash|crypto|stables?|stablecoins?|alts?|altcoins?|memes?|memecoins?|majors?|collateral|outside|off|elsewhere|instead|apart|anywhere|unless|context)\b|\b0x[0-9a-f]{6,}|[1-9A-HJ-NP-Za-km-z]{32,44}/i;

function namedAssets(clause: string): string[] {
  const out: string[] = [];
  for (const w of clause.split(/[^A-Za-z0-9.]+/)) {
    const sym = asSymbol(w.replace(/\.$/, ""));
    if (sym) out.push(sym);
  }
  return out;
}

/** One asset in two spellings: ETH and WETH or wstETH, USDC and USDC.E. */
export const related = (a: string, b: string): boolean => a === b || a.includes(b) || b.includes(a);

/** True when the clause limits only assets the action does not touch (see above). */
export function assetForeign(clause: string, actionAssets: readonly string[], orders = false): boolean {
  if (actionAssets.length === 0) return false;
  const t = clause.toLowerCase();
  if (!NEGATES_OR_LIMITS.test(t) || REACHES_ALL.test(t) || REACHES_ASSETS.test(clause)) return false;
  const named = namedAssets(clause);
  if (named.length === 0) return false;
  // A stablecoin is a measure of every asset when the clause has a figure, and the margin or quote of every order;
  // otherwise ("don't touch the USDC, it's for payroll") it is one asset among others.
  const dollars = orders || /\d/.test(clause);
  if (dollars && named.some((s) => USD_STABLES.has(s) || DISPUTED_STABLES.has(s) || /USD/.test(s))) return false;
  const own = actionAssets.map((a) => a.toUpperCase());
  return named.every((s) => !own.some((a) => related(a, s)));
}

/** The activities a clause names, or null when it names none or reaches beyond them. */
export function clauseReach(clause: string): Set<Activity> | null {
  // The shared vocabulary first (activity-words.ts): what it matched is read there and removed, so "withdraw
  // authority" is not a withdrawal here and "nothing should leave the account" is not a catch-all "nothing".
  const { reach, rest } = wordsReach(clause);
  const t = rest.toLowerCase();
  if (REACHES_ALL.test(t)) return null;
  for (const [re, acts] of KINDS) if (re.test(t)) for (const a of acts) reach.add(a);
  return reach.size ? reach : null;
}

/**
 * True when the clause could restrict an action doing `activities` on `assets` (and, for a plain-English action,
 * whose own words are `actionText`): the fail-closed default.
 */
export function bearsOn(clause: string, activities: readonly Activity[], actionText?: string, assets: readonly string[] = [], orders = false): boolean {
  if (activities.length && !activities.includes("unknown") && assetForeign(clause, assets, orders)) return false;
  const reach = clauseReach(clause);
  if (!reach || activities.length === 0 || activities.includes("unknown")) return true;
  if (activities.some((a) => reach.has(a))) return true;
  if (actionText !== undefined) {
    const own = clauseReach(actionText);
    if (!own || [...own].some((a) => reach.has(a))) return true;
  }
  return false;
}
