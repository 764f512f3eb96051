/**
 * After every clause was read: clauses left not understood only because they point at something the same intent
 * gives elsewhere are settled (their words recorded as ignored), and the open question they raised is withdrawn.
 */
import type { Activity } from "../types";
import { isRecipientNoun, isTimeWord } from "./reading";
import type { ParseState } from "./state";

/** Rules are quoted back in reasoning; a long clause is cut at a word boundary. */
export function shorten(q: string, max = 160): string {
  if (q.length <= max) return q;
  const cut = q.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max / 2))}…`;
}

const APPROVED_NOUN = /\b(?:an?|the|one of the|our)\s+(?:approved|listed|whitelisted|allowlisted|allowed|permitted|vetted)\s+(?:validators?|recipients?|payees?|vendors?|address(?:es)?|wallets?|counterpart(?:y|ies))\b/i;
const APPROVED_WORD = /^(?:approved|listed|whitelisted|allowlisted|allowed|permitted|vetted|validators?)$/i;

/** Words that make a clause a limit of some kind: such a clause is never read past. */
export const LIMITS_SOMETHING =
  /\b(?:only|solely|exclusively|never|no|not|none|nothing|nobody|except|unless|without|max(?:imum)?|min(?:imum)?|at most|at least|up to|must|shall|should|limit(?:s|ed)?|cap(?:s|ped)?|budget|ceiling|forbidden|prohibited|banned|disallowed|restricted|blocked|off[- ]limits|out of bounds|required?|requires|needs?|approval|sign[- ]?off|escalat\w*|above|below|under|over|exceed\w*|if|when|unless|until|before|after)\b|n['’]t\b|\d|[$%]/i;

/**
 * Clauses left not understood only because they point elsewhere in the same intent:
 * - "Pay only the vendors listed:" whose list follows as bullets: the recipient noun is the list the intent gives;
 * - "Weekend payments are fine" when payments are permitted elsewhere without a time: the time word narrows a
 *   permission that exists anyway, so reading past it grants nothing new.
 */
export function settleReferences(st: ParseState): void {
  const recipientList = st.constraints.some((k) => k.kind === "allow" && k.dim === "recipient" && (k.values.length > 0 || (k.refs?.length ?? 0) > 0));
  st.readings.forEach((r, idx) => {
    if (r.reading !== "not understood") return;
    const produced = r.constraints.map((i) => st.constraints[i]).filter(Boolean);
    // "... to the same grantees": the recipient list already given, restated.
    const pointsAtList = recipientList && /\b(?:listed|below|following|these|those|same)\b|:\s*$/i.test(r.clause) && r.unread.every(isRecipientNoun);
    // "delegate it to an approved validator" after the approved validators were listed: the list, restated. Only
    // when a list covers every activity the clause permits, so the restatement cannot widen anything.
    const covered = (acts: string[]) =>
      st.constraints.some((k) => k.kind === "allow" && k.dim === "recipient" && (k.values.length > 0 || (k.refs?.length ?? 0) > 0) && (k.activities.length === 0 || acts.every((a) => k.activities.includes(a as Activity))));
    const restatesList =
      APPROVED_NOUN.test(r.clause) &&
      r.unread.every((w) => APPROVED_WORD.test(w) || isRecipientNoun(w)) &&
      produced.length > 0 &&
      produced.every((k) => k.kind !== "permit" || covered(k.activities));
    const otherPermits = new Set(
      st.readings.flatMap((o, j) => (j === idx ? [] : o.constraints.map((i) => st.constraints[i]).flatMap((k) => (k && k.kind === "permit" ? k.activities : [])))),
    );
    // Only a permission that says "fine"/"ok"/"may": "Payouts on Fridays only" is a limit, never read past.
    const timedPermission =
      r.unread.every(isTimeWord) &&
      !LIMITS_SOMETHING.test(r.clause.replace(/\b(?:may|can)\b/gi, "")) &&
      /\b(?:fine|ok|okay|allowed|permitted|welcome|may|can)\b/i.test(r.clause) && produced.length > 0 && produced.every((k) => k.kind === "permit" && k.activities.every((a) => otherPermits.has(a)));
    if (!pointsAtList && !timedPermission && !restatesList) return;
    const at = st.unknown.findIndex((u) => u.startsWith(`Not understood: "${shorten(r.clause)}"`));
    if (at >= 0) st.unknown.splice(at, 1);
    st.readings[idx] = { ...r, reading: produced.length ? "constraint" : "descriptive", ignored: [...r.ignored, ...r.unread], unread: [] };
  });
}
