/**
 * Asset routes and closing restrictions. "SOL may only go to our deposit address X" names where one asset may
 * be sent: a recipient list bound to that asset, not an asset allowlist for every action. "Nothing else is
 * permitted" closes the list of permitted actions: what no sentence permits is then outside the rules.
 */
import type { Constraint } from "../types";
import { consume, scan, type Clause } from "../text";
import { add, asSymbol, uniq, type ParseState } from "./state";

const ROUTE_RE =
  /^\s*(?:all\s+|any\s+|our\s+)?([A-Za-z][A-Za-z0-9]{1,9}(?:\s*(?:,|and|or|\/|&)\s*[A-Za-z][A-Za-z0-9]{1,9}){0,4})\s+(?:transfers?\s+|payments?\s+|payouts?\s+|withdrawals?\s+|sends?\s+)?(?:may|can|should|must|shall|will|is to|are to)?\s*(?:only\s+)?(?:ever\s+)?(?:go|be sent|be paid(?: out)?|be transferred|be moved|be withdrawn|flow|leave)\s+(?:only\s+)?(?:to|into)\b/i;

/** The assets a route clause is about, consuming its subject and verb; null when the clause is not a route. */
export function routeAssets(c: Clause): string[] | null {
  const m = ROUTE_RE.exec(c.text);
  if (!m || c.used.slice(0, m[0].length).some(Boolean)) return null;
  const words = m[1].split(/\s*(?:,|\band\b|\bor\b|\/|&)\s*/).filter(Boolean);
  const syms = words.map((w) => asSymbol(w));
  if (syms.length === 0 || syms.some((s) => !s)) return null;
  consume(c, m.index, m.index + m[0].length);
  return uniq(syms as string[]);
}

/**
 * "and nothing else either", "nothing else (no memes)", "Everything else, including staking and account upgrades, is
 * prohibited": the examples are inside "else" (never a parenthesis that could carve an exception or a figure out of it).
 */
const EXHAUSTIVE_RE =
  /^\s*(?:and\s+)?(?:(?:nothing|no other (?:actions?|activit(?:y|ies)|transactions?|operations?))(?:\s+else)?\s+(?:is|are)?\s*(?:permitted|allowed|ok|okay|authori[sz]ed)|(?:anything|everything)\s+else(?:\s*,\s*(?:including|e\.g\.|such\s+as|like)\s+[^,;]{1,80},)?\s+(?:is\s+)?(?:forbidden|prohibited|not allowed|not permitted|banned|off[- ]limits)|no\s+others|nothing\s+(?:goes\s+|gets\s+(?:sent|paid)\s+)?to\s+(?:anyone|anybody|any\s+one)\s+else|(?:nothing|nobody|no[\s-]?one)\s+(?:else|beyond\s+(?:those|these|that|this|them|the\s+list))(?:\s+(?:either|whatsoever))?(?:\s*\((?![^)]*\b(?:except|unless|but|only|apart|besides|other\s+than|if|when)\b)(?![^)]*\d)[^)]{1,60}\))?)(?:,?\s+(?:ever|at\s+all|please|pls|plz|thanks|thx|thank you))?\s*$/i;

export function parseExhaustive(c: Clause, st: ParseState, rule: string): boolean {
  let hit = false;
  scan(c, EXHAUSTIVE_RE, () => {
    hit = true;
    add(st, { kind: "only_listed", rule });
  });
  return hit;
}

/**
 * Whole sentences that close the list of permissions, in the words owners use: "nothing else leaves the wallet",
 * "Transfers not covered by §1 or §2 are prohibited", "Any transfer outside (a) or (b) requires a vote and shall not
 * be executed by the agent", "deny * (anything not listed above)", "Other payments he must not do", "That is all
 * this wallet does", "It does nothing else". Each forbids only what no other sentence permits; none names a limit of its own, so reading it
 * can only narrow what the agent may do.
 */
