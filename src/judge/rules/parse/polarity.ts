/**
 * Permissions and prohibitions. A positive clause ("You may trade HYPE and SOL perps on Hyperliquid") names
 * permitted activities, and everything it names becomes an allowlist for them. A negative clause ("Never
 * withdraw or transfer funds", "Do not change account permissions") forbids activities, or denylists what it
 * names ("never trade SOL").
 */
import { catOfWord } from "../topics";
import type { Activity, Constraint, ListDim } from "../types";
import { consume, scan, unexplained, type Clause } from "../text";
import { hasAny, SENDER_REF, takeItems } from "./items";
import { routeAssets } from "./routes";
import { ESCALATE_RE } from "./amounts";
import { listsFrom, takeTopic } from "./topic-lists";
import { add, uniq, type ParseState } from "./state";
import { NEG_SCOPE_RE, OUT_OF_ACCOUNT, QUALIFIER_RE } from "../activity-words";
import { findVerbs, VERBS, type Verb } from "./verbs";

/** A prohibition's destination that is someone else: "to other address", "to anyone else", "to external wallets". */
const TO_OTHER_PARTY =
  /\bto\s+(?:an?\s+|any\s+)?(?:other|another|a\s+different|some\s+other|external|third[- ]party|outside|foreign)\s+(?:address(?:es)?|wallets?|accounts?|persons?|people|part(?:y|ies))\b|\bto\s+(?:anyone|anybody|someone|somebody|no\s*one|nobody)(?:\s+else)?\b|\belsewhere\b/i;

export const NEG_RE =
  /\b(?:never|not|no|nobody|don't|dont|do not|does not|doesn't|must not|mustn't|cannot|can't|should not|shouldn't|may not|won't|will not|nothing|none|forbidden|prohibited|disallowed|banned|blocked|blacklisted|blocklisted|denylisted|barred|avoid|refrain from|is not allowed|are not allowed|not allowed|not permitted|off[- ]limits|out of bounds|excluded)\b/gi;

const NEG_WORD = /^(?:never|not|no|don't|dont|do|does|doesn't|must|mustn't|cannot|can't|should|shouldn't|may|won't|will|nothing|none|forbidden|prohibited|disallowed|banned|blocked|blacklisted|blocklisted|denylisted|barred|avoid|refrain|from|allowed|permitted|off-limits|off|limits|out|bounds|excluded)$/i;


/** "Undelegating needs my approval", "withdrawals require sign-off": the activity is held for a human. */
export function parseEscalateOn(c: Clause, st: ParseState, rule: string): void {
  const esc = new RegExp(ESCALATE_RE.source, "i").exec(c.text);
  if (!esc || c.used[esc.index]) return;
  const saved = c.used.slice();
  // "requires the treasurer's approval": the words that ask for a human name no activity of their own.
  consume(c, esc.index, esc.index + esc[0].length);
  const verbs = findVerbs(c, false).filter((v) => v.pos.length > 0);
  const acts = uniq(verbs.flatMap((v) => v.pos)).filter((a) => a !== "cancel");
  if (acts.length === 0) {
    c.used = saved;
    return;
  }
  add(st, { kind: "escalate_on", activities: acts, rule });
  // "don't deactivate or withdraw any stake without asking me first": the negation and "without asking" are one
  // rule, "only after asking" (a human decides these activities). Left unread, the "don't" held every other action
  // the mandate allows; read as a prohibition, it would block what the owner said they may approve. The held
  // activities are exactly the ones named, so nothing else is granted.
  // Only when nothing else is left to narrow it ("never withdraw SOL without asking" names an asset the activity
  // list cannot carry, so it stays unread and holds).
  const NEG = /\b(?:don['’]?t|do not|never|no|must not|mustn['’]?t|shall not|should not|cannot|can['’]?t|may not|won['’]?t|will not)\b/gi;
  const rest = unexplained(c).filter((w) => !/^(?:don['’]?t|do|not|never|no|must|mustn['’]?t|shall|should|cannot|can['’]?t|may|won['’]?t|will|any|all|the|my|our|of|funds?|stake|staked|money|it|them|or|and|ever)$/i.test(w));
  if (/^without\b/i.test(esc[0]) && rest.length === 0) scan(c, NEG, (m) => m.index < esc.index);
}

