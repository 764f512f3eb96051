/**
 * Order-shape rules: side (long-only), reduce-only, order type and time-in-force, and approval shape
 * ("no unlimited approvals", "approvals only for the exact amount").
 */
import { consume, scan, type Clause } from "../text";
import { ESCALATE_RE } from "./amounts";
import { readSizeThreshold } from "./twap";
import { refusedTypes, typesReferred } from "./tif-polarity";
import type { Constraint } from "../types";
import { add, asSymbol, type ParseState } from "./state";

const NEG = String.raw`(?:no|never|not|do not|don't|must not|mustn't|cannot|can't|should not|may not)`;

/** "cross only", "isolated margin only", "positions shall use isolated margin", "margin mode: cross". */
/**
 * "If you want change some coin to isolated margin, before you must ask me", "switching to cross needs my OK": a
 * human decides a switch to that mode. Only with a human phrase in the clause; the switch itself is permitted by
 * nothing here (a leverage setting still needs its own permission and caps).
 */
const MODE_SWITCH = /\b(?:switch|chang|mov|set|put|turn|flip|go)\w*\s+(?:(?:a|any|some|the|this|that|each|every|one|our)\s+)?(?:[\w-]+\s+){0,2}?(?:to|into|onto|on)\s+(cross|isolated)(?:[- ]margin)?(?:\s+mode)?\b/gi;

function parseModeSwitchReferral(c: Clause, st: ParseState, rule: string): void {
  const esc = new RegExp(ESCALATE_RE.source, "i").exec(c.text);
  if (!esc || c.used[esc.index]) return;
  let read = false;
  scan(c, MODE_SWITCH, (m) => {
    add(st, { kind: "margin_mode", mode: m[1].toLowerCase() as "cross" | "isolated", escalate: true, rule });
    read = true;
  });
  if (!read) return;
  consume(c, esc.index, esc.index + esc[0].length);
  // The condition around it ("if you want (to) ...", "before you must ...") is the referral's.
  scan(c, /\b(?:if|when|whenever|before|first)\b|\b(?:you|u|the\s+(?:agent|bot))\s+(?:want|wants|need|needs|would\s+like)(?:\s+to)?\b|\b(?:you|u)\s+(?:must|have\s+to|should|need\s+to)\b/gi, () => undefined);
}

export function parseMarginMode(c: Clause, st: ParseState, rule: string): void {
  parseModeSwitchReferral(c, st, rule);
  // "isolated margin pls", "Cross.": a clause that is only the mode.
  scan(c, /^\s*(?:and\s+)?(?:please\s+|pls\s+)?(?:keep\s+(?:it\s+)?(?:on\s+)?)?(cross|isolated)(?:[- ]margin)?(?:\s+mode)?(?:\s+(?:pls|please|always|thx|thanks))?\s*[.!]?\s*$/gi, (m) =>
    add(st, { kind: "margin_mode", mode: m[1].toLowerCase() as "cross" | "isolated", rule }),
  );
  // "isolated margin top-ups": which margin is topped up, not a rule about the mode.
  scan(c, /\b(?:cross|isolated)(?=[- ]margin\s+(?:top[- ]?ups?|additions?|adjustments?|changes?|transfers?|removals?)\b)/gi, () => undefined);
  scan(
    c,
    /\b(?:(?:only|always)\s+(?:use\s+)?(cross|isolated)(?:[- ]margin)?(?:\s+mode)?|(cross|isolated)(?:[- ]margin)?(?:\s+mode)?\s+only|(?:use|using|uses|in|on|at)\s+(cross|isolated)(?:[- ]margin)?(?:\s+mode)?|margin\s+mode\s*[:=]?\s*(?:(?:must|shall|should|will)\s+(?:always\s+)?be\s+|is\s+)?(cross|isolated))\b/gi,
    (m) => {
      const mode = (m[1] ?? m[2] ?? m[3] ?? m[4]).toLowerCase() as "cross" | "isolated";
      add(st, { kind: "margin_mode", mode, rule });
    },
  );
}

/** "i never want to be short", "I don't wanna go long": the owner's wish is the rule. */
const WANT = String.raw`(?:(?:want|wanna|intend|plan)\s+(?:to\s+)?|like\s+to\s+)?`;
/**
 * The coins a direction rule names right after it ("longs only on HYPE", "never short hype", "no shorts in BTC or
 * ETH"): only a run of token symbols counts, and it is consumed; anything else leaves the rule on every coin.
 */
function sideAssets(c: Clause, m: RegExpExecArray, keep = false): { assets?: string[] } {
  const end = m.index + m[0].length;
  const lead = /^\s+(?:(?:on|in|for|with)\s+)?(?:the\s+)?/.exec(c.text.slice(end));
  if (!lead) return {};
  const syms: string[] = [];
  let at = end + lead[0].length;
  let stop = end;
  for (;;) {
    const w = /^([A-Za-z][A-Za-z0-9]{0,9})\b/.exec(c.text.slice(at));
    const sym = w ? asSymbol(w[1]) : null;
    if (!w || !sym) break;
    syms.push(sym);
    stop = at + w[0].length;
    const sep = /^\s*(?:,|\/|&|\band\b|\bor\b)\s*/.exec(c.text.slice(stop));
    if (!sep) break;
    at = stop + sep[0].length;
  }
  if (!syms.length) return {};
  // "only go short ETH" ("only" over the whole phrase) also says which coin is traded: the asset-list reader still
  // reads the symbols. "longs only on HYPE" limits the direction on HYPE, not the coins.
  if (!keep) consume(c, end, stop);
  return { assets: [...new Set(syms)] };
}

