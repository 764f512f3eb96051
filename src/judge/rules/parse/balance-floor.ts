/**
 * A floor on what the wallet keeps after the action: "after any transfer the hot wallet must still hold at least
 * 2 ETH", "always keep at least 2 SOL in the wallet after the transfer", "never let the USDC balance drop below
 * 500", "leave a minimum of 0.5 ETH for gas". It is a rule about the state the action leaves behind, not about the
 * action's own size, so no cap reader takes it (a "keep at least 500 USDC" is not a minimum payment either).
 * The balance comes from the context at check time: the path the clause names ("its balance is
 * context.balances.ETH"), else the asset's entry in a balances map; never guessed (checks/balance-floor.ts).
 * Only a floor in a token's own units is read: a dollar floor needs prices of everything held, and stays unread.
 */
import { consume, parseNumber, scan, type Clause } from "../text";
import { asSymbol, add, type ParseState } from "./state";

const NUM = String.raw`(\d[\d,]*(?:\.\d+)?)`;
const SYM = String.raw`([A-Za-z][A-Za-z0-9]{1,9})`;
const AT_LEAST = String.raw`(?:at\s*least|a\s+minimum\s+of|min(?:imum)?(?:\s+of)?|no\s+less\s+than|not\s+less\s+than|>=|≥)`;
const STRICT_ABOVE = String.raw`(?:more\s+than|above|over|>)`;
/** "keep at least 2 SOL", "must still hold at least 2 ETH", "leave a minimum of 0.5 ETH", "retain >= 1 BTC". */
const KEEP = new RegExp(
  String.raw`\b(?:keep|keeps|leave|leaves|hold|holds|retain|retains|maintain|maintains|have|has)\s+(?:still\s+)?(?:(${AT_LEAST})|(${STRICT_ABOVE}))\s+${NUM}\s*${SYM}\b`,
  "gi",
);
/** "never let the SOL balance drop below 2", "the ETH balance must not fall under 1.5 ETH", "balance never below 300 USDC". */
const FALL = new RegExp(
  String.raw`\b(?:(?:never|don'?t|do\s+not|must\s+not)\s+let\s+)?(?:the\s+|our\s+|my\s+|its\s+|wallet['’]?s?\s+)*(?:${SYM}\s+)?balance\s+(?:(?:must|should|shall|may|can|will|is\s+to)\s+)?(?:never|not)?\s*(?:(?:drop|fall|go|dip|sink|get)\s+)?(?:below|under|lower\s+than|less\s+than)\s+${NUM}\s*(?:${SYM}\b)?`,
  "gi",
);

/** Words that only place the rule: where the balance is, when it is measured, how firmly it is said. */
const PLACE = [
  /\b(?:after|following)\s+(?:any|each|every|the|this|a|all)?\s*(?:transfers?|sends?|payments?|payouts?|withdrawals?|transactions?|actions?|txs?|swaps?|stakes?|top[- ]?ups?|moves?)\b/gi,
  /\b(?:in|on|of)\s+(?:the|this|our|my|its)\s+(?:\w+\s+)?(?:wallet|account|safe|vault|treasury)\b/gi,
  /\b(?:the|this|our|my)\s+(?:\w+\s+)?(?:wallet|account|safe)\b(?=\s+(?:must|should|shall|has|needs|always|still|keeps?|holds?|retains?)\b)/gi,
  /\b(?:must|should|shall|has\s+to|needs?\s+to|always|still|pls|please|at\s+all\s+times|remaining|left)\b/gi,
  /\b(?:for\s+gas|as\s+(?:a\s+)?(?:gas\s+)?(?:buffer|reserve|cushion))\b/gi,
];
/** "(its balance is context.x)", "the balance is context.x", "(balance: context.x)", "balance in context.x". */
const BALANCE_AT = /\(?\s*(?:(?:its|the|current|wallet|our)\s+)*(?:\w+\s+)?balance\s*(?:is\s+(?:in\s+|at\s+)?|:\s*|in\s+|at\s+|=\s*)§c(\d+)\s*\)?/gi;

export function parseBalanceFloor(c: Clause, st: ParseState, rule: string): void {
  if (!/\b(?:keep|keeps|leave|leaves|hold|holds|retain|retains|maintain|maintains|have|has|balance)\b/i.test(c.text)) return;
  const found: Array<{ asset: string; min: number; strict: boolean }> = [];
  scan(c, KEEP, (m) => {
    const asset = asSymbol(m[4]);
    const min = parseNumber(m[3]);
    if (!asset || min === null || !stateWords(c.text)) return false;
    found.push({ asset, min, strict: Boolean(m[2]) });
  });
  scan(c, FALL, (m) => {
    const asset = asSymbol(m[1] ?? "") ?? asSymbol(m[3] ?? "");
    const min = parseNumber(m[2]);
    // "below" with no "not/never" reads the other way ("when the balance is below 2"): only a prohibition is a floor.
    if (!asset || min === null || !/\b(?:never|not|don'?t)\b/i.test(m[0])) return false;
    if (m[1] && m[3] && asSymbol(m[1]) !== asSymbol(m[3])) return false;
    found.push({ asset, min, strict: false });
  });
  if (found.length === 0) return;
  let path: string | undefined;
  const paths: string[] = [];
  scan(c, BALANCE_AT, (m) => {
    paths.push(c.refs.ctx[Number(m[1])]);
  });
  // A bare path left in the clause ("... 2 SOL, context.hot.sol") is where the balance is only when it is the one path.
  if (paths.length === 0) {
    const bare = [...c.text.matchAll(/§c(\d+)/g)].filter((m) => !c.used[m.index ?? 0]);
    if (bare.length === 1) {
      paths.push(c.refs.ctx[Number(bare[0][1])]);
      consume(c, bare[0].index ?? 0, (bare[0].index ?? 0) + bare[0][0].length);
    }
  }
  if (paths.length === 1) path = paths[0];
  for (const re of PLACE) scan(c, re, () => undefined);
  for (const f of found) add(st, { kind: "balance_floor", asset: f.asset, min: f.min, strict: f.strict, ...(path ? { path } : {}), rule });
}

/** "keep at least 2 SOL" is a floor on what stays; "has at least 2 SOL" needs a word saying it is what remains. */
function stateWords(text: string): boolean {
  return /\b(?:keep|keeps|leave|leaves|retain|retains|maintain|maintains|still|after|following|always|at\s+all\s+times|remain\w*|left|balance|reserve|buffer)\b/i.test(text);
}