const EXCEPT_RE =
  /\b(?:except(?:\s+for)?|excepting|other than|but not|excluding|apart from|aside from|besides|with the exception of|save for|barring)\b|(?<=\b(?:anyone|anybody|anything|anywhere|nobody|no one|address(?:es)?|wallets?|recipients?|accounts?)\s+)but\b/i;

/** "Trade any perp except DOGE": what follows "except" is a denylist for the clause's activities. */
export function parseExcept(c: Clause, st: ParseState, rule: string): void {
  const m = EXCEPT_RE.exec(c.text);
  if (!m || c.used[m.index]) return;
  const head = c.text.slice(0, m.index);
  const saved = c.used.slice(0, m.index);
  c.used.fill(true, 0, m.index);
  const it = takeItems(c, st, "rule");
  for (let i = 0; i < m.index; i++) c.used[i] = saved[i];
  const acts = uniq(VERBS.filter((v) => new RegExp(v.re.source, "i").test(head)).flatMap((v) => v.pos));
  // "except sports and crypto-price markets": categories of markets.
  const tail = c.text.slice(m.index + m[0].length);
  const topicM = st.prediction && !hasAny(it) ? /^\s*((?:[A-Za-z][\w-]*\s*(?:,|\band\b|\bor\b|\/)?\s*){1,6}?)\s*markets?\b/i.exec(tail) : null;
  const topics = topicM ? topicM[1].split(/\s*(?:,|\band\b|\bor\b|\/)\s*/).map((t) => t.trim().replace(/-/g, " ")).filter(Boolean) : [];
  const lists = listsFrom(it, topics);
  // "except to the treasury address in context.treasury", "except memecoins (context.memecoins ...)": a list in the context.
  // With no verb ("any perp is fine except the memecoins in context.x"), the nouns say whether the list is of assets.
  const assetNouns = /\b(?:perps?|perpetuals?|coins?|tokens?|assets?|meme\s?coins?|alts?|altcoins?|pairs?|symbols?|tickers?)\b/i;
  const payeeNouns = /\b(?:address(?:es)?|wallets?|recipients?|payees?|vendors?|accounts?|treasury|destinations?)\b/i;
  const nounsTrade = acts.length === 0 && assetNouns.test(c.text) && !payeeNouns.test(c.text);
  const trading = (nounsTrade || acts.some((a) => a === "order" || a === "swap")) && !acts.some((a) => OUT_OF_ACCOUNT.includes(a));
  const refLists: Array<[ListDim, string[]]> = [];
  if (it.recipientRefs.length) refLists.push([trading ? "asset" : "recipient", it.recipientRefs]);
  if (it.marketRefs.length) refLists.push(["market", it.marketRefs]);
  const assetRefs = it.otherRefs.filter((r) => !it.marketRefs.includes(r));
  if (assetRefs.length) refLists.push(["asset", assetRefs]);
  if (it.hostRefs.length) refLists.push(["host", it.hostRefs]);
  if (lists.length === 0 && refLists.length === 0) return;
  if (topicM) consume(c, m.index + m[0].length, m.index + m[0].length + topicM[0].length);
  // A parenthesis that explains the list ("(context.memecoins lists the ones we've flagged so far)") is read.
  scan(c, /\([^()]*\)/g, (p) => p.index > m.index && /§c\d/.test(p[0]));
  consume(c, m.index, m.index + m[0].length);
  // "Never withdraw to any address other than the Safe": a prohibition with an exception is an allowlist.
  const negated = new RegExp(NEG_RE.source, "i").test(head.replace(/\bno more than\b|\bnot more than\b/gi, ""));
  if (!negated) {
    for (const [dim, values] of lists) add(st, { kind: "deny", dim, values, activities: acts, rule } as Constraint);
    for (const [dim, refs] of refLists) add(st, { kind: "deny", dim, values: [], refs, activities: acts, rule } as Constraint);
    return;
  }
  if (acts.length) add(st, { kind: "permit", activities: acts, rule });
  for (const [dim, values] of lists) add(st, { kind: "allow", dim, values, activities: acts, rule } as Constraint);
  for (const [dim, refs] of refLists) add(st, { kind: "allow", dim, values: [], refs, activities: acts, rule } as Constraint);
  scan(c, NEG_RE, (n) => n.index < m.index);
  for (const v of VERBS) scan(c, v.re, (n) => n.index < m.index);
  scan(c, /\bany(?:\s+other)?\s+(?:address(?:es)?|wallets?|recipients?|tokens?|assets?|coins?|markets?|venues?|chains?|hosts?|destinations?)\b|\banyone\b|\banything\b/gi, (n) => n.index < m.index);
}

