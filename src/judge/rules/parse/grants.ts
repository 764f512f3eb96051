/**
 * Allowances scoped to the clause that gives them (grants).
 *
 * Owners often write several separate permissions, each with its own asset, recipients and cap: "USDC to the
 * contractors in context.contractors, up to 1,800 USDC each" beside "SOL to the ops wallets in context.ops_wallets,
 * up to 12 SOL each". Read as global lists, the two clauses intersect (a SOL transfer fails the USDC clause's asset
 * list) or union (USDC may then go to an ops wallet that only the SOL clause names). Neither is what was written.
 *
 * Design. A *grant unit* is one sentence that permits moving value (a move permission, a route, or a list bound to
 * moves) and names what moves: an asset list, or failing that the token a per-item cap is counted in ("max 2500
 * USDC per send"). Its recipients are the sentence's recipient lists, or, for "to those same addresses", the
 * previous unit's. Its caps are the sentence's per-item caps. One sentence naming several assets and several
 * recipient lists in parallel ("pay suppliers (context.s) in USDC ... and couriers (context.c) in ETH ...") is split
 * by the order in which they are written, when each part names exactly one of each.
 *
 * When an intent gives two or more units, each becomes a `grant` constraint and the lists and caps it was built from
 * are marked with its id: they are then checked only inside the grant (checks/grants.ts), never globally. With one
 * unit nothing changes (its lists are the only lists, read as before). Everything that is not part of a unit stays
 * global and binds every action: prohibitions and deny lists ("never to context.frozen"), daily and other period
 * caps, chain and venue scope, "needs a human above X", and lists written in sentences of their own.
 *
 * Invariants (fail closed): a grant never removes a deny list, a prohibition or a global cap; a move is allowed by the
 * grants only when it fits one grant completely (asset, recipients, that grant's caps); a move of an asset no grant
 * names is refused (held for a human when the owner wrote "anything else: ask me"); a grant that says to whom
 * nowhere, beside grants that do and with no global recipient list, cannot pass a move on its own.
 */
import { OPEN_UNIT, type Activity, type CapRule, type Constraint, type GrantRule } from "../types";
import { uniq } from "./state";

type ListC = Extract<Constraint, { kind: "allow" | "deny" }>;

/** Activities that move value to a recipient: what a grant can cover. */
export const GRANT_MOVES: Activity[] = ["transfer", "payment", "withdrawal", "bridge"];

/** One sentence of the intent and the constraints it produced, [from, to) in the constraint list. */
export interface SentenceSpan {
  text: string;
  from: number;
  to: number;
}

interface Unit {
  text: string;
  activities: Activity[];
  universal: boolean;
  assets: string[];
  recipients: string[];
  refs: string[];
  caps: CapRule[];
  members: number[];
  /** The sentence itself permits moving ("May send ...", "pay ..."), not only names a list. */
  permits: boolean;
}

const movesValue = (acts: Activity[]): boolean => acts.length === 0 || acts.some((a) => GRANT_MOVES.includes(a));

/** "to those same addresses", "to the same grantees": the recipients of the permission before. */
const SAME_RE = /\b(?:the|those|these)\s+same\b|\bsame\s+(?:address(?:es)?|adresses|recipients?|wallets?|people|list|accounts?|payees?)\b/i;

const MOVE_WORD = /\b(?:sent|send|sends|sending|paid|pay|pays|paying|transfer(?:s|red|ring)?|top[- ]?ups?|topped up|disburse[sd]?|refund(?:s|ed)?|payouts?)\b/i;

