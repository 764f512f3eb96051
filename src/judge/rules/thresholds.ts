/**
 * Clauses made of thresholds, read coarsely: an unread clause is set aside when the action is at or under every
 * figure it names, under every reading of what the clause does with them.
 *
 * Owners write such a clause in three shapes, and the shape (its polarity) says which side of a figure is safe:
 * - a cap: "never more than a buck per tip", "keep each order under, like, 2k dollars notional", "Limits: 3 SOL or
 *   250 USDC per transfer", "shall not make a single transfer above 5,000 STRK or above 1,500 USDC";
 * - a human gate: "supplies above 150k USDT: CFO sign-off first", "Should a purchase cost more than $120, kindly put
 *   it before Ms Okafor for her approval", "require human above: $0.25", "between a quarter and a buck, ask first";
 * - a permission below a figure: "under a quarter each it can just pay".
 * In all three the action at or under every figure is untouched (a cap is kept, a gate does not fire, and a
 * permission below the figure covers it). When it is above a gate figure the clause stays held, which escalates.
 *
 * How it reads, failing closed at every step:
 * 1. Coin words become dollars ("a nickel" $0.05, "a dime", "a quarter" when not a period, "a buck", "3 bucks";
 *    "2 grand" is already $2,000 by number-forms.ts); hedges ("under, like, 2k", "roughly $500", "~$300") shrink
 *    the figure by a tenth.
 * 2. The gate's consequence is cut off ("ping me in #x before paying", "goes to the Risk Council for approval before
 *    it is sent", ": controller sign-off first"), so an approver is never read as a grantee; the tail cut must hold
 *    no figure and no word that could scope ("only", "and", "except", a negation...).
 * 3. The polarity must be one of the three; a lower bound ("at least", "minimum", "or more", "exactly", "from"),
 *    "under" in a gate ("under $5 needs approval" fires below) or an un-negated "above" outside a gate holds it.
 * 4. What is left, without comparators, figures, hedges and the gate's "if/should/anything", goes through the same
 *    tests as the upper-bound envelope (envelope.ts): no doubt word, no destination, no payee or proper name, no
 *    other negation, the assets and places it names include the action's.
 * 5. The action is measured against every figure (envelope.ts `actionInside`), strictly under for "under/below/
 *    less than"; a figure in a token the action does not move is left out only when another figure measures every
 *    asset the action moves.
 */
import type { ActionView, Constraint } from "./types";
import { checkCap } from "./checks/amounts";
import { actionInside, BOUND_NEG, SIZE_WORDS, PERIOD, BOUND_TO, DESTINATION, DOUBT, GRANT, HUMAN_NEG, moneyFigures, namedScope, NEGATION, PROPER } from "./envelope";
import { related } from "./relevance";
import { USD_STABLES } from "./vocab";

type Ctx = Record<string, unknown> | null;
type Cap = Extract<Constraint, { kind: "cap" }>;

// "grand" is not here: number-forms.ts (spokenForms) has already made "3 grand" / "a grand" a figure in dollars
// before any clause is read.
const COINS: Record<string, string> = { penny: "0.01", cent: "0.01", nickel: "0.05", dime: "0.10", quarter: "0.25", buck: "1", dollar: "1" };

/** "a nickel" -> "$0.05"; "a quarter" of a year ("per quarter", "once a quarter", "a quarter of") stays words. */
export function coinsToDollars(s: string): string {
  return s
    .replace(/\b(\d+(?:\.\d+)?)\s+bucks?\b/gi, (_m, n: string) => `$${n}`)
    .replace(/\b(\d+)\s+cents?\b/gi, (_m, n: string) => `$${(Number(n) / 100).toFixed(2)}`)
    .replace(/(?<!\b(?:once|twice|per|each|every|this|next|last|one|times)\s)\b(?:a|one)\s+(penny|cent|nickel|dime|quarter|buck|dollar)\b(?!\s+of\b)/gi, (_m, c: string) => `$${COINS[c.toLowerCase()]}`);
}

