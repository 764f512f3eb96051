/**
 * A share one asset may hold of a pair after the action: "after any stake, stETH may not exceed 50% of combined ETH
 * plus stETH holdings (context.holdings)", "WBTC never more than 30% of our WBTC and USDC balances
 * (context.balances)". The holdings come from the path the clause names; the check moves them by what the action
 * does and compares the share it leaves (checks/post-share.ts). Only a pair that contains the capped asset and a
 * path are read: "stETH at most 50% of the portfolio" (everything held, priced) stays unread.
 */
import { scan, type Clause } from "../text";
import { add, asSymbol, type ParseState } from "./state";

const SYM = String.raw`([A-Za-z][A-Za-z0-9]{1,9})`;
const SHARE = new RegExp(
  String.raw`\b(?:(?:after|following)\s+(?:any|each|every|the|a|this)\s+[a-z]+\s*,?\s+)?${SYM}\s+(?:(?:may|must|shall|should|can|will)\s+)?(?:(?:not|never)\s+(?:exceed|be\s+(?:more|greater|larger)\s+than|go\s+above|be\s+above|rise\s+above)|(?:stays?|remains?|is|be)\s+(?:at\s+most|no\s+more\s+than|not\s+more\s+than))\s+(\d+(?:\.\d+)?)\s*%\s+of\s+(?:the\s+|our\s+|my\s+)?(?:(?:combined|total|joint)\s+)?${SYM}\s+(?:plus|and|\+)\s+${SYM}\s*(?:(?:holdings?|balances?|combined|together|held)\s*)?\(?\s*(?:in\s+|at\s+|see\s+)?§c(\d+)\s*\)?`,
  "gi",
);

export function parsePostShare(c: Clause, st: ParseState, rule: string): void {
  if (!/%/.test(c.text) || !/§c\d/.test(c.text)) return;
  scan(c, SHARE, (m) => {
    const asset = asSymbol(m[1]);
    const a = asSymbol(m[3]);
    const b = asSymbol(m[4]);
    const path = c.refs.ctx[Number(m[5])];
    if (!asset || !a || !b || !path || a === b || (asset !== a && asset !== b)) return false;
    add(st, { kind: "post_share", asset, of: [a, b], maxPct: Number(m[2]), path, rule });
  });
}
