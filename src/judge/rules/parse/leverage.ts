/**
 * Leverage rules: caps ("Leverage at most 5x", "max 3x leverage"), caps per asset or group ("max 3x on alts, 8x on
 * BTC and ETH"), a human above a figure ("leverage changes above 5x need my sign-off"), bans on changing or raising
 * it, and "no leverage".
 */
import { consume, scan, type Clause } from "../text";
import { add, asSymbol, type ParseState } from "./state";
import { CAP_WORDS, ESCALATE_RE, STRICT, firstIn, take } from "./amounts";

/** Words for "every asset the rule did not name" ("max 3x on alts, 8x on BTC and ETH"). */
const OTHER_ASSETS = String.raw`alts|altcoins|alt-?coins|alt\s+perps|other\s+(?:assets|coins|markets|perps|tokens|names)|everything\s+else|anything\s+else|the\s+rest|all\s+others|others`;

/**
 * Leverage caps per asset or group in one clause: "max 3x on alts, max 8x on BTC and ETH", "5x for SOL, 2x for
 * everything else". A group of "the others" needs a named set beside it to be the complement of; without one
 * nothing is read here, and the clause stays for the general reader (or is not understood).
 */
function parseLeverageByAsset(c: Clause, st: ParseState, rule: string): void {
  const word = String.raw`(?!(?:max|maximum|at|up|capped|cap|limit|leverage|lev|but|except|everything|anything|the|others?|alts|altcoins|all)\b)[A-Za-z][A-Za-z0-9]{1,9}`;
  const list = String.raw`(?:${OTHER_ASSETS}|${word}(?:\s*(?:,|/|&|\band\b|\bor\b)\s*${word})*)`;
  const re = new RegExp(String.raw`(?:\b(?:${CAP_WORDS})\s+)?(\d+(?:\.\d+)?)\s*x(?:\s+(?:max(?:imum)?|leverage|lev))?\s+(?:on|for)\s+(?:the\s+)?(${list})(?:\s+perps?)?\b`, "gi");
  const parts: Array<{ max: number; assets: string[] | null; at: [number, number] }> = [];
  for (let m = re.exec(c.text); m; m = re.exec(c.text)) {
    const group = new RegExp(String.raw`^(?:${OTHER_ASSETS})$`, "i").test(m[2].trim());
    const assets = group ? null : m[2].split(/\s*(?:,|\/|&|\band\b|\bor\b)\s*/i).map((w) => asSymbol(w.trim()));
    if (assets && assets.some((a) => a === null)) return; // a word that is not an asset: not this shape
    parts.push({ max: Number(m[1]), assets: assets as string[] | null, at: [m.index, m.index + m[0].length] });
  }
  const named = parts.flatMap((p) => p.assets ?? []);
  // Only with a group for "the rest" is every asset covered; named caps alone leave the others to the general reader.
  if (parts.length < 2 || named.length === 0 || parts.filter((p) => !p.assets).length !== 1) return;
  for (const p of parts) {
    add(st, p.assets ? { kind: "leverage_cap", max: p.max, assets: p.assets, rule } : { kind: "leverage_cap", max: p.max, except: named, rule });
    consume(c, p.at[0], p.at[1]);
  }
  scan(c, /\bleverage(?:\s+(?:limits?|caps?|ceilings?|maximums?))?\b\s*:?/gi, () => undefined);
}

/** Leverage caps ("Leverage at most 5x", "max 3x leverage"), bans on changing it, and "no leverage". */
export function parseLeverage(c: Clause, st: ParseState, rule: string): void {
  if (!/leverage|\d\s*x\b/i.test(c.text)) return;
  const from = st.constraints.length;
  readLeverage(c, st, rule);
  // "Leverage you can put up to 5x": once the clause's figure is read, its subject word is read with it.
  if (st.constraints.slice(from).some((k) => k.kind === "leverage_cap" || k.kind === "leverage_escalate")) scan(c, /\bleverage\b/gi, () => undefined);
}