const OTHER_RE =
  /\b(?:any|all)?\s*other\s+(tokens?|assets?|coins?|chains?|networks?|venues?|exchanges?|protocols?|platforms?|address(?:es)?|recipients?|wallets?|markets?|hosts?|domains?|contracts?)\b|\banything\s+else\b|\b(?:anyone|anybody|someone|somebody|nobody|no one)\s+else\b|\b(?:outside|external|third[- ]party|unknown|unlisted)\s+(?:address(?:es)?|wallets?|accounts?|recipients?)\b|\b(?:any|all)?\s*other\s+(?:betting\s+|trading\s+|prediction\s+)?(?:sites?|apps?|books?)\b/i;
const OTHER_DIM: Record<string, string> = { addres: "recipient", account: "recipient", anyone: "recipient", nobody: "recipient", "no one": "recipient", anybody: "recipient", someone: "recipient", somebody: "recipient", site: "venue", app: "venue", book: "venue", token: "asset", asset: "asset", coin: "asset", chain: "chain", network: "chain", venue: "venue", exchange: "venue", protocol: "venue", platform: "venue", addresse: "recipient", address: "recipient", recipient: "recipient", wallet: "recipient", market: "market", host: "host", domain: "host", contract: "contract" };

/** "Never remove margin" binds removals only; "add or remove", "adjust" or "manage" bind both ways. */
function marginDirection(text: string): "add" | "remove" | undefined {
  const remove = /\b(?:remov(?:e|ing)|reduc(?:e|ing)|decreas(?:e|ing)|withdraw(?:ing)?|pull(?:ing)?)\s+(?:\w+\s+)?margin\b/i.test(text);
  const add = /\b(?:add(?:ing)?|top(?:ping)?[- ]?up|increas(?:e|ing)|manag(?:e|ing)|adjust(?:ing)?|chang(?:e|ing))\b|\bmargin\s+(?:changes?|adjustments?|top[- ]?ups?)\b/i.test(text);
  if (remove && !add) return "remove";
  if (/\b(?:add(?:ing)?|top(?:ping)?[- ]?up|increas(?:e|ing))\s+(?:\w+\s+)?margin\b/i.test(text) && !remove && !/\b(?:manag|adjust|chang)/i.test(text)) return "add";
  return undefined;
}

const DENY_LIST_NOUN_RE = /\b(?:anything|any\s+funds|any\s+money|(?:(?:any|an|a|the|all)\s+)?(?:address(?:es)?|wallets?|accounts?|recipients?|entries)(?:\s+(?:listed|named|found))?)\b/gi;


/** Where each verb first matches in the text (before the recognisers consume it). */
function verbPositions(text: string): number[] {
  const out: number[] = [];
  for (const v of VERBS) {
    const m = new RegExp(v.re.source, "i").exec(text);
    if (m) out.push(m.index);
  }
  return out;
}