const NEG_START = new RegExp(String.raw`^${NEG}\b|\b(?:not allowed|forbidden|prohibited|banned)\b`, "i");

/**
 * "longs only on HYPE" beside "SOL and ETH u can trade both ways": the owner trades HYPE too, so a coin a direction
 * rule names as traded joins the intent's asset list for orders. Only when such a list exists (the rule alone makes
 * none), and never from a prohibition ("never short DOGE" permits no DOGE).
 */
export function joinSideAssets(cs: Constraint[]): void {
  const named = cs.flatMap((k) => (k.kind === "side" && k.names && k.assets ? k.assets : []));
  if (!named.length) return;
  for (let i = 0; i < cs.length; i++) {
    const k = cs[i];
    if (k.kind !== "allow" || k.dim !== "asset" || k.grantId !== undefined || k.forAssets?.length) continue;
    if (k.activities.length && !k.activities.includes("order")) continue;
    cs[i] = { ...k, values: [...new Set([...k.values, ...named])] };
  }
}

/** A rule's direction constraints without coins take the coins another one of the same direction names. */
function settleSideAssets(st: ParseState, rule: string): void {
  const mine = st.constraints.filter((k): k is Extract<typeof k, { kind: "side" }> => k.kind === "side" && k.rule === rule && (k.allowed === "long" || k.allowed === "short"));
  for (const k of mine) {
    if (k.assets) continue;
    const named = mine.find((o) => o.allowed === k.allowed && o.assets);
    if (named) k.assets = named.assets;
  }
}

