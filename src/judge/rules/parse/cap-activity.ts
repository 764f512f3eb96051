/**
 * Which activity a cap counts, when its words name one: "max supply per tx: 50k USD", "$10k per deposit", "no single
 * supply exceeds 40,000 USDC", "each wrap at most 2 ETH". A cap that names one activity binds that activity alone, so
 * a withdrawal is never held to a deposit cap; naming none (or two) it stays a cap on every action in its scope.
 */
import type { Activity } from "../types";

const CAPPED_ACTIVITY: Array<[RegExp, Activity[]]> = [
  [/^(?:supply|supplies|deposit|deposits)$/i, ["supply", "vault_deposit"]],
  [/^(?:borrow|borrows|borrowing)$/i, ["borrow"]],
  [/^(?:repay|repays|repayment|repayments)$/i, ["repay"]],
  [/^(?:wrap|wraps|wrapping)$/i, ["wrap"]],
  [/^(?:stake|stakes|staking)$/i, ["stake", "delegate"]],
];

/**
 * "max supply per tx: 50k USD", "borrow cap 10k": the cap word names the one activity it counts, so a withdrawal
 * is not held to a supply cap. Only a verb right next to the cap word; anything looser stays a cap on every action.
 */
export function cappedActivity(text: string): Activity[] | undefined {
  const m = /\b(?:max(?:imum)?|cap(?:ped)?|limit)\s+(\w+)\s+(?:per|each|a|in one|[:=])|\b(\w+)\s+(?:cap|limit|max(?:imum)?)\s*(?:per\b|each\b|[:=]|of\b|is\b|\d|\$)/i.exec(text);
  const verb = m?.[1] ?? m?.[2];
  const named = verb ? CAPPED_ACTIVITY.find(([re]) => re.test(verb))?.[1] : undefined;
  if (named) return named;
  // "$10k per deposit", "no single supply exceeds 40,000 USDC", "each wrap at most 2 ETH": the unit the cap counts
  // is an activity, so it is a cap on that activity alone. Two such nouns in the window and neither is taken.
  const units = [...text.matchAll(/\b(?:per|each|every|(?:a|any|no|one)\s+single|single|in\s+(?:a\s+)?single|in\s+one)\s+(\w+)/gi)]
    .map((u) => CAPPED_ACTIVITY.find(([re]) => re.test(u[1]))?.[1])
    .filter((a): a is Activity[] => !!a);
  return units.length === 1 ? units[0] : undefined;
}

/** Words naming a kind of action in a human line's subject, each with the family it belongs to. */
const LINE_NOUNS: Array<[RegExp, string]> = [
  [/^withdraw\w*$/i, "withdrawal"],
  [/^(?:deposit\w*|suppl(?:y|ies|ying)|transfer\w*|send\w*|sent|pay\w*|move\w*|spend\w*|grant\w*|tip\w*|disburse\w*|outflow\w*|bridg\w*)$/i, "other"],
  [/^(?:order\w*|trade\w*|trading|swap\w*|buy\w*|sell\w*|bet\w*|position\w*|borrow\w*|loan\w*|repay\w*|stak\w*|delegat\w*|approv\w*)$/i, "other"],
  [/^(?:anything|everything|action\w*|tx|txs|transactions?)$/i, "other"],
];

/**
 * "Withdrawals above 500 USDC require human approval": a human line whose subject names withdrawals and no other kind
 * of action does not hold a deposit into a lending pool or vault (money going in is never a withdrawal), so a 15,000
 * USDC supply is not held by it. Owners call many outflows a withdrawal (a send from the wallet, a stake account's
 * withdraw), so the line keeps holding every other kind of action; and deposits are never narrowed the other way
 * ("deposits to the exchange above 5k" may be a plain transfer).
 */
export function lineExempt(subject: string): Activity[] | undefined {
  const families = new Set<string>();
  for (const w of subject.match(/[A-Za-z]+/g) ?? []) {
    const hit = LINE_NOUNS.find(([re]) => re.test(w));
    if (hit) families.add(hit[1]);
  }
  return families.size === 1 && families.has("withdrawal") ? ["supply", "vault_deposit"] : undefined;
}