const BUY_ONLY = /\b(?:buy(?:s|ing)?|purchas\w*)\b/i;

export function parseNegative(c: Clause, st: ParseState, rule: string): boolean {
  // "Never interact with any other token": a restatement of an allowlist given elsewhere.
  const other = OTHER_RE.exec(c.text);
  if (other && !c.used[other.index] && !/§[aqhcn]\d|\b[A-Z]{2,}\b/.test(c.text.replace(other[0], ""))) {
    const extra = /\b(anyone|anybody|someone|somebody|nobody|no one)\s+else\b|\b(sites?|apps?|books?|address(?:es)?|wallets?|accounts?|recipients?)\b/i.exec(other[0]);
    const noun = (other[1] ?? extra?.[1] ?? extra?.[2] ?? "anything").toLowerCase().replace(/e?s$/, "");
    // "It is forbidden to withdraw or to send the money to other address": with no list anywhere, "other" is every
    // address, and the moves the clause names are forbidden (resolved once the whole intent is read).
    const dim = OTHER_DIM[noun] ?? "any";
    const moves = dim === "recipient" ? VERBS.filter((v) => v.neg.some((a) => OUT_OF_ACCOUNT.includes(a)) && new RegExp(v.re.source, "i").test(c.text)) : [];
    // A move to "other address" reaches someone else: a move between the account's own balances is outside it.
    const forbid = moves.length ? { activities: uniq(moves.flatMap((v) => v.neg)), label: uniq(moves.map((v) => v.label)).join(" or "), external: true } : undefined;
    st.reinforce.push({ dim, rule, forbid });
    c.used.fill(true);
    return true;
  }
  const neg: RegExpExecArray[] = [];
  scan(c, NEG_RE, (m) => void neg.push(m));
  if (neg.length === 0) return false;
  const positions = verbPositions(c.text);
  const it = takeItems(c, st, "rule");
  const verbs = findVerbs(c);
  // "no usd/spot sends", "no native ETH transfers": a qualifier only narrows what is forbidden; dropping it forbids more.
  if (verbs.length) scan(c, QUALIFIER_RE, () => undefined);
  if (verbs.length) scan(c, NEG_SCOPE_RE, () => undefined);
  // "No purchase may be made", "no transfer is to be carried out": the passive only says the act happens.
  if (verbs.length) scan(c, /\b(?:may|shall|can|will|should|must|is\s+to|are\s+to)\s+(?:not\s+)?(?:ever\s+)?be\s+(?:made|placed|executed|submitted|entered|done|carried\s+out|effected)\b/gi, () => undefined);
  // "never pay the addresses in context.sanctioned", "never send anything to an address in context.frozen": the
  // nouns only introduce the list; what is forbidden is a move to an address on it.
  if (verbs.length && it.recipientRefs.length && !it.anyone) scan(c, DENY_LIST_NOUN_RE, () => undefined);
  // "No perps on this account", "no spot": a market type the clause's orders may not use.
  const marketTypeBan = verbs.length === 0 && it.marketTypes.length > 0 && !hasAny(it);
  if (marketTypeBan) scan(c, NEG_SCOPE_RE, (m) => !/^(?:initiat|conduct|carry|process|pull|tak|hand|put|ever)/i.test(m[0]));
  // "Do not trade memecoins": a prohibition whose object we cannot read is not understood, not a blanket ban.
  const left = unexplained(c).filter((w) => !NEG_WORD.test(w));
  if (left.length) {
    for (const n of neg) c.used.fill(false, n.index, n.index + n[0].length);
    return false;
  }
  const acts = uniq(verbs.flatMap((v) => v.neg));
  const lists = listsFrom(it, []);
  if (marketTypeBan) {
    add(st, { kind: "deny", dim: "marketType", values: it.marketTypes, activities: ["order"], rule });
    return true;
  }
  // "No spot trading", "never trade perps": trading only on that market type is forbidden (a spot trade is also any
  // swap); the rest of trading stays as the other rules say.
  if (verbs.length && verbs.every((v) => v.label === "trading") && it.marketTypes.length && !hasAny(it)) {
    add(st, { kind: "deny", dim: "marketType", values: it.marketTypes, activities: ["order"], rule });
    if (it.marketTypes.includes("spot")) add(st, { kind: "forbid", activities: ["swap"], label: "spot trading", rule });
    return true;
  }
  const listy = verbs.length === 0 || verbs.every((v) => v.listy);
  if (acts.length && (!listy || lists.length === 0)) {
    // "Never send HYPE to anyone": forbid the activity, limited to the named asset when one is given.
    // "no withdrawals, USDC sends or vault deposits": a token written before a later verb names only that item, so
    // the prohibition covers every token; "never send or bridge HYPE" (token after every verb) covers HYPE.
    const sym = !listy && it.assets.length === 1 ? it.assets[0] : undefined;
    const symAt = sym ? c.text.search(new RegExp(`\\b${sym}\\b`, "i")) : -1;
    const asset = sym && (positions.length <= 1 || symAt > Math.max(...positions)) ? sym : undefined;
    if (!listy && (it.recipients.length || it.recipientRefs.length) && !it.anyone) {
      add(st, { kind: "deny", dim: "recipient", values: it.recipients, refs: it.recipientRefs.length ? it.recipientRefs : undefined, activities: acts, rule });
    } else if (!listy && it.chains.length && !it.anyone && !(it.hosts.length || it.hostRefs.length) && !acts.some((a) => a === "withdrawal" || a === "bridge" || a === "unstake")) {
      // "never pay on testnets", "no payments on Arbitrum": paying there is forbidden, not paying at all (the chain
      // had been dropped, forbidding every payment). Any asset named with it only narrows it: the ban covers more.
      // Not for moves that leave for a chain ("no withdrawals to Arbitrum"): there the chain is where they land,
      // which a chain list stated for other activities does not read, so the whole activity stays forbidden.
      add(st, { kind: "deny", dim: "chain", values: it.chains, activities: acts, rule });
    } else if (!listy && (it.hosts.length || it.hostRefs.length) && !it.anyone) {
      // "Never pay the hosts in context.blocked_hosts": paying those hosts is forbidden, not paying at all.
      add(st, { kind: "deny", dim: "host", values: it.hosts, refs: it.hostRefs.length ? it.hostRefs : undefined, activities: acts, rule });
    } else {
      const direction = acts.includes("margin") ? marginDirection(c.text) : undefined;
      // "No NFTs": the class binds only when every word names it; "no NFTs or withdrawals" forbids withdrawals of anything.
      const assetClass = verbs.every((v) => v.assetClass === "nft") ? "nft" : undefined;
      // "no looping", "no flash loans": a pattern or a kind binds only when it is the clause's one word; beside
      // another word ("no looping or borrowing") each is forbidden whole.
      const one = verbs.length > 0 && verbs.every((v) => v === verbs[0]) ? verbs[0] : undefined;
      // "Never buy shares priced above 0.9": a ban on buying leaves selling alone (a swap always buys something).
      if (one?.label === "trading" && BUY_ONLY.test(c.text) && !/\bsell|\btrad|\bclos/i.test(c.text) && !asset) {
        add(st, { kind: "side", allowed: "sell", rule });
        add(st, { kind: "forbid", activities: ["swap"], label: "buying", rule });
        return true;
      }
      // "must not send any asset to another address": aimed at moves that reach someone else, so a move between the
      // account's own balances (which reaches no address) is outside it; a move to a sub-account stays inside.
      const external = acts.includes("internal_transfer") && TO_OTHER_PARTY.test(c.text) ? true : undefined;
      add(st, { kind: "forbid", activities: acts, label: uniq(verbs.map((v) => v.label)).join(" or "), asset, direction, assetClass, together: one?.together, typeRe: one?.typeRe, external, rule });
    }
    return true;
  }
  for (const [dim, values] of lists) add(st, { kind: "deny", dim, values, activities: acts, rule } as Constraint);
  if (it.recipientRefs.length) add(st, { kind: "deny", dim: "recipient", values: [], refs: it.recipientRefs, activities: acts, rule });
  // "blocked: domains in context.blocked_domains", "never the markets in context.excluded": a context list of hosts or
  // markets named in a prohibition is a denylist, never the allowlist the same words make in a permission.
  const denyRefs: Array<[ListDim, string[]]> = [["host", it.hostRefs], ["market", it.marketRefs]];
  for (const [dim, refs] of denyRefs) if (refs.length) add(st, { kind: "deny", dim, values: [], refs, activities: acts, rule } as Constraint);
  // A prohibition that names nothing we know ("no memecoins") stays unexplained.
  if (lists.length === 0 && !it.recipientRefs.length && !it.hostRefs.length && !it.marketRefs.length) for (const m of neg) c.used.fill(false, m.index, m.index + m[0].length);
  return lists.length > 0 || it.recipientRefs.length > 0 || it.hostRefs.length > 0 || it.marketRefs.length > 0;
}