export function parseSide(c: Clause, st: ParseState, rule: string): void {
  // "only long side (buy)": the owner glosses long as buying, so sells (even closing ones) are not plainly allowed.
  // Also "go long (buy side)", "long/buy side only", "long (buys only)"; and the mirror for short (sell).
  scan(c, /\b(?:only\s+(?:ever\s+)?(?:go\s+)?)?(long|short)s?(?:\s+side)?(?:\s+only)?\s*(?:\(\s*(?:the\s+)?|\/\s*)(buy|buys|buying|sell|sells|selling)(?:[- ]side)?(?:\s+only)?\s*\)?(?:\s+only)?/gi, (m) => {
    const dir = m[1].toLowerCase() as "long" | "short";
    const side = /^b/i.test(m[2]) ? "buy" : "sell";
    if ((dir === "long") !== (side === "buy")) return false;
    add(st, { kind: "side", allowed: dir, rule });
    add(st, { kind: "side", allowed: side, rule });
  });
  // "the bot will only ever be buying HYPE": one side; the verb is left for the permission reader.
  scan(c, /\b(?:will|shall|should|must|may|can|is\s+to)\s+only\s+(?:ever\s+)?(?:be\s+)?(?=(buy|sell)(?:ing|s)?\b)/gi, (m) => add(st, { kind: "side", allowed: m[1].toLowerCase() as "buy" | "sell", rule }));
  // "buy side only", "only the buy side": one side of the book.
  scan(c, /\b(buy|sell)[- ]side\s+only\b|\bonly\s+(?:the\s+)?(buy|sell)[- ]side\b/gi, (m) => add(st, { kind: "side", allowed: (m[1] ?? m[2]).toLowerCase() as "buy" | "sell", rule }));
  scan(
    c,
    new RegExp(
      String.raw`\blong[- ]only\b|\blongs?\s+only\b|\bonly\s+(?:ever\s+)?(?:go\s+|open\s+|take\s+|trade\s+|be\s+|stay\s+|hold\s+|run\s+)?longs?(?:\s+positions?)?\b|\b${NEG}\s+(?:ever\s+)?${WANT}(?:go\s+|open(?:ing)?\s+|take\s+|enter(?:ing)?\s+|be\s+|hold\s+|end\s+up\s+)?(?:an?\s+|any\s+)?(?:new\s+)?(?:net\s+)?short(?:s|ing|ed)?(?:\s+positions?|\s+sell(?:ing)?)?\b|\bshort(?:ing|s)?\s+(?:is|are)\s+(?:not allowed|forbidden|prohibited|banned)\b`,
      "gi",
    ),
    (m) => {
      const named = sideAssets(c, m, /^only\b/i.test(m[0]));
      add(st, { kind: "side", allowed: "long", rule, ...named, ...(named.assets && !NEG_START.test(m[0]) ? { names: true } : {}) });
    },
  );
  scan(
    c,
    new RegExp(String.raw`\bshort[- ]only\b|\bshorts?\s+only\b|\bonly\s+(?:go\s+|open\s+|take\s+)?shorts?(?:\s+positions?)?\b|\b${NEG}\s+(?:ever\s+)?${WANT}(?:go\s+|open(?:ing)?\s+|be\s+)?(?:any\s+)?(?:new\s+)?(?:net\s+)?long(?:s|\s+positions?)\b`, "gi"),
    (m) => {
      const named = sideAssets(c, m, /^only\b/i.test(m[0]));
      add(st, { kind: "side", allowed: "short", rule, ...named, ...(named.assets && !NEG_START.test(m[0]) ? { names: true } : {}) });
    },
  );
  // Several direction rules in one sentence name their coins once: "longs only on HYPE, never short hype".
  settleSideAssets(st, rule);
  // "(selling down or closing my long is fine)": reducing a long is not going short; the rule already allows it.
  scan(c, /\(?\s*(?:(?:selling\s+(?:down|off)|trimming|reducing|closing|cutting|exiting|taking\s+profit\s+on)(?:\s+(?:or|and|\/)\s+|\s*,\s*)?){1,3}\s*(?:my|our|the|a|an|existing)?\s*(?:long|longs|short|shorts|positions?|bags?|holdings?)\s+(?:is|are)\s+(?:always\s+)?(?:fine|ok|okay|allowed|permitted)\s*\)?/gi, () => {
    const dir = st.constraints.filter((k): k is Extract<Constraint, { kind: "side" }> => k.kind === "side" && k.rule === rule && (k.allowed === "long" || k.allowed === "short"));
    if (!dir.length) return false;
    for (const k of dir) k.trimOk = true;
  });
  // "don't sell anything without asking me first": the other side is held for a human, not forbidden.
  scan(c, new RegExp(String.raw`\b${NEG}\s+(?:ever\s+)?(sell|buy)(?:ing)?\s+(?:(?:anything|any(?:\s+shares?)?|a\s+thing|positions?)\s+)?without\s+(?:first\s+)?(?:asking|checking with|consulting|confirming with|pinging|approval from)\s+(?:me|us|the owner|a human|someone)(?:\s+first)?\b`, "gi"), (m) => {
    add(st, { kind: "side", allowed: m[1].toLowerCase() === "sell" ? "buy" : "sell", escalate: true, rule });
  });
  // "Never sell", "selling is not allowed", "buy-only": one side of the book only.
  scan(c, new RegExp(String.raw`\b${NEG}\s+(?:ever\s+)?(sell|buy)(?:ing)?\b(?!\s+(?:more|above|over|at|below|under|than|any\s+\w+\s+(?:more|above)))(?:\s+(?:(?:any|my|our|the|your)\s+)?(?:shares|positions|tokens|outcome\s+tokens|holdings)\b)?(?=\s*(?:[,;.]|$|orders?\b|anything\b))|\b(sell|buy)(?:ing|s)?\s+(?:orders?\s+)?(?:is|are)\s+(?:not allowed|not permitted|forbidden|prohibited|banned)\b|\b(buy|sell)[- ]only\b(?!\s+(?:in|on|from|at|into|the|these|those|markets?)\b)`, "gi"), (m) => {
    const side = (m[1] ?? m[2] ?? m[3]).toLowerCase();
    const denied = m[3] ? (side === "buy" ? "sell" : "buy") : side;
    add(st, { kind: "side", allowed: denied === "sell" ? "buy" : "sell", rule });
  });
  scan(c, /\blong(?=\s+(?:[A-Za-z0-9§]+\s+){1,3}only\b)/gi, () => add(st, { kind: "side", allowed: "long", rule }));
  scan(c, /\b(?:shorts?|shorting|longs?|short positions|long positions)\s+(?:are\s+|is\s+)?(?:also\s+)?(?:allowed|fine|ok|okay|permitted)\b|\blongs?\s*(?:and|or|&|\/)\s*shorts?\b|\bshorts?\s*(?:and|or|&|\/)\s*longs?\b/gi, () => undefined);
  scan(c, /\blong\s*(?:or|and|\/|&)\s*short\b|\bshort\s*(?:or|and|\/|&)\s*long\b|\bboth\s+(?:sides|directions)\b|\beither\s+(?:side|direction)\b/gi, () => undefined);
}

/**
 * "TP/SL orders are fine (as long as they're reduce-only)": protective orders are explicitly allowed, so a
 * reduce-only trigger order is not held to the entry order-type rules.
 */
export function parseProtective(c: Clause, st: ParseState, rule: string): void {
  scan(
    c,
    /\b(?:tp\s*\/\s*sl|sl\s*\/\s*tp|take[- ]profits?|stop[- ]loss(?:es)?|stops?)(?:\s*(?:and|or|\/|&)\s*(?:take[- ]profits?|stop[- ]loss(?:es)?|stops?))?(?:\s+orders?)?\s+(?:are|is)\s+(?:also\s+)?(?:fine|ok|okay|allowed|permitted|always allowed)\b(?:\s*,?\s*(?:as long as|so long as|provided|if|when)\s+(?:they(?:'re|\s+are)|it(?:'s|\s+is))\s+(?:set\s+)?reduce[- ]only)?/gi,
    () => add(st, { kind: "protective_ok", rule }),
  );
}