const PERMISSIVE = /\b(?:may|can|allowed|permitted|authori[sz]ed|fine|ok|okay)\b/i;
const NEGATED = /\b(?:never|not|no|nothing|don['’]?t|do not|must not|cannot|can['’]t|may not|won['’]t)\b/i;
const NOT_MORE = /\b(?:not|no)\s+(?:more|higher|bigger|larger|greater)\s+(?:than|as)\b/gi;

/** "anything else: ask me", "otherwise check with me first": what no permission covers goes to a human. */
const ASK_OTHERWISE_RE =
  /\b(?:anything|everything|something)\s+else\b[^.;\n]{0,20}?\b(?:ask|check with|ping|escalate|confirm with|run it by)\b|\botherwise\b[\s,:-]{0,3}(?:please\s+)?(?:ask|check with|ping|escalate)\b|\b(?:anything|everything)\s+(?:not\s+(?:listed|covered|mentioned)|outside\s+(?:this|these|that))\b[^.;\n]{0,30}?\b(?:ask|check with|escalate|needs?\s+(?:my|a human|human))\b/i;

const itemCap = (k: Constraint): k is CapRule =>
  k.kind === "cap" && k.period === "action" && !k.limitOf && (k.scope === "transfer" || k.scope === "any") && (!k.activities || movesValue(k.activities));

/**
 * "allow usdSend -> context.desks" then "max 2500 USDC per send" on a line of its own, or "§1 ... in USDC." then "A
 * single payment shall not exceed 2,400 USDC.": a sentence that only caps, in a token, right after a permission
 * belongs to it when it counts the token the permission names (or the permission names none). A cap in dollars
 * there stays global: it may be meant for every permission, and global is the stricter reading.
 */
function trailingCaps(next: SentenceSpan | undefined, cs: Constraint[], assets: string[]): number[] {
  if (!next || next.to <= next.from) return [];
  const idx = Array.from({ length: next.to - next.from }, (_, k) => next.from + k);
  if (!idx.every((i) => itemCap(cs[i]))) return [];
  const units = idx.map((i) => (cs[i] as CapRule).limit.unit);
  if (units.some((u) => u === "USD" || u === OPEN_UNIT || (assets.length > 0 && !assets.includes(u)))) return [];
  return idx;
}

function unitOf(span: SentenceSpan, cs: Constraint[], next?: SentenceSpan): Unit | null {
  const assets: string[] = [];
  const recipients: string[] = [];
  const refs: string[] = [];
  const caps: CapRule[] = [];
  const members: number[] = [];
  const acts: Activity[] = [];
  let universal = false;
  let moves = false;
  let permits = false;
  for (let i = span.from; i < span.to; i++) {
    const k = cs[i];
    if (k.kind === "permit" && k.activities.some((a) => GRANT_MOVES.includes(a))) {
      moves = true;
      permits = true;
      acts.push(...k.activities);
    } else if (k.kind === "allow" && movesValue(k.activities) && (k.dim === "asset" || k.dim === "recipient")) {
      // A list of assets given by a context path ("the tokens in context.x") is not a named asset: left global.
      if (k.dim === "asset" && (k.refs?.length || k.values.length === 0)) continue;
      if (k.activities.length === 0) universal = true;
      acts.push(...k.activities);
      if (k.dim === "asset") assets.push(...k.values);
      else {
        moves = true;
        recipients.push(...k.values);
        refs.push(...(k.refs ?? []));
        if (k.forAssets?.length) assets.push(...k.forAssets);
      }
      members.push(i);
    } else if (itemCap(k)) {
      caps.push(k);
      members.push(i);
    }
  }
  // "allow usdSend -> context.desks, max 2500 USDC per send": the token the cap counts is what the permission moves.
  const named = assets.length > 0;
  if (!named) assets.push(...caps.map((c) => c.limit.unit).filter((u) => u !== "USD" && u !== OPEN_UNIT));
  // "ETH may be sent only as gas top-ups of at most 0.02 ETH", "small ETH top-ups, at most 0.01 ETH, may be sent to
  // those same people": a word of sending with a named asset (or a cap in a token, said as a permission) permits
  // moving it, even where no recogniser read the verb. Never a sentence with a negation: "never send more than 0.5
  // ETH" is a global cap, not a permission.
  if (!moves && assets.length && MOVE_WORD.test(span.text) && (named || SAME_RE.test(span.text) || PERMISSIVE.test(span.text)) && !NEGATED.test(span.text.replace(NOT_MORE, " ")))
    moves = true;
  if (!moves) return null;
  for (const i of trailingCaps(next, cs, uniq(assets.map((a) => a.toUpperCase())))) {
    caps.push(cs[i] as CapRule);
    members.push(i);
  }
  if (assets.length === 0) assets.push(...caps.map((c) => c.limit.unit).filter((u) => u !== "USD" && u !== OPEN_UNIT));
  if (assets.length === 0) return null;
  const activities = uniq(acts.filter((a) => GRANT_MOVES.includes(a)));
  return { text: span.text, activities: activities.length ? activities : [...GRANT_MOVES], universal, assets: uniq(assets.map((a) => a.toUpperCase())), recipients: uniq(recipients), refs: uniq(refs), caps, members, permits };
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * "Pay suppliers (context.suppliers) in USDC up to 7,500 USDC each and couriers (context.couriers) in ETH up to
 * 0.1 ETH each": one sentence, two permissions. Split by the order in which assets and recipient lists are written,
 * only when every part names exactly one asset and one recipient list; otherwise the sentence stays one unit.
 */
function split(u: Unit): Unit[] {
  const who = [...u.refs, ...u.recipients];
  if (u.assets.length < 2 || who.length !== u.assets.length) return [u];
  type Anchor = { at: number; kind: "asset" | "who"; value: string };
  const anchors: Anchor[] = [];
  for (const a of u.assets) {
    const m = new RegExp(`(?<![\\w.])${escapeRe(a)}(?![\\w])`, "i").exec(u.text);
    if (!m) return [u];
    anchors.push({ at: m.index, kind: "asset", value: a });
  }
  for (const w of who) {
    const at = u.text.indexOf(w);
    if (at < 0) return [u];
    anchors.push({ at, kind: "who", value: w });
  }
  anchors.sort((x, y) => x.at - y.at);
  const parts: Anchor[][] = [];
  for (const a of anchors) {
    const cur = parts[parts.length - 1];
    if (!cur || cur.some((b) => b.kind === a.kind)) parts.push([a]);
    else cur.push(a);
  }
  if (parts.length !== u.assets.length || parts.some((p) => p.length !== 2)) return [u];
  return parts.map((p) => {
    const asset = p.find((a) => a.kind === "asset")?.value as string;
    const w = p.find((a) => a.kind === "who")?.value as string;
    // A cap counted in a token belongs to the part moving that token; a cap in dollars binds every part (stricter).
    const caps = u.caps.filter((c) => c.limit.unit === "USD" || c.limit.unit === OPEN_UNIT || c.limit.unit === asset);
    return { ...u, assets: [asset], refs: u.refs.includes(w) ? [w] : [], recipients: u.recipients.includes(w) ? [w] : [], caps };
  });
}

/**
 * Sentences about the same asset are one permission said in parts ("this wallet tops up our bots with SOL" and
 * "only send to the bots in context.bots, max 1.5 SOL per top-up"): they are merged, their lists and caps
 * combined, which is the reading the engine gave them before grants (and the stricter one). Grants therefore only
 * separate permissions for different assets or different kinds of move ("usdSend to the desks" and "withdraw3 to
 * the cold wallet", both USDC), or for payees written out that no other sentence names (`ownPayees`).
 */
function merge(units: Unit[]): void {
  for (let i = 0; i < units.length; i++) {
    for (let j = i + 1; j < units.length; j++) {
      const a = units[i];
      const b = units[j];
      if (!b.assets.some((x) => a.assets.includes(x)) || !b.activities.some((x) => a.activities.includes(x))) continue;
      if (ownPayees(a, b) || ownRows(a, b)) continue;
      units[i] = {
        text: `${a.text} ${b.text}`,
        activities: uniq([...a.activities, ...b.activities]),
        universal: a.universal || b.universal,
        assets: uniq([...a.assets, ...b.assets]),
        recipients: uniq([...a.recipients, ...b.recipients]),
        refs: uniq([...a.refs, ...b.refs]),
        caps: [...a.caps, ...b.caps],
        members: [...a.members, ...b.members],
        permits: a.permits || b.permits,
      };
      units.splice(j, 1);
      j = i;
    }
  }
}

/**
 * "May send USDC to 0xA, at most 1500 USDC per transfer." beside "May send USDC to 0xB, at most 6000 USDC per
 * transfer." (two rows of a payout table): each names its own payees by address, none shared, so each cap is that
 * payee's. Kept apart only when both permit a move in words (a sentence that only names a wallet, "keep 2 SOL in the
 * hot wallet", stays merged as before), both name addresses written out (a context list may hold the other's payee,
 * which would then escape its cap) and neither names a list.
 */
function ownPayees(a: Unit, b: Unit): boolean {
  if (!a.permits || !b.permits || a.refs.length || b.refs.length || !a.recipients.length || !b.recipients.length) return false;
  const lower = new Set(a.recipients.map((r) => r.toLowerCase()));
  return !b.recipients.some((r) => lower.has(r.toLowerCase()));
}

/**
 * "topup.deployer = ETH -> context.deployer, max 0.5 ETH per top-up" beside "topup.keeper = ETH -> context.keeper, max
 * 0.2 ETH per top-up": two rows of one asset, each naming whom it pays and its own per-item cap, with no recipient in
 * common. Each cap is its row's: merged, the keeper's 0.2 ETH would have capped the deployer too. A move then fits one
 * row completely (its recipients and its cap) or none, so no row lends its cap to another's recipient.
 */
function ownRows(a: Unit, b: Unit): boolean {
  const who = (u: Unit): string[] => [...u.refs, ...u.recipients.map((r) => r.toLowerCase())];
  const wa = who(a);
  const wb = who(b);
  if (!wa.length || !wb.length || !a.caps.length || !b.caps.length) return false;
  // Each row's caps count its own asset (a dollar cap could be meant for every row: merged, the stricter reading).
  if (![...a.caps, ...b.caps].every((c) => c.limit.unit !== "USD" && c.limit.unit !== OPEN_UNIT)) return false;
  return !wb.some((w) => wa.includes(w));
}

/**
 * Builds the grants of an intent and marks the constraints they fold in (see the header). Returns the grant
 * constraints to append; none when the intent gives fewer than two grant units.
 */
export function buildGrants(cs: Constraint[], spans: SentenceSpan[], intent: string): GrantRule[] {
  const units: Unit[] = [];
  for (const [n, span] of spans.entries()) {
    const u = unitOf(span, cs, spans[n + 1]);
    if (!u) continue;
    if (u.recipients.length === 0 && u.refs.length === 0 && SAME_RE.test(span.text)) {
      const prev = [...units].reverse().find((p) => p.recipients.length || p.refs.length);
      if (prev) {
        u.recipients = prev.recipients;
        u.refs = prev.refs;
      }
    }
    units.push(...split(u));
  }
  merge(units);
  if (units.length < 2) return [];
  const members = new Set(units.flatMap((u) => u.members));
  // A recipient list outside the grants (a sentence of its own) still binds every move.
  const globalWho = cs.some((k, i) => !members.has(i) && k.kind === "allow" && k.dim === "recipient" && movesValue(k.activities) && (k.values.length > 0 || (k.refs?.length ?? 0) > 0));
  const anyWho = units.some((u) => u.recipients.length || u.refs.length);
  const askOtherwise = ASK_OTHERWISE_RE.test(intent);
  const grants: GrantRule[] = units.map((u, id) => ({
    kind: "grant",
    id,
    rule: u.text,
    activities: u.activities,
    universal: u.universal,
    assets: u.assets,
    recipients: u.recipients,
    refs: u.refs,
    openRecipients: !u.recipients.length && !u.refs.length && anyWho && !globalWho,
    caps: u.caps.map((c) => ({ ...c, grantId: undefined })),
    askOtherwise,
  }));
  units.forEach((u, id) => {
    for (const i of u.members) {
      const k = cs[i];
      if (k.kind === "cap" || k.kind === "allow") (k as CapRule | ListC).grantId ??= id;
    }
  });
  return grants;
}