/** "under, like, 2k", "roughly $500", "~$300", "$300 or so", "about 2k": a figure the owner did not mean exactly. */
const HEDGE = /,\s*like,?\s+|\b(?:like|roughly|about|around|approximately|approx\.?|circa|some|give or take)\s+(?=[$~\d])|~\s*(?=[$\d])|\s+or so\b|(?<=\d[kKmM]?)-?ish\b/gi;

/** "(limit px times size)", "(price x size)", ", measured at the order's limit price": how notional is measured. */
const MEASURE_NOTE = /\((?:\s*(?:limit|px|price|times|x|×|\*|size|sz|notional|qty|quantity|at|the|its|order'?s?|of|value|valued|measured|by|in|usd|mark)\b\s*)+\)|,?\s*(?:measured|valued|taken|computed)\s+at\s+(?:the\s+)?(?:order'?s\s+|its\s+)?(?:limit|mark)\s+price\b/gi;

/** "200,000 units of the stablecoin": dollars, for an action that moves stablecoins only. */
const STABLE_UNITS = /\b(\d[\d,]*(?:\.\d+)?\s*(?:k|m)?)\s+(?:units of (?:the |our |a )?stablecoins?|stablecoin units|stables)\b/gi;

/** The consequence of a gate, from where it starts to the end of the clause. */
const GATE_TAIL = [
  /(?:(?<!\d)[,:;](?!\d)|\s[–—-])?\s*(?:then\s+)?(?:kindly\s+|please\s+|pls\s+)?(?:put|bring|send|take|run|pass|forward|refer|route|submit)\s+(?:it|them|this|that|the \w+)\s+(?:before|to|by|past)\b.*$/i,
  /(?:(?<!\d)[,:;](?!\d)|\s[–—-])?\s*(?:then\s+)?(?:kindly\s+|please\s+|pls\s+)?(?:to\s+)?(?:ping|ask|message|dm|tell|check with|check in with|email|notify|consult|confirm with|clear it with|escalate to|get (?:it |them )?(?:approved|signed off|cleared|ok'?d))\b.*$/i,
  /\s+(?:is|are|gets?|must be|should be|has to be|goes|go)\s+(?:first\s+)?(?:shown|sent|passed|put|brought|taken|referred|routed|submitted|escalated)\s+(?:to|before|by)\b.*$/i,
  /(?:(?<!\d)[,:;](?!\d)|\s[–—-])\s*[^,:;.]*?\b(?:approval|sign-?off|signoff|sign off|go-?ahead|consent|countersignature|co-?sign\w*|vote)\b.*$/i,
  /\s+(?:needs?|requires?|required|must (?:get|have|receive|obtain|go to)|goes to|go to|is sent to|gets sent to|subject to)\s+[^,:;.]*?\b(?:approval|sign-?off|signoff|sign off|go-?ahead|consent|countersignature|co-?sign\w*|vote)\b.*$/i,
];
/** Config and short forms: "require human above: $0.25", "human approval over $500", "escalate above 2k". */
const GATE_HEAD = /\b(?:(?:require|requires|needs?)\s+(?:a\s+)?)?(?:human(?:\s+(?:approval|sign-?off|review|confirmation|check))?|escalat(?:e|ion)|approval|sign-?off)(?:\s+(?:for anything|for|when|if))?(?=\s+(?:above|over|beyond|past|more than)\b)/gi;
/**
 * A negated upper bound with the subject between ("No single order may carry a notional value above $4,000", "shall
 * not make a single transfer above 5,000 STRK or above 1,500 USDC": the second "above" shares the negation).
 */
const NEG_UPPER =
  /\b(?:no|not|never|nothing|none|don'?t|do not|must not|mustn'?t|should not|shouldn'?t|cannot|can'?t|may not|won'?t|shall not)\b(?:\s+[\w'$.]+){0,8}?\s+(?:more (?:than|as|of)|above|over|exceed(?:s|ing)?|greater than|bigger than|larger than|higher than|go (?:above|over|past)|past|beyond)\b(?:(?:\s+[\w'$.,]+){0,4}?\s+(?:or|nor)\s+(?:above|over|more than|exceed(?:s|ing)?|beyond))*/gi;

/** A tail that could scope or add a rule is never cut. */
const TAIL_UNSAFE = /\d|\b(?:only|solely|except|unless|and|or|but|not|no|never|nor|n't|also|plus|otherwise|to (?:0x|address|wallet))\b|;/i;

/** The conditional words a gate's trigger is written with: "if one ever asks for more than a nickel". */
const TRIGGER = /^\s*(?:and\s+|but\s+)?(?:if|when|whenever|should|in case|anything|any|where)\b|\b(?:one|it|they|ever|anything|any)\b/gi;

const ABOVE = /\b(?:above|over|more than|greater than|bigger than|larger than|higher than|exceed(?:s|ing)?|in excess of|north of|beyond|past|go past)\b/gi;
const UNDER = /\b(?:under|below|less than|beneath)\b/gi;
const CAP_WORDS = /\b(?:max(?:imum)?|at most|up to|upto|cap(?:ped)?(?:\s+(?:at|of))?|limit(?:s|ed)?(?:\s+(?:to|of|at))?|ceiling|within)\b\s*:?|≤|<=/gi;
/** A lower bound, a band or an exact figure: the action under it is not safe. */
const LOWER = /\b(?:at least|least|min(?:imum)?|floor|or more|and up|and above|plus|from|exact(?:ly)?|precisely|equal\w*|no less|not less|not under|not below|never under|never below)\b|≥|>=/i;
const PERMIT = /\b(?:(?:it|you|the agent|they|bot)\s+)?(?:can|may)\s+just\s+\w+|\b(?:just\s+(?:pay|tip|send|buy|go ahead|do it)|is fine|are fine|is ok(?:ay)?|are ok(?:ay)?|go ahead|free to \w+|no need to ask|without asking|auto-?approve\w*|don'?t ask|no approval needed)\b/gi;

/** "keep each order under", "must stay below": under as a cap, not the start of a permission. */
const FIRM_UNDER = /\b(?:keep|kept|stay|stays|must|should|shall|always)\b[^.;]*?\b(?:under|below|less than)\b/i;

export type Polarity = "cap" | "gate" | "permit";
export interface ThresholdReading {
  polarity: Polarity;
  /** The clause with coins as dollars and the gate's consequence cut: what is measured. */
  clause: string;
  figures: Array<{ value: number; unit: string }>;
  strict: boolean;
  factor: number;
  /** The figures were written in "units of the stablecoin". */
  stableOnly: boolean;
  /** A cap written as one ("max", "never more than", "keep ... under"), not a bare "under $5". */
  firmCap: boolean;
}

/** The clause read as thresholds only, or null when anything in it could be more than that. */
export function readThresholds(text: string): ThresholdReading | null {
  let stableOnly = false;
  let s = coinsToDollars(text)
    .replace(MEASURE_NOTE, " ")
    .replace(STABLE_UNITS, (_m, n: string) => ((stableOnly = true), `${n} USD`));
  let hedged = false;
  s = s.replace(HEDGE, () => ((hedged = true), " "));
  let gate = false;
  s = s.replace(GATE_HEAD, () => ((gate = true), " "));
  if (!gate)
    for (const re of GATE_TAIL) {
      const m = re.exec(s);
      if (!m) continue;
      if (TAIL_UNSAFE.test(m[0].replace(/^[,:;–—-]/, ""))) return null;
      s = s.slice(0, m.index);
      gate = true;
      break;
    }
  const permit = PERMIT.test(s);
  PERMIT.lastIndex = 0;
  if (gate && permit) return null;
  if (LOWER.test(s)) return null;
  const negated = s.replace(HUMAN_NEG, " ");
  const boundNeg = negated.match(NEG_UPPER) ?? [];
  const under = (s.match(UNDER) ?? []).length > 0;
  const above = (negated.replace(NEG_UPPER, " ").match(ABOVE) ?? []).length > 0;
  const between = /\bbetween\b/i.test(s);
  let polarity: Polarity;
  if (gate) {
    if (under || !(above || between)) return null;
    polarity = "gate";
  } else if (permit) {
    if (!under || above || between) return null;
    polarity = "permit";
  } else {
    if (above || between) return null;
    if (!under && !boundNeg.length && !(s.match(CAP_WORDS) ?? []).length) return null;
    polarity = "cap";
  }
  const figures = moneyFigures(s);
  if (!figures || figures.length === 0) return null;
  // What is left once the figures and the words that place them are gone must say nothing else.
  const rest = s
    .replace(/\bcontext\.[A-Za-z0-9_.]+/g, " ")
    .replace(/(\$|usd\s*)?\d[\d,]*(?:\.\d+)?\s*(?:k|m|mm)?\b(?:\s*(?:[A-Za-z][A-Za-z0-9.]{1,9}))?/gi, " ")
    .replace(PERMIT, " ")
    .replace(NEG_UPPER, " ")
    .replace(BOUND_NEG, " ")
    .replace(ABOVE, " ")
    .replace(UNDER, " ")
    .replace(CAP_WORDS, " ")
    .replace(/\b(?:between|and|or|keep|stay|be|must|should|shall|may|can)\b/gi, (w) => (/^(?:keep|stay)$/i.test(w) && polarity !== "cap" ? w : " "))
    .replace(gate ? TRIGGER : /$^/, " ");
  if (DOUBT.test(rest) || GRANT.test(rest) || PROPER.test(rest) || DESTINATION.test(rest.replace(BOUND_TO, " "))) return null;
  if (NEGATION.test(rest.replace(HUMAN_NEG, " "))) return null;
    const firmCap = polarity === "cap" && (boundNeg.length > 0 || (s.match(CAP_WORDS) ?? []).length > 0 || FIRM_UNDER.test(s));
  return { polarity, clause: s, figures, strict: under, factor: hedged ? 0.9 : 1, stableOnly, firmCap };
}

/** The action is on what the clause names outside its figures (its assets, venues, chains). */
function inScope(r: ThresholdReading, view: ActionView): boolean {
  const named = namedScope(r.clause.replace(/\d[\d,]*(?:\.\d+)?\s*(?:k|m|mm)?\s*[A-Za-z][A-Za-z0-9.]{1,9}/gi, " "));
  const own = view.assets.map((a) => a.toUpperCase());
  if (r.stableOnly && (own.length === 0 || !own.every((a) => USD_STABLES.has(a)))) return false;
  if (named.assets.length && (own.length === 0 || !own.every((a) => named.assets.some((n) => related(a, n))))) return false;
  return !(named.places.length && !named.places.some((p) => p === view.venue || p === view.chain));
}

/** True when the clause is thresholds only and the action is at or under every one of them. */
export function belowEveryThreshold(text: string, view: ActionView, ctx: Ctx): boolean {
  const r = readThresholds(text);
  if (!r || !inScope(r, view)) return false;
  return actionInside(r.clause, r.figures, view, ctx, { strict: r.strict, factor: r.factor, otherTokens: true });
}

/**
 * The other side of a firm cap: the action is over one of its figures under every reading (per action, or with the
 * named period's counter), a hedged figure counted a tenth higher. Returns the violation, or null. An order is
 * judged only when the clause says it measures size, since a bare dollar figure could be the price it may pay.
 */
export function overThreshold(text: string, view: ActionView, ctx: Ctx): string | null {
  const r = readThresholds(text);
  if (!r || !r.firmCap || !inScope(r, view)) return null;
  if (view.orders.length && !SIZE_WORDS.test(r.clause)) return null;
  const periods = PERIOD.filter(([re]) => re.test(r.clause)).map(([, p]) => p);
  const refs = r.clause.match(/\bcontext\.[A-Za-z0-9_.]+/g) ?? [];
  if (refs.length > 1 || (refs.length === 1 && periods.length === 0)) return null;
  const counterRef = refs[0]?.replace(/[.]+$/, "");
  for (const unit of new Set(r.figures.map((f) => f.unit))) {
    const limit = Math.min(...r.figures.filter((f) => f.unit === unit).map((f) => f.value)) / r.factor;
    const caps: Cap[] = [{ kind: "cap", limit: { value: limit, unit }, period: "action", scope: "any", strict: false, rule: text }];
    for (const period of periods) caps.push({ kind: "cap", limit: { value: limit, unit }, period, scope: "any", strict: false, rule: text, subject: "spent", counterRef });
    for (const cap of caps) {
      const over = checkCap(cap, view, ctx).find((f) => f.type === "violation");
      if (over) return over.message;
    }
  }
  return null;
}