/** Words an "only" may skip before what it narrows ("only into the", "only ever trade"). */
const ONLY_SKIP = /^(?:into|in|on|the|a|an|to|do|ever|be|with|about|those|these|them|ones?|for|of|at)$/i;

/**
 * "we're only into those weird niche ones": nothing after "only" was read by any recogniser, so the "only" cannot
 * be credited to anything else the clause named (a venue in its label) and stays unread.
 */
function onlyNarrowsUnread(c: Clause): boolean {
  const re = /\bonly\b/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(c.text)) !== null) {
    if (c.used[m.index]) continue;
    const word = /[A-Za-z§$\d][\w'’§.$-]*/g;
    word.lastIndex = m.index + m[0].length;
    let w: RegExpExecArray | null;
    let content = false;
    let read = false;
    while ((w = word.exec(c.text)) !== null) {
      // "markets in context.watchlist only # fed / cpi / jobs": a config line's comment describes, it does not narrow.
      if (/\s#\s/.test(c.text.slice(m.index, w.index))) break;
      if (c.used[w.index]) read = true;
      else if (!ONLY_SKIP.test(w[0])) content = true;
    }
    if (content && !read) return true;
  }
  return false;
}

/** Beside a context list, only a topic with a known category word is read ("Election markets only (context.x)"). */
function categoryBesideList(c: Clause, st: ParseState): string[] {
  const saved = c.used.slice();
  const topics = takeTopic(c, st);
  if (topics.some((t) => t.split(/\s+/).some((w) => catOfWord(w) !== null))) return topics;
  c.used = saved;
  return [];
}

export function parsePositive(c: Clause, st: ParseState, rule: string, opts: { inherit: Activity[]; capClause: boolean; produced?: boolean; permitted?: boolean }): Activity[] {
  const route = routeAssets(c);
  const it = takeItems(c, st, "rule");
  if (route) it.assets = it.assets.filter((a) => !route.includes(a));
  const verbs: Verb[] = route ? [VERBS.find((v) => v.label === "moving funds") as Verb] : findVerbs(c, false);
  // "Election markets only (context.markets says which market is what)": a category beside a context list is read
  // too (both must hold); dropping it had let a Wimbledon bet through as "in context.markets".
  // "(context.markets says which market is what)": what the context path tells, not a category of its own.
  scan(c, /(?<=§c\d+\s+)(?:says|tells(?:\s+you)?|shows|gives|explains)\s+(?:which|what|who)\s+[^()]*(?=\))/gi, () => undefined);
  const topics = it.markets.length ? [] : it.marketRefs.length ? categoryBesideList(c, st) : takeTopic(c, st);
  // "im only into the nba finals markets": an "only" that narrowed nothing this clause could name (no verb, no list,
  // no context list) stays unread, so the words it narrows are not silently ignored.
  const narrowsNothing = !opts.produced && verbs.length === 0 && listsFrom(it, topics).length === 0 && !it.recipientRefs.length && !it.otherRefs.length && !it.hostRefs.length && !it.marketTypes.length;
  if (!narrowsNothing && !(verbs.length === 0 && onlyNarrowsUnread(c))) scan(c, /\b(?:only|exclusively|solely|just|allowed|permitted|whitelisted|allowlisted|restricted to|limited to|stick to|nothing (?:else|other than|but))\b:?/gi, () => undefined);
  // "in two markets: 'A' and 'B'": the count introduces the list that follows.
  scan(c, /\b(?:two|three|four|five|six|several|a few|the following|these|both)(?=\s+(?:[a-z-]+\s+)?(?:markets?|tokens?|assets?|coins?|address(?:es)?|wallets?|hosts?|domains?|venues?|chains?|recipients?|vendors?)\s*:)/gi, () => undefined);
  // "the two data services we have contracts with: a.example ..., b.example ...": the count names the hosts that follow.
  // "to our two bot wallets (context.bots)": the count introduces the list in parentheses.
  scan(c, /\b(?:two|three|four|five|six|several|a few|both)(?=\s+(?:[a-z-]+\s+)?(?:address(?:es)?|wallets?|accounts?|recipients?|vendors?|bots?)\s*\(\s*§c\d+\s*\))/gi, () => undefined);
  scan(c, /\b(?:two|three|four|five|six|several|a few|both)(?=\s+(?:[a-z-]+\s+)?(?:services?|providers?|apis?|vendors?|sites?|endpoints?|feeds?)\b[^.;:§]{0,40}:\s*§h\d)/gi, () => undefined);
  const own = uniq(verbs.flatMap((v) => v.pos));
  if (own.length) add(st, { kind: "permit", activities: own, rule });
  // A clause without a verb ("only to validator 0x..") qualifies the permission before it in the sentence.
  const acts = own.length || verbs.length ? own : opts.inherit;
  // Symbols in a pure cap sentence ("Keep total staked HYPE at or below 200") are its unit, not an allowlist.
  const restrictive = /\b(?:only|exclusively|solely|restricted to|limited to)\b/i.test(c.text);
  if (opts.capClause && !verbs.length && !restrictive && !it.recipients.length && !it.recipientRefs.length) return acts;
  // "The WETH must be delivered to our Safe": without a verb or "only", a named asset is the subject, not a list.
  // A clause whose activity was already permitted by a recogniser ("it can open shorts on the SOL perp") names what it may touch.
  const statement = !verbs.length && !opts.permitted && !restrictive && /\b(?:must|should|shall|will|is|are|be|has to|have to|needs? to)\b/i.test(c.text);
  if (statement) it.assets = [];
  for (const [dim, values] of listsFrom(it, topics)) {
    if (dim === "recipient" && (it.beneficiaries.length || acts.includes("supply")) && !acts.some((a) => ["transfer", "payment", "withdrawal", "redeem"].includes(a)))
      continue;
    const quoteImplicit = dim === "asset" && acts.includes("order") ? true : undefined;
    const forAssets = route && dim === "recipient" ? route : undefined;
    add(st, { kind: "allow", dim, values, activities: acts, quoteImplicit, forAssets, rule } as Constraint);
  }
  if (it.recipientRefs.length) add(st, { kind: "allow", dim: "recipient", values: [], refs: it.recipientRefs, activities: acts, forAssets: route ?? undefined, rule });
  const marketRefs = it.marketRefs;
  const assetRefs = it.otherRefs.filter((r) => !marketRefs.includes(r));
  if (marketRefs.length) add(st, { kind: "allow", dim: "market", values: [], refs: marketRefs, activities: acts, rule });
  if (assetRefs.length) add(st, { kind: "allow", dim: "asset", values: [], refs: assetRefs, activities: acts, rule });
  if (it.hostRefs.length) add(st, { kind: "allow", dim: "host", values: [], refs: it.hostRefs, activities: acts, rule });
  // "Lend USDC on Aave for our Safe 0x..": for a deposit, the named wallet is whose position it is.
  const depositing = acts.some((a) => a === "supply" || a === "vault_deposit") && !acts.some((a) => ["transfer", "payment", "withdrawal", "redeem"].includes(a));
  const beneficiaries = it.beneficiaries.length ? it.beneficiaries : depositing ? it.recipients : [];
  if (beneficiaries.length) add(st, { kind: "beneficiary", addresses: beneficiaries, rule });
  // "beneficiary: context.vault (onBehalfOf / withdraw-to must be the vault)": whose position it is, from the context.
  else if (it.recipientRefs.length && /\bon\s*behalf\s*of\b|\bonBehalfOf\b|\bbeneficiar(?:y|ies)\b|\bcredited to\b/i.test(c.text))
    add(st, { kind: "beneficiary", addresses: [], refs: it.recipientRefs.filter((r) => r !== SENDER_REF), rule });
  if (it.marketTypes.length && (acts.includes("order") || acts.length === 0) && !/\bfrom spot\b/i.test(c.text))
    add(st, { kind: "allow", dim: "marketType", values: it.marketTypes, activities: ["order", "cancel"], rule });
  return acts;
}