export function parseReduceOnly(c: Clause, st: ParseState, rule: string): void {
  // "Exits must be reduce-only", "orders that reduce an open position must be marked reduce-only".
  scan(
    c,
    // Also "any order that reduces an existing position must carry the reduce-only flag", "... be sent with reduce-only set".
    /\b(?:(?:all|any|every|each)\s+)?(?:exits?|exit orders?|closing orders?|closes|(?:orders?|sells?|buys?|trades?)\s+(?:that|which)\s+(?:reduce|close|exit|trim|unwind|shrink|cut)s?(?:\s+(?:an?|the|any|our)?\s*(?:open|existing|current)?\s*(?:positions?|longs?|shorts?|exposure))?)\s+(?:must|should|shall|has to|have to|need to|needs to)\s+(?:always\s+)?(?:(?:be\s+)?(?:marked|flagged|set|sent|submitted|placed)\s+(?:as\s+|with\s+)?|be\s+|carry\s+|have\s+|use\s+|include\s+|bear\s+)?(?:the\s+|a\s+)?reduce[- ]only\b(?:\s+(?:flag|bit|option|parameter|param|field)\b)?(?:\s+(?:set|on|enabled)\b)?/gi,
    () => add(st, { kind: "reduce_only", appliesTo: "exits", rule }),
  );
  // "selling is fine, but only to get out of what I already hold": a sell may only reduce a holding, which is what a
  // reduce-only flag guarantees (it can never open a short); "and put reduce only on those" restates it.
  let exitOnly = false;
  scan(
    c,
    /\bonly\s+(?:ever\s+)?(?:to|for)\s+(?:get(?:ting)?\s+out\s+of|clos(?:e|ing)|cut(?:ting)?|trim(?:ming)?|exit(?:ing)?|reduc(?:e|ing)|unwind(?:ing)?|lighten(?:ing)?|offload(?:ing)?)\s+(?:(?:the\s+)?(?:stuff|things|what|positions?|coins?|tokens?|longs?|bags?|holdings?|exposure)\s+)?(?:(?:that\s+|which\s+)?(?:i|we|you|it|the\s+account)\s+)?(?:already\s+)?(?:hold|holds|have|has|own|owns|bought)\b/gi,
    () => {
      exitOnly = true;
      add(st, { kind: "reduce_only", appliesTo: /\bsell/i.test(c.sentence) && !/\bbuy/i.test(c.sentence) ? "sell" : "all", rule });
    },
  );
  if (exitOnly) scan(c, /\b(?:and\s+)?(?:put|mark|flag|set|tag|send)\s+(?:them\s+|those\s+|these\s+|it\s+)?(?:as\s+)?reduce[- ]only(?:\s+on\s+(?:them|those|these|it))?\b/gi, () => undefined);
  // "Reduce-only exits are always allowed": closing orders are exempt from the order rules.
  scan(c, /\b(?:reduce[- ]only|closing)\s+(?:orders?|exits?|closes?|trades?)\s+(?:are|is)\s+(?:always\s+)?(?:allowed|fine|ok|okay|permitted|exempt)\b|\b(?:exits?|closing positions?)\s+(?:are|is)\s+(?:always\s+)?(?:allowed|fine|ok|okay|permitted)\b/gi, () =>
    add(st, { kind: "exits_allowed", rule }),
  );
  scan(
    c,
    /\b(?:any|every|all|each)?\s*(sell|buy)(?:s|ing)?(?:\s+orders?)?\s+(?:must|should|shall|has to|have to|needs? to|can only)\s+(?:be\s+)?reduce[- ]only\b/gi,
    (m) => add(st, { kind: "reduce_only", appliesTo: m[1].toLowerCase() === "sell" ? "sell" : "buy", rule }),
  );
  scan(
    c,
    new RegExp(
      String.raw`\bonly\s+(?:place\s+|send\s+|use\s+)?reduce[- ]only(?:\s+orders?)?\b|\b(?:all\s+|every\s+|each\s+|any\s+)?orders?\s+(?:must|should|shall|has to|have to|needs? to|is to|are to)\s+(?:always\s+)?be\s+reduce[- ]only\b|\bnothing\s+new\s+(?:gets|is|may be|can be|should be|must be|will be)\s+opened\b|\breduce[- ]only\s+(?:orders?\s+)?only\b|\bonly\s+(?:close|reduce|exit|trim|unwind|de-?risk)(?:\s+(?:or|and|\/)\s+(?:close|reduce|exit|trim))?\s+(?:existing\s+|open\s+|current\s+)?(?:positions?|exposure|things|stuff|trades|out)\b|\bclose[- ]only\b|\b${NEG}\s+(?:open(?:ing)?|add(?:ing)?\s+to|increas(?:e|ing)|enter(?:ing)?)\s+(?:any\s+)?(?:new\s+)?(?:positions?|exposure|trades?)\b|\b${NEG}\s+(?:open(?:ing)?|enter(?:ing)?|start(?:ing)?)\s+anything\s+new\b|\bno\s+new\s+(?:positions|exposure|entries|trades)\b`,
      "gi",
    ),
    () => add(st, { kind: "reduce_only", appliesTo: "all", rule }),
  );
}

