/**
 * How a clause was read. After the recognisers have consumed what they understood, the words left over decide:
 *
 * - a leftover that could carry a limit of its own (a negation, "only", "unless", a number, a token, an address,
 *   a context reference, a time or condition word, a rule word such as "leverage" or "margin") means part of the
 *   clause was not turned into constraints: the clause is NOT UNDERSTOOD and the engine will not ALLOW;
 * - otherwise the leftovers are names, purposes and background ("our treasury's", "earning yield",
 *   "SwapRouter02"): they are recorded as ignored, and the clause is a CONSTRAINT clause when it produced
 *   constraints, DESCRIPTIVE when it produced none.
 *
 * This is what lets a sentence carry words the vocabulary has never seen without being escalated whole, while
 * a limit the parser could not read still stops an ALLOW.
 */
import { asSymbol } from "./state";
import { CHAINS, VENUES } from "../vocab";

export type Reading = "constraint" | "descriptive" | "not understood";

export interface ClauseReading {
  clause: string;
  reading: Reading;
  /** Constraints the clause produced (indices into the parsed constraints). */
  constraints: number[];
  /** Leftover words that carried no limit (names, purposes, background). */
  ignored: string[];
  /** Leftover words that could carry a limit the parser did not read. */
  unread: string[];
  /** For a clause not understood, the open question it raises (one of the parse's `unknown`). */
  question?: string;
}

/** Words that limit, negate, condition or quantify: never silently ignored. */
const LIMITING = new Set(
  (
    "never not no none nothing nobody nor don't dont doesn't didn't can't cannot won't wouldn't mustn't shouldn't isn't aren't " +
    "only solely exclusively except excluding unless but without besides other else instead " +
    "max maximum min minimum limit limits limited cap caps capped ceiling budget budgets quota allowance most least " +
    "exceed exceeds exceeding above below under over beyond more less fewer than greater larger bigger smaller higher lower " +
    "require requires required requirement need needs needed necessary approval approve approves approved sign-off signoff " +
    "confirm confirmation human manual escalate consent authorise authorize authorised authorized authority " +
    "forbidden prohibited banned disallowed restricted restrict blocked deny denied refuse reject outside " +
    "avoid avoids avoiding shun shuns refrain abstain stick sticks confined confine " +
    "if when whenever while until unless after before during between since provided providing assuming once " +
    "percent percentage pct bps ratio half quarter double twice thrice dozen hundred thousand million billion " +
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty fifty " +
    "true false exit exits entry entries closing opening " +
    "leverage leveraged margin isolated cross slippage impact reduce reduce-only long longs short shorts shorting buy buys sell sells side " +
    "limit market trigger stop stop-loss take-profit tif gtc ioc alo fok gtd post-only twap twaps " +
    "unlimited infinite exact exactly precise precisely spender allowance validator validators recipient recipients payee payees " +
    "withdraw withdrawal withdrawals transfer transfers send sends pay pays borrow borrows repay bridge bridges stake unstake " +
    "delegate undelegate lend supply deposit deposits wrap unwrap swap sell approve " +
    "mainnet testnet chain chains network networks venue venues exchange exchanges protocol protocols"
  ).split(/\s+/),
);

/**
 * Time words limit only inside a clause that limits something ("only trade on weekdays", "max $5k a day");
 * in a plain statement ("We rebalance weekly") they are background.
 */
const TIME = new Set(
  (
    "day days daily week weeks weekly month months monthly quarterly year yearly annually hour hours hourly minute minutes night " +
    "nights weekend weekends weekday weekdays morning evening utc today tonight tomorrow"
  ).split(/\s+/),
);
/** Nouns a period word bounds ("daily limit", "weekly spend"): after one, the time word is a period. */
const PERIOD_NOUN = String.raw`(?:limit|limits|cap|caps|budget|budgets|max|maximum|total|totals|spend|spending|allowance|quota|volume|amount|notional|ceiling|payments?|transfers?|orders?|trades?|withdrawals?)\b`;

