/**
 * Figures the owner wrote without a unit: "max 500 per order", "2,000 max per invoice", "not above 2 per transfer",
 * "anything over 40 ask me first". Nothing in the rules says whether 500 is dollars, the traded coin or (on a
 * prediction market) shares, and the readings can be hundreds of times apart. Guessing one is unsafe either way, so
 * the figure keeps them all (`Quantity.readings`): the check decides only where they agree (checks/readings.ts).
 *
 * Read only where the figure is plainly a per-action amount: after a cap word ("max", "not above", "over") or before
 * one ("2,000 max", "40 tops"), and followed by nothing that could make it something else: the end of the phrase, the
 * action it counts ("per order", "each", "a bet", "in one transfer"), another cap word, or a human phrase ("ask me
 * first"). A period ("per day", "a week") could make it a count of actions, a percentage or multiple is not money,
 * and any other word could be a unit we do not know: those stay unread.
 */
import { OPEN_UNIT, OWN_UNIT, type Quantity } from "../types";

/** Every value in every unit: "max 500" -> $500 or 500 of the action's own units; "1.200 USDC" -> 1.2 or 1,200 USDC. */
export function openFigure(values: number[], units: string[] = ["USD", OWN_UNIT]): Quantity {
  return { value: Math.max(...values), unit: OPEN_UNIT, readings: values.flatMap((value) => units.map((unit) => ({ value, unit }))) };
}

/**
 * A figure number-forms.ts held because its one dot group has two readings ("1.200": 1.2 or 1,200); the placeholder
 * `§nK` stands for refs.numbers[K]. Both values, or null when it is not such a figure.
 */
export function heldValues(text: string, numbers: string[]): number[] | null {
  const m = /^§n(\d+)$/.exec(text);
  const raw = m ? numbers[Number(m[1])] : undefined;
  const g = raw ? /^(\d{1,3})\.(\d{3})$/.exec(raw) : null;
  return g ? [Number(`${g[1]}.${g[2]}`), Number(g[1] + g[2])] : null;
}
/** The placeholder of a held figure, as the amount readers meet it. */
export const HELD = String.raw`§n\d+`;

/** What a per-action amount is counted per ("per order", "a bet", "each transfer"); never a period. */
const ACTION_NOUN = String.raw`(?:orders?|trades?|bets?|wagers?|positions? opened|swaps?|payments?|transfers?|payouts?|sends?|requests?|calls?|invoices?|bills?|withdrawals?|transactions?|txs?|tickets?|tips?|deposits?|fills?|entr(?:y|ies)|purchases?|buys?|sells?|disbursements?|remittances?|top[- ]?ups?|one)`;

/** What may follow an open figure: the phrase ends, the action it counts, a cap word, or a human phrase. */
export const OPEN_TAIL = new RegExp(
  String.raw`^(?:\s*(?:$|[,;.:)!?]|-\s)|\s+(?:(?:per|each|every|a|an|any|one|(?:in|on|for)\s+(?:any\s+)?(?:one|a|an|any|each|a\s+single|single))\s+(?:single\s+)?${ACTION_NOUN}\b|each(?=\s*(?:$|[,;.:)!?]))|apiece\b|max(?:imum)?\b|tops\b|at\s+most\b|or\s+(?:less|lower|under|below)\b|(?:ask|ping|text|call|check|confirm|escalate|flag|hold|needs?|requires?|must|should|gets?|goes|go|wants?|want)\b|(?:is|are)\s+(?:fine|ok|okay|the\s+(?:max|limit|ceiling|cap))\b))`,
  "i",
);

/**
 * A clause about a price, a rate or a setting: its bare figure is a price ("buy only below 0.5"), a multiple or a
 * rate, never an amount of money moved, so it is not opened.
 */
export const NOT_AN_AMOUNT = /\b(?:prices?|priced|odds|probabilit\w*|leverage|lev|slippage|slip|fees?|funding|health|ratio|ltv|apy|apr|rates?|spread|impact|margin\s+ratio|per\s+share|a\s+share|each\s+share|cents?\s+a\s+share)\b/i;

/** A figure before a cap word: "2,000 max per invoice", "40 tops", "500 or less each". */
export const FIGURE_THEN_CAP = /(?<![\w$.,€£¢'’])(\d[\d,]*(?:\.\d+)?|\.\d+|§n\d+)(?<!,)\b(?![.,]\d)\s+(?:max(?:imum)?|tops|at\s+most|or\s+(?:less|lower|under|below))\b/gi;