const TYPE_WORDS: Array<[RegExp, string[]]> = [
  [/\bpost[- ]only\b|\bmaker[- ]only\b|\badd[- ]liquidity[- ]only\b|\bALO\b/gi, ["alo"]],
  [/\b(?:that\s+)?rest(?:s|ing)?\s+on\s+the\s+(?:order\s*)?book\b|\bresting\b/gi, ["gtc", "alo"]],
  [/\bGTC\b|\bgood[- ]til(?:l)?[- ]cancel(?:l)?ed\b/gi, ["gtc"]],
  [/\bGTD\b|\bgood[- ]til(?:l)?[- ]date\b/gi, ["gtd"]],
  [/\bIOC\b|\bimmediate[- ]or[- ]cancel\b/gi, ["ioc"]],
  [/\bFOK\b|\bfill[- ]or[- ]kill\b/gi, ["fok"]],
  [/\bFAK\b|\bfill[- ]and[- ]kill\b/gi, ["fak"]],
  // "limits only", "only limits", "GTC limits": limit orders, when "limits" sits beside "only" or a time-in-force.
  [/\blimit(?=\s+orders?\b|\s+only\b|[- ]only\b|\s*\()|\blimits(?=\s+only\b(?!\s+apply)|-only\b)|(?<=\bonly\s+)limits\b(?!\s+(?:on|of|for|to|apply))|(?<=\b(?:gtc|alo|ioc|gtd|post[- ]only|resting)\s+)limits\b/gi, ["limit"]],
  // "no market ones", "limit orders, not market": the market type, closing a clause about order types.
  [/\bmarket(?=\s+orders?\b|[- ]only\b|\s+ones?\b)|\b(?:at|use|using)\s+market\b(?!s)|(?<=\b(?:no|not|never)\s+)market\b(?=\s*(?:[.,;!)]|$))/gi, ["market"]],
  [/\b(?:stop|trigger|stop[- ]loss|take[- ]profit)(?=\s+orders?\b)|\btriggers\b(?!\s+(?:at|when|if|on|above|below))|\bstop[- ]?loss(?:es)?\b|(?<!\bto\s+)\btake[- ]?profits?\b(?!\s+(?:on|from|when|at))/gi, ["trigger"]],
  [/\btwaps?(?=\s+orders?\b)|\bTWAPs?\b/gi, ["twap"]],
  [/\bfrontend\s?market(?=\s+orders?\b)|\bFrontendMarket\b/gi, ["market"]],
];

/** "post-only is not required", "IOC orders are optional", "GTD is not mandatory": no obligation. */
const NOT_REQUIRED = /\b(?:is|are)\s+(?:not\s+(?:required|needed|necessary|mandatory|compulsory|obligatory|a\s+must)|optional)\b|\b(?:no\s+need\s+(?:for|to\s+use)|(?:don['’]t|do\s+not|doesn['’]t|does\s+not)\s+(?:have|need)\s+to\s+(?:be|use))\b/i;

/** Every type name TYPE_WORDS knows, to see what else a clause says. */
const TYPE_NAMES = new RegExp(TYPE_WORDS.map(([re]) => re.source).join("|"), "gi");