function readLeverage(c: Clause, st: ParseState, rule: string): void {
  parseLeverageByAsset(c, st, rule);
  // "Leverage changes above 5x need my sign-off": above the figure a human decides; it is not a hard cap.
  const esc = /leverage/i.test(c.text) ? firstIn(c, ESCALATE_RE, 0, c.text.length) : null;
  if (esc) {
    scan(c, /\b(?:above|over|beyond|past|higher than|greater than|more than|exceeding|in excess of)\s+(\d+(?:\.\d+)?)\s*x\b/gi, (m) => {
      add(st, { kind: "leverage_escalate", above: Number(m[1]), rule });
      take(c, esc);
    });
  }
  // "Never raise leverage above 3x": a cap on the setting, not a ban on every increase.
  scan(c, /\b(?:never|do not|don't|must not|not|cannot|can't|should not|may not)\s+(?:ever\s+)?(?:increase|raise|bump|set|push|take|put|run|use|change|move|adjust|lift)\s+(?:the\s+|any\s+|our\s+)?leverage\s+(?:above|over|beyond|past|higher than|more than|greater than)\s+(\d+(?:\.\d+)?)\s*x\b/gi, (m) => {
    add(st, { kind: "leverage_cap", max: Number(m[1]), rule });
  });
  scan(c, /\b(?:never|do not|don't|must not|no|not|cannot|can't|should not|may not)\s+(?:ever\s+)?(?:change|changes|changing|modify|modifying|adjust|adjusting|update|updating|alter|altering|touch|touching|set|setting|edit|editing)\s+(?:the\s+|any\s+|account\s+)?leverage(?:\s+settings?)?(?:\s+(?:on|for)\s+any\s+(?:market|asset|position))?\b|\bno\s+leverage\s+(?:changes?|adjustments?|updates?|modifications?)\b|\bleverage\s+(?:changes?|adjustments?|updates?|modifications?)\s+(?:are|is)\s+(?:not\s+(?:allowed|permitted)|forbidden|prohibited|banned|disallowed)\b|\bleave\s+(?:the\s+)?leverage\s+(?:settings?\s+)?(?:as it is|as is|unchanged|alone)\b|\bleverage\s+(?:settings?\s+)?(?:must|should)\s+(?:not\s+change|stay\s+(?:unchanged|the same|as is))\b/gi, () => {
    add(st, { kind: "forbid", activities: ["leverage"], label: "changing leverage", rule });
  });
  scan(c, /\b(?:never|do not|don't|must not|not|cannot|should not)\s+(?:increase|raise|bump|add)\s+(?:the\s+)?leverage\b|\bno\s+leverage\s+increases?\b/gi, () => {
    add(st, { kind: "no_leverage_increase", rule });
  });
  scan(c, /\b(?:no|without|zero)\s+leverage(?:d)?(?:\s+trading)?\b(?!\s+(?:above|over|beyond|greater|higher|more|exceeding|in excess|of more))|\bunleveraged\b|\b1x\s+only\b|\bonly\s+1x\b/gi, () => {
    add(st, { kind: "leverage_cap", max: 1, rule });
  });
  const capLev = new RegExp(
    String.raw`\b(?:(?:max(?:imum)?\s+)?leverage\s*[:=]?\s+(?:(?:must|should|may|can|shall)\s+(?:be\s+|stay\s+|remain\s+)?)?(?:is\s+|of\s+|capped\s+|limited\s+|limit\s+|cap\s+)?(?:(?:${CAP_WORDS})\s+)?(?:of\s+|at\s+|to\s+)?(\d+(?:\.\d+)?)\s*x?(?:\s+(?:or\s+(?:less|lower|below|under)|max(?:imum)?|at most))?|(?:${CAP_WORDS})\s+(\d+(?:\.\d+)?)\s*x(?:\s+(?:max(?:imum)?\s+)?leverage)?|(\d+(?:\.\d+)?)\s*x\s+(?:max(?:imum)?\s+leverage|leverage\s+(?:max(?:imum)?|cap|limit)|max(?:imum)?|or less|at most|cap|leverage)|(?:max(?:imum)?|cap|limit)\s+(?:of\s+)?(\d+(?:\.\d+)?)\s*x)\b`,
    "gi",
  );
  scan(c, capLev, (m) => {
    const n = Number(m[1] ?? m[2] ?? m[3] ?? m[4]);
    if (!Number.isFinite(n)) return false;
    const strict = STRICT.test(m[0]);
    add(st, { kind: "leverage_cap", max: strict ? n - 1e-9 : n, rule });
  });
}