/**
 * A leading label: "Treasury agent.", "Hyperliquid staking bot:", "Aave V3 on Ethereum, for our Safe 0x..:".
 * It carries no rule; its venue and chain narrow the scope, its address is the owner's own wallet.
 */
export function parseLabel(c: Clause, st: ParseState, prefixEnd: number, rule: string): void {
  const sub: Clause = { ...c, text: c.text.slice(0, prefixEnd), used: c.used.slice(0, prefixEnd) };
  const it = takeItems(sub, st, "label");
  for (let i = 0; i < prefixEnd; i++) c.used[i] = true;
  const lower = sub.text.toLowerCase();
  if (it.chains.length) add(st, { kind: "allow", dim: "chain", values: it.chains, activities: [], rule });
  // A bare "hl" (lower case) in a label names Hyperliquid.
  if (/\bhl\b/i.test(sub.text) && !it.venues.includes("hyperliquid")) it.venues.push("hyperliquid");
  if (it.venues.length && !it.venues.includes("x402")) add(st, { kind: "allow", dim: "venue", values: it.venues, activities: [], rule });
  if (it.hosts.length) add(st, { kind: "allow", dim: "host", values: it.hosts, activities: [], rule });
  if (/\bbets?\b|\bbetting\b|\bprediction\b/.test(lower)) st.labelPermits.push("order", "cancel");
  if (/\btrad(?:e|er|ing)\b/.test(lower)) st.labelPermits.push("order", "cancel", "swap");
  if (/\bstaking\b/.test(lower)) st.labelPermits.push("stake", "delegate");
  if (/\bpayouts?\b|\bpayments?\b|\bpayroll\b|\btop[- ]?ups?\b|\bgas money\b/.test(lower)) st.labelPermits.push("transfer", "payment");
  consume(c, 0, prefixEnd);
}

/** The activity phrases a text names, with their labels ("Token approvals" -> "token approvals"), for pronoun resolution. */
export function activityPhrases(text: string): Array<{ label: string; text: string }> {
  const out: Array<{ label: string; text: string }> = [];
  for (const v of VERBS) {
    if (v.label === "anything") continue;
    const m = new RegExp(v.re.source, v.re.flags.replace("g", "")).exec(text);
    if (m && m[0].trim()) out.push({ label: v.label, text: m[0].trim() });
  }
  return out;
}