/** Order type / time-in-force rules. "Entries must be..." applies to orders that open or add to a position. */
export function parseOrderType(c: Clause, st: ParseState, rule: string, sentence: string): void {
  // "no market orders, limits are fine": the permitted type beside a refused one restricts nothing more.
  scan(c, /\blimits?(?:\s+orders?)?\s+(?:are|is)\s+(?:(?:totally|perfectly|also)\s+)?(?:fine|ok|okay|allowed|good|permitted)\b/gi, () => undefined);
  // "Post-only is not required", "IOC is optional": says a type is not obligatory, which restricts nothing.
  // Only when nothing else in the clause could restrict ("GTC only; post-only is not required" is split earlier).
  if (NOT_REQUIRED.test(c.text) && TYPE_WORDS.some(([re]) => new RegExp(re.source, "i").test(c.text)) && !new RegExp(String.raw`\b(?:${NEG}|only|must|shall|always|forbidden|banned|prohibited)\b`, "i").test(c.text.replace(NOT_REQUIRED, " ").replace(/\b(?:post|maker|liquidity|reduce|close)[- ]only\b/gi, " "))) {
    for (const [re] of TYPE_WORDS) scan(c, re, () => undefined);
    scan(c, NOT_REQUIRED, () => undefined);
    return;
  }
  const above = readSizeThreshold(c);
  const found: Array<{ index: number; end: number; kinds: string[] }> = [];
  for (const [re, kinds] of TYPE_WORDS) scan(c, re, (m) => void found.push({ index: m.index, end: m.index + m[0].length, kinds }));
  if (found.length === 0) return;
  // The "only" of a type's own name ("post-only", "add-liquidity-only", "maker-only") narrows nothing.
  const text = c.text.replace(/\b(post|maker|liquidity|reduce|close)[- ]only\b/gi, "$1 xxxx");
  found.sort((a, b) => a.index - b.index);
  // Each type's refusal is its own stretch's ("Only GTC or GTD orders, FOK and FAK are forbidden"): tif-polarity.ts.
  const { refused, spans } = refusedTypes(text, found);
  const kindsOf = (keep: (i: number) => boolean): string[] => [...new Set(found.filter((_, i) => keep(i)).flatMap((f) => f.kinds))];
  const kinds = kindsOf(() => true);
  const denied = kindsOf((i) => refused[i]);
  const allRefused = refused.every(Boolean);
  // Whether the rest restricts is read without the refusing stretches ("IOC must never be used" is no "must" for GTC).
  let rest = text;
  for (const [from, to] of spans) rest = rest.slice(0, from) + " ".repeat(to - from) + rest.slice(to);
  const appliesTo = /\bentr(?:y|ies)\b|\bopening orders?\b|\bnew positions?\b|\bto open\b/i.test(sentence) ? "entries" : "all";
  // "limit orders are fine" permits without restricting; a restriction needs "only", "must", "use", "always".
  // A config line ("order types: GTC", "tif: GTC, GTD", "tif allowed: Gtc, Alo") lists the allowed ones.
  // "Orders are to be resting limit orders (GTC or GTD)", "shall be": obligations as much as "must".
  // "You can use stop losses", "take-profits are welcome, use them": a permission, unless "only" or "must" narrows it.
  const permissive = /\b(?:can|may|could|free\s+to|allowed\s+to|ok\s+to|fine\s+to)\s+(?:also\s+)?(?:use|be)\b|\b(?:are|is)\s+(?:also\s+|always\s+)?(?:good|welcome|fine|ok|okay|allowed|permitted|encouraged)\b|\buse\s+them\b/i.test(rest);
  const narrowing = /\b(?:only|must|shall|always(?!\s+(?:fine|ok|okay|good|welcome|allowed|permitted))|exclusively|required|require|(?:are|is|has|have)\s+to\s+be)\b/i.test(rest);
  const restricting = (!permissive || narrowing) && (/\b(?:only|must|should|shall|always|use|using|exclusively|required|require|need|needs|(?:are|is|has|have)\s+to\s+be)\b|^\s*(?:allowed\s+|permitted\s+)?(?:order\s+types?|tifs?|time[- ]in[- ]force)(?:\s+(?:allowed|permitted|ok|whitelist|allowlist))?\s*:|^\s*(?:the\s+)?(?:permitted|allowed)\s+(?:order\s+types?|tifs?|times?[- ]in[- ]force)\s+(?:are|is)\b/i.test(rest));
  // "You may quote BTC perps with post-only orders": a grant that names how it is done carries the type as its scope
  // (as "only" would), unlike "post-only orders are permitted" or "you can use post-only orders".
  const lead = text.slice(0, found[0].index);
  const grantWith = /\b(?:may|can|could|(?:is|are)\s+(?:allowed|permitted|authori[sz]ed)\s+to)\s+(?!(?:also\s+)?use\b)\w+/i.test(lead) && /\b(?:with|via|through|as|using)\s+(?:(?:a|an)\s+)?$/i.test(lead);
  // "TWAPs above $20,000 need my OK first": the type names what a human threshold counts, not a required type.
  const referral = new RegExp(ESCALATE_RE.source, "i").test(c.text) && !/\b(?:only|must|always|exclusively)\b/i.test(text);
  // "Smaller stuff can be a normal limit order" after "anything bigger than $1,000 goes through a TWAP": the rest of
  // the split, permitted, restricting nothing.
  if (permissive && !narrowing && st.constraints.some((k) => k.kind === "order_type" && k.above !== undefined)) {
    scan(c, /^\s*(?:and\s+)?(?:anything\s+|everything\s+)?(?:smaller|below\s+that|under\s+that|less\s+than\s+that|the\s+rest)(?:\s+(?:stuff|ones?|orders?|trades?|sizes?))?\b|\b(?:an?\s+)?(?:normal|plain|regular|simple|ordinary|usual)\b(?=\s+(?:limit|gtc|resting)\b)/gi, () => undefined);
  }
  if (referral && above === null) {
    // left to the threshold readers
  } else if (!denied.length && typesReferred(rest.replace(TYPE_NAMES, " "), c.text, sentence)) {
    // "anything FOK or FAK - run it by me first": a human decides orders of these types (tif-polarity.ts).
    add(st, { kind: "order_type", allow: [], deny: kinds, appliesTo, escalate: true, rule });
  } else if (above !== null && !denied.length) {
    // Orders above the figure must be of the named type; smaller ones are free of this clause.
    add(st, { kind: "order_type", allow: kinds, deny: [], appliesTo, above, rule });
  } else if (allRefused) add(st, { kind: "order_type", allow: [], deny: kinds, appliesTo, rule });
  else {
    // "Limit orders only: no trigger orders": a refused type is denied, the others are the allowed list when the
    // clause restricts; "GTC is fine, IOC is banned" only refuses.
    const allow = kindsOf((i) => !refused[i]).filter((k) => !denied.includes(k));
    if (restricting || grantWith) add(st, { kind: "order_type", allow, deny: [], appliesTo, rule });
    if (denied.length) add(st, { kind: "order_type", allow: [], deny: denied.filter((k) => !allow.includes(k) || !(restricting || grantWith)), appliesTo, rule });
  }
  scan(c, /\b(?:are|is)\s+(?:banned|forbidden|prohibited|not allowed|disallowed|not permitted|fine|ok|okay|allowed|permitted)\b/gi, () => undefined);
  // "FOK, FAK forbidden", "# Ioc banned", "none of that FOK/FAK stuff": the words of a refusal just read.
  if (denied.length) scan(c, /\b(?:banned|forbidden|prohibited|disallowed|excluded|off[- ]limits|not\s+(?:allowed|permitted))\b|\bnone(?:\s+of)?(?:\s+(?:that|this|those|these|the))?\b|\bstuff\b|\b(?:while|whereas)\b/gi, () => undefined);
  // "tif allowed: Gtc, Alo": the key of a config line listing the allowed ones.
  if (restricting) scan(c, /^\s*(?:order\s+types?|tifs?|time[- ]in[- ]force)\s+(?:allowed|permitted|ok|whitelist|allowlist)\b|^\s*(?:the\s+)?(?:permitted|allowed)\s+(?:order\s+types?|tifs?|times?[- ]in[- ]force)\s+(?:are|is)\b/gi, () => undefined);
  scan(c, /\b(?:for|when)\s+(?:closing|exits?|closes?|opening|entries|new positions|reducing)\b|\bto\s+(?:close|exit|open|reduce)\b/gi, () => undefined);
  scan(c, new RegExp(String.raw`\b(?:${NEG}|avoid|only|must\s+be|should\s+be|use|using|orders?|entries|entry|the\s+book|book|types?|time[- ]in[- ]force|tif)\b`, "gi"), () => undefined);
}