/** A time or schedule word ("weekend", "daily", "Fridays"). */
export function isTimeWord(word: string): boolean {
  const lw = word.toLowerCase().replace(/['’]s$/, "");
  return TIME.has(lw) || /^(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?)$/.test(lw);
}

/** A word naming who receives ("vendors", "payees"). */
export const isRecipientNoun = (word: string): boolean => RECIPIENT.test(word.toLowerCase().replace(/['’]s$/, ""));

const STRONG = /\b(?:only|never|not|no|nothing|none|max|maximum|min|minimum|at most|up to|must|shall|require[sd]?|limit(?:ed)?|cap(?:ped)?|except|unless|budget|forbidden|prohibited|allowed|permitted|may|can|cannot)\b|n't\b|\d|[$%]/i;

/** Words naming who receives ("our own wallets", "the usual suppliers"): in a clause that moves value, a list not given. */
const RECIPIENT =
  /^(?:own|wallets?|accounts?|address(?:es)?|vendors?|suppliers?|contributors?|recipients?|payees?|counterpart(?:y|ies)|partners?|employees?|merchants?|creditors?|beneficiar(?:y|ies)|contractors?|freelancers?|providers?|clients?|customers?|grantees?|staff|usual|regular|trusted|known|friends?|family)$/i;
/**
 * "Withdrawals only to the treasury", "back to the vault itself": a place money goes that the rules never resolve
 * to an address. Had been ignored, so such a clause permitted the move to anyone. Only after a word of destination
 * ("hedge the BTC in our treasury" places nothing; "escalated to the treasury reviewer" names a person's role).
 */
const DESTINATION = /^(?:treasury|treasuries|vaults?|multisigs?|itself)$/;
const PAYS = /\b(?:send|sends|sending|pay|pays|paying|transfer|transfers|transferring|remit\w*|disburs\w*)\b/i;
const MOVES = /\b(?:send|sends|sent|sending|pay|pays|paid|paying|transfer\w*|withdraw\w*|remit\w*|disburs\w*|to)\b/i;

/**
 * Does a leftover word possibly carry a limit? `clause` is the clause's text; `produced` whether the clause gave
 * constraints (a schedule word in a rule, "Pay Alice every Friday", limits; in a statement it does not).
 */
export function isLimiting(word: string, clause = "", produced = false): boolean {
  const lw = word.toLowerCase().replace(/['’]s$/, "");
  if (TIME.has(lw) || /^(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?)$/.test(lw)) {
    // "our weekly market notes", "the monthly report": a time word describing a thing, not a schedule or a period.
    // "the monthly retainers of our auditors": the kind of payment, not how often it may be made.
    if (new RegExp(`\\b(?:our|my|their|its|your|the)\\s+${lw}\\s+(?!${PERIOD_NOUN})[a-z]`, "i").test(clause)) return false;
    return produced || STRONG.test(clause);
  }
  if (MOVES.test(clause) && RECIPIENT.test(lw)) return true;
  if (DESTINATION.test(lw) && new RegExp(`\\b(?:to|into|towards?)\\s+(?:(?:the|our|my|its|a|an)\\s+)?(?:[\\w-]+\\s+)?${lw}\\b(?!\\s+(?:reviewer|team|committee|officer|lead|manager|signers?|desk|department|ops|policy))`, "i").test(clause))
    return true;
  // "Pay Alice every Friday": a capitalised name in a clause that pays someone is a payee the rules do not resolve.
  if (PAYS.test(clause) && /^[A-Z][a-z]+$/.test(word) && clause.indexOf(word) > 0 && produced) return true;
  if (/^§[aqhcn]\d+$/.test(word)) return true; // an address, quote, host or context reference nobody used
  // A figure ("2026", "3k", "5%"), not an identifier with digits in it ("SwapRouter02", "V3").
  if (/^[$]?\d[\d,.]*(?:[kmb]|bn|x|%|bps)?$/i.test(word) || /[$%≤≥<>]/.test(word)) return true;
  const w = word.toLowerCase().replace(/['’]s$/, "").replace(/[.]+$/, "");
  if (LIMITING.has(w)) return true;
  if (w.endsWith("n't")) return true;
  if (w in VENUES || w in CHAINS) return true;
  return asSymbol(word.replace(/['’]s$/, "")) !== null;
}
