/**
 * Review bands: an owner splits actions by size into tiers. Below a figure the agent acts alone, in a band a
 * named human decides, above a hard cap nothing is allowed. Owners state the lowest tier as a permission ("An
 * order of 4,000 USD or less may be sent by the agent on its own", "bets under 25 bucks u can just place",
 * "0 to 150 STRK: go ahead", "no need to check with me for anything under 2k", "Up to 2 ETH it signs alone").
 *
 * Such a figure is where a human takes over, not a ceiling: read as a hard cap it BLOCKs what the owner wanted to
 * see, and left unread it holds every action. So a per-action cap in a clause that says the agent acts alone
 * becomes a human line at that figure ("up to X" / "X or less": above X; "under X" / "below X": from X on).
 *
 * Invariant (the unsafe side): this only ever turns a cap into a human line, never into a permission. The
 * "alone" words grant nothing: the activity must be permitted by the clause's own verb or another rule, and every
 * other cap, list or prohibition still applies. A human line never yields ALLOW above it.
 */
import type { Constraint } from "../types";
import { consume, parseNumber, scan, type Clause } from "../text";
import { asSymbol, type ParseState } from "./state";
import { namedScope } from "./amounts";
import { NO_ASK } from "./referrals";

/**
 * The agent acting alone. "separately" is how text.ts spells "on its own"; it counts only with the actor
 * ("sent by the agent separately"), since "each transfer counts separately" is a per-item cap.
 */
const ALONE = new RegExp(
  [
    String.raw`\b(?:by|for)\s+(?:the\s+)?(?:agent|bot|it|itself)\s+(?:separately|alone|by\s+itself|unilaterally|independently)\b`,
    String.raw`\b(?:agent|bot|it|you|u)\s+(?:\w+\s+){0,2}?(?:signs?|sends?|pays?|acts?|places?|executes?|handles?|decides?|goes|proceeds?)\s+(?:it\s+|them\s+)?(?:separately|alone|by\s+(?:itself|yourself)|unilaterally|independently)\b`,
    String.raw`\b(?:the\s+)?(?:agent|bot|it)\s+(?:\w+\s+){0,2}?(?:them|it)\s+(?:by\s+itself|alone|separately|unilaterally)\b`,
    String.raw`\b(?:without|with\s+no)\s+(?:any\s+|a\s+|prior\s+|my\s+|our\s+)?(?:human\s+|manual\s+|further\s+)?(?:review|approval|sign[- ]?off|ok|okay|go-?ahead|co-?signer|co-?signature|asking(?:\s+(?:me|us|anyone))?|checking(?:\s+(?:with|w\/?)\s+(?:me|us|anyone))?)\b`,
    String.raw`\bwithout\s+(?:anyone|anybody|someone|a\s+human|me|us|a\s+person)\s+(?:reviewing|approving|checking|signing\s+off\s+on|okaying|looking\s+at)(?:\s+(?:it|them|this|that))?\b|\bcan\s+go\s+(?:through|out)(?=\s+without\b)`,
    String.raw`\b(?:you|u|it|the\s+(?:agent|bot))\s+(?:can|may|could)\s+just(?:\s+(?:do|send|place|pay|go|execute|sign)(?:\s+(?:it|them|em|'em))?)?\b`,
    String.raw`\bjust\s+(?:do\s+(?:it|them|em|'em)|send\s+(?:it|them)|go\s+for\s+it)\b|\bgo(?:es)?\s+ahead\b|\bfeel\s+free\b`,
  ].join("|"),
  "gi",
);

/** Helper words of the alone phrase; verbs are left to the permission reader, which decides what is permitted. */
const ALONE_FILLER = /\b(?:just|freely)\b/gi;

/** "0 to 150 STRK: go ahead", "from 0 to 40 USDC it can just pay": the band's top is the agent's own edge. */
const NUM = String.raw`\d[\d,]*(?:\.\d+)?`;
const LOW_BAND = new RegExp(String.raw`^\s*(?:from\s+)?(\$)?(?:0|0\.0+|zero)\s*(?:to|-|–|up\s+to)\s*(\$)?(${NUM})\s*(k)?(?:\s*(usd|usdc|usdt|dollars?|bucks|[A-Za-z]{2,6})\b)?`, "i");

function unitOf(dollar: boolean, word: string | undefined, st: ParseState): string | null {
  if (dollar) return "USD";
  if (!word) return st.bareUnit ?? (st.stableOnly ? "USD" : null);
  if (/^(?:usd|dollars?|bucks)$/i.test(word)) return "USD";
  return asSymbol(word);
}

/**
 * After the amount readers: caps this clause produced (from `from`) become human lines when the clause says the
 * agent acts alone below them. Returns true when the clause was read as a tier.
 */
export function readAloneTier(c: Clause, st: ParseState, rule: string, from: number): boolean {
  const alone = firstFree(c, ALONE) ?? firstFree(c, new RegExp(NO_ASK.source, "gi"));
  if (!alone) return false;
  const caps = st.constraints.map((k, i) => [k, i] as const).filter(([k, i]) => i >= from && k.kind === "cap" && k.period === "action" && !k.limitOf);
  if (caps.length === 0) {
    const band = LOW_BAND.exec(c.text);
    if (!band || c.used[band.index + band[0].length - 1]) return false;
    const unit = unitOf(!!(band[1] ?? band[2]), band[5], st);
    const v = parseNumber(band[3], band[4]);
    if (!unit || v === null) return false;
    st.constraints.push({ kind: "escalate_above", limit: { value: v, unit }, scope: namedScope(c.text), inclusive: false, noGrant: true, rule });
    st.bareUnit = unit;
    consume(c, band.index, band.index + band[0].length);
  }
  for (const [k, i] of caps) {
    const cap = k as Extract<Constraint, { kind: "cap" }>;
    // "under 25" leaves 25 itself to the human; "up to 4,000" / "4,000 or less" keeps it with the agent.
    st.constraints[i] = { kind: "escalate_above", limit: cap.limit, scope: cap.scope, inclusive: cap.strict, noGrant: true, rule: cap.rule };
    st.bareUnit = cap.limit.unit;
  }
  consume(c, alone.index, alone.index + alone[0].length);
  scan(c, ALONE, () => undefined);
  scan(c, ALONE_FILLER, () => undefined);
  // "no need to check with me for anything under 2k": the "for anything" is the tier's subject.
  scan(c, /\b(?:for\s+)?(?:anything|any\s+amount|amounts?|everything)\b/gi, () => undefined);
  return true;
}

function firstFree(c: Clause, re: RegExp): RegExpExecArray | null {
  const g = new RegExp(re.source, "gi");
  let m: RegExpExecArray | null;
  while ((m = g.exec(c.text)) !== null) {
    if (m[0].length === 0) {
      g.lastIndex++;
      continue;
    }
    if (!c.used.slice(m.index, m.index + m[0].length).some(Boolean)) return m;
  }
  return null;
}

/** Any human line read in the intent so far sets the unit a later bare band or cap takes ("nothing over 75"). */
export function noteBandUnit(st: ParseState, from: number): void {
  for (let i = from; i < st.constraints.length; i++) {
    const k = st.constraints[i];
    if (k.kind === "escalate_above") st.bareUnit = k.limit.unit;
  }
}