/** "No unlimited approvals", "approvals only for the exact amount (of the pending swap)". */
export function parseApprovalShape(c: Clause, st: ParseState, rule: string): void {
  if (!/approv|allowance/i.test(c.sentence)) return;
  // "Approvals: exact amount to the router only" (a config line): approvals are for the exact amount.
  // The key is left for the permission reader, which binds the rest of the line to approvals.
  scan(c, /(?<=\b(?:approvals?|allowances?)\s*:\s*)(?:the\s+|an?\s+)?exact(?:\s+amounts?)?\b/gi, () => add(st, { kind: "approval_exact", exact: true, rule }));
  // "Approvals must be exact": for the exact amount of the swap they serve.
  scan(c, /\b(?:approvals?|allowances?)\s+(?:(?:must|should|have to|has to|need to|needs to)\s+(?:always\s+)?be|are|is|are always|stay)\s+(?:for\s+)?(?:the\s+)?exact(?:\s+amounts?)?(?:\s+only)?\b(?!\s+(?:of|for|needed|required|being))/gi, () =>
    add(st, { kind: "approval_exact", exact: true, rule }),
  );
  scan(
    c,
    new RegExp(
      String.raw`\b${NEG}\s+(?:grant\s+|give\s+|set\s+|sign\s+|approve\s+|use\s+|allow\s+)?(?:any\s+|anything\s+)?(?:unlimited|infinite|max(?:imum)?|uint256[- ]max|open[- ]ended|blanket|unbounded)(?:\s+(?:token\s+)?(?:approvals?|allowances?))?\b|\b(?:approvals?|allowances?)\s+(?:must|should)\s+(?:never|not)\s+be\s+(?:unlimited|infinite)\b`,
      "gi",
    ),
    () => add(st, { kind: "approval_exact", exact: false, rule }),
  );
  scan(
    c,
    /\b(?:only\s+)?(?:for|of|to|at)\s+(?:the\s+)?exact\s+(?:(pending|current|next|upcoming)\s+)?(?:swap\s+|trade\s+|payment\s+)?amount(?:\s+(?:of|for|needed by|required by|being)\s+(?:the\s+)?(pending|current|next|upcoming)?\s*(?:swap|trade|transaction|order|payment|spent|swapped)s?(?:\s+(?:being\s+)?(?:prepared|made|executed|placed|submitted|built|requested)|\s+in\s+progress)?)?\b|\bexact[- ]amount\s+(?:approvals?|allowances?)(?:\s+only)?\b|\bapprov(?:e|es|ing)\s+(?:only\s+)?exactly\s+(?:the\s+)?(?:amount|sum|quantity)\b(?:\s+(?:you['’]re|you are|being|to be)\s+(?:staking|swapping|supplying|depositing|spending|paying))?/gi,
    (m) => add(st, { kind: "approval_exact", exact: true, pendingRef: !!(m[1] ?? m[2]) || /pending|being|in progress/i.test(m[0]) || undefined, rule }),
  );
}

const MODE_WORDS: Array<[RegExp, "in" | "out"]> = [
  [/\bExactIn\b|\bexact[- ]?in(?:put)?\b(?:\s+(?:swaps?|mode|quotes?|routes?))?/gi, "in"],
  [/\bExactOut\b|\bexact[- ]?out(?:put)?\b(?:\s+(?:swaps?|mode|quotes?|routes?))?/gi, "out"],
];

/**
 * Swap mode: "ExactIn only", "exact-input swaps only", "never use ExactOut", "no exact output quotes". A mode under
 * a negation is the other one required; a mode with "only"/"must"/"always" is required; "ExactOut is fine" permits
 * without restricting.
 */
export function parseSwapMode(c: Clause, st: ParseState, rule: string): void {
  const found: Array<{ index: number; end: number; mode: "in" | "out" }> = [];
  for (const [re, mode] of MODE_WORDS) scan(c, re, (m) => void found.push({ index: m.index, end: m.index + m[0].length, mode }));
  if (found.length === 0) return;
  found.sort((a, b) => a.index - b.index);
  const required = new Set<"in" | "out">();
  for (const f of found) {
    const before = c.text.slice(0, f.index);
    const negated = new RegExp(String.raw`\b(?:${NEG}|avoid|without|except)\b[^,;]*$`, "i").test(before) || /^\s*(?:is|are)\s+(?:not allowed|forbidden|banned|prohibited|off[- ]limits)\b/i.test(c.text.slice(f.end));
    const restricting = /\b(?:only|must|always|exclusively|required?)\b/i.test(c.text);
    if (negated) required.add(f.mode === "in" ? "out" : "in");
    else if (restricting) required.add(f.mode);
  }
  // "ExactIn only, never ExactOut" names one mode twice; "ExactIn only ... ExactOut only" contradicts itself: no swap fits.
  for (const mode of required) add(st, { kind: "swap_mode", mode, rule });
  // Only the words of each mode's own stretch of the clause (up to a comma or semicolon) are read here.
  const inStretch = (i: number): boolean =>
    found.some((f) => {
      const from = Math.max(c.text.lastIndexOf(",", f.index), c.text.lastIndexOf(";", f.index), c.text.lastIndexOf(":", f.index));
      const next = c.text.slice(f.end).search(/[,;:]/);
      return i > from && i < (next < 0 ? c.text.length : f.end + next);
    });
  scan(c, new RegExp(String.raw`\b(?:${NEG}|avoid|only|must\s+be|always|use|using|swaps?|mode|quotes?|(?:are|is)\s+(?:fine|ok|okay|allowed|permitted|not allowed|forbidden|banned|prohibited))\b`, "gi"), (m) => inStretch(m.index));
}

const SYM_LIST = String.raw`[A-Za-z][A-Za-z0-9]{0,9}(?:\s*(?:,|\/|\bor\b|\band\b)\s*[A-Za-z][A-Za-z0-9]{0,9})*`;
const DIRECTION_RES: Array<{ re: RegExp; sellFirst: boolean }> = [
  // "swap WETH to USDC", "convert ETH into USDC", "sell SOL for USDC", "rotate from USDT to USDC"
  { re: new RegExp(String.raw`\b(?:swap|swaps|swapping|convert|converting|exchange|exchanging|sell|sells|selling|rotate|rotating|trade|trading)\s+(?:only\s+)?(?:from\s+)?(${SYM_LIST})\s+(?:to|into|for)\s+(${SYM_LIST})\b`, "gi"), sellFirst: true },
  // "convert the USDC we receive from customers into ETH": a short relative clause (lower-case words only) between
  // what is sold and what it becomes
  { re: new RegExp(String.raw`\b(?:swap|swaps|swapping|convert|converts|converting|turn|turns|turning|exchange|exchanges|exchanging)\s+(?:all\s+|any\s+)?(?:the\s+|our\s+|its\s+)?(${SYM_LIST})(?:\s+(?!(?:into|to|and|or)\b)[a-z'’]+){1,8}?\s+(?:into|to)\s+(${SYM_LIST})\b`, "g"), sellFirst: true },
  // "USDC in, ETH or WETH out", "input USDC, output WETH": what goes in is sold, what comes out is bought
  { re: new RegExp(String.raw`\b(${SYM_LIST})\s+in\s*(?:,|;|and|->|→|\/)?\s*(${SYM_LIST})\s+out\b`, "gi"), sellFirst: true },
  { re: new RegExp(String.raw`\binput\s*[:=]?\s*(${SYM_LIST})\s*(?:,|;|and|->|→|\/)?\s*output\s*[:=]?\s*(${SYM_LIST})\b`, "gi"), sellFirst: true },
  // "buy SOL with USDC", "buy ETH using USDT"
  { re: new RegExp(String.raw`\b(?:buy|buys|buying|purchase|acquire)\s+(?:only\s+)?(${SYM_LIST})\s+(?:with|using|for)\s+(${SYM_LIST})\b`, "gi"), sellFirst: false },
];

/** The token symbols of a list; `prefix` keeps the symbols before the first other word ("USDC, max 2" -> USDC). */
const symbolsOf = (list: string, prefix = false): string[] | null => {
  const words = list.split(/\s*(?:,|\/|\bor\b|\band\b)\s*/).filter(Boolean);
  const syms = words.map((w) => asSymbol(w));
  const cut = prefix ? syms.findIndex((s) => s === null) : -1;
  const kept = cut >= 0 ? syms.slice(0, cut) : syms;
  return kept.length > 0 && kept.every((s): s is string => s !== null) ? [...new Set(kept)] : null;
};

/**
 * Swap direction: "only swap WETH to USDC", "convert ETH into USDC", "buy SOL with USDC". Each side must be token
 * symbols only; a negated clause ("never swap USDC to WETH") is left to the prohibition reader. Nothing is consumed:
 * the tokens also make the clause's asset list.
 */
export function parseSwapDirection(c: Clause, st: ParseState, rule: string): void {
  for (const { re, sellFirst } of DIRECTION_RES) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(c.text)) !== null) {
      if (new RegExp(String.raw`\b(?:${NEG}|avoid|except|unless)\b`, "i").test(c.text.slice(0, m.index))) continue;
      // "USDC to SOL and back", "either way": both directions.
      if (/\b(?:and|or)\s+back\b|\bboth\s+(?:ways|directions)\b|\beither\s+(?:way|direction)\b|\bvice\s+versa\b|\bthe\s+reverse\b|\bround[- ]trip/i.test(c.sentence)) continue;
      const a = symbolsOf(m[1]);
      const b = symbolsOf(m[2], true);
      if (!a || !b || a.some((x) => b.includes(x))) continue;
      add(st, { kind: "swap_direction", sell: sellFirst ? a : b, buy: sellFirst ? b : a, rule });
    }
  }
}