const CLOSERS: RegExp[] = [
  /^\s*(?:and\s+)?(?:(?:that['’]?s|thats|that is)\s+it,?\s*)?nothing\s+else\s+(?:may|can|shall|should|will|is\s+to|is\s+allowed\s+to)?\s*(?:leaves?|go(?:es)?\s+out|gets?\s+(?:sent|paid)|be\s+sent|moves?|be\s+moved)(?:\s+(?:of\s+|from\s+)?(?:this|the|our|my)\s+(?:[\w-]+\s+){0,2}(?:wallet|account|safe|treasury|vault|address))?\s*[.!]?\s*$/i,
  /^\s*(?:any|all)?\s*(?:other\s+)?(?:transfers?|payments?|payouts?|sends?|moves?|transactions?|actions?|disbursements?)\s+(?:not\s+(?:covered|listed|described|named|mentioned|permitted)\s+(?:by|in|above|here)|outside(?:\s+of)?)\b[^.;]{0,60}?(?:\b(?:is|are)\s+(?:prohibited|forbidden|not\s+(?:permitted|allowed)|banned)|\b(?:shall|must|may|will|can)\s*(?:not|never)\s+be\s+(?:executed|done|made|sent|carried\s+out)(?:\s+by\s+the\s+(?:agent|bot))?)\s*[.!]?\s*$/i,
  /^\s*(?:deny|block|reject)\s*[:=]?\s*(?:\*|all|everything(?:\s+else)?|anything(?:\s+else)?)\s*(?:\(\s*(?:anything|everything)\s+(?:not\s+(?:listed|mentioned|allowed)|else)(?:\s+(?:above|here))?\s*\))?\s*$/i,
  /^\s*(?:any\s+)?other\s+(?:payments?|transfers?|sends?|transactions?|payouts?)\s+(?:(?:he|she|it|they|the\s+(?:agent|bot)|you)\s+)?(?:must|may|should|shall|can)\s*(?:not|never)(?:\s+(?:do|make|send|be\s+(?:made|done|sent)))?\s*[.!]?\s*$/i,
  // "Everything else is off", "anything else: out" (session 22): the list written is the only one.
  /^\s*(?:and\s+)?(?:anything|everything|all)\s+else\s*(?:is\s+|:\s*)?(?:off|out|a\s+no|denied|refused|not\s+ok(?:ay)?)\s*[.!]?\s*$/i,
  // "Nothing in this letter authorises transfers to third parties": the document grants nothing beyond what it says.
  // Only with no figure, bound or exception in it ("... payments above $5k" is a cap, not a closer).
  /^\s*(?:and\s+)?nothing\s+(?:in|of)\s+(?:this|these|the)\s+(?:letter|mandate|policy|document|resolution|instructions?|rules?|note|email|memo|agreement|section|schedule|authori[sz]ation)s?\s+(?:authori[sz]es|permits|allows|grants|empowers|entitles|covers)\b(?![^.;]*(?:\d|\$|%|§[a-z]\d|\b(?:above|over|more|less|under|below|beyond|except|unless|but|other\s+than|only|without|if|when)\b))[^.;]{0,100}[.!]?\s*$/i,
  // "no other transfers", "- no other payments pls": a bullet closing the list of moves the lines above permit.
  /^\s*(?:and\s+)?no\s+other\s+(?:transfers?|payments?|payouts?|sends?|withdrawals?|transactions?)(?:\s+(?:at\s+all|please|pls|allowed|permitted))?\s*[.!]?\s*$/i,
  // "It does nothing else.", "The bot may do nothing more": the subject is the agent, the rest closes the list.
  /^\s*(?:and\s+)?(?:it|this\s+(?:wallet|account|agent|bot)|the\s+(?:agent|bot|wallet|account))\s+(?:does|may\s+do|can\s+do|will\s+do|should\s+do|is\s+to\s+do)\s+nothing\s+(?:else|more)\s*[.!]?\s*$/i,
  /^\s*(?:that['’]s|that\s+is|thats)\s+all\s+(?:(?:this|the|our)\s+)?(?:wallet|account|agent|bot|it)\s+(?:does|may\s+do|can\s+do|is\s+for|is\s+allowed\s+to\s+do)\s*[.!]?\s*$/i,
];

export function isClosingSentence(s: string): boolean {
  return CLOSERS.some((re) => re.test(s));
}

/** One asset allowlist for moves: the union of every route's assets ("SOL may go to X. USDC may go to Y."). */
export function routeAssetList(cs: Constraint[]): Constraint | null {
  const routes = cs.filter((k): k is Extract<Constraint, { kind: "allow" | "deny" }> => k.kind === "allow" && !!k.forAssets?.length && k.grantId === undefined);
  if (routes.length === 0) return null;
  const values = uniq(routes.flatMap((r) => r.forAssets ?? []));
  return { kind: "allow", dim: "asset", values, activities: ["transfer", "payment", "withdrawal", "bridge"], rule: uniq(routes.map((r) => r.rule)).join("; ") };
}
