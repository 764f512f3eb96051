/**
 * Allowlists and denylists: assets, recipients, spenders, venues, chains, hosts, markets, market types and
 * asset classes. Each list applies to the activities its sentence named (or to every action). A value the
 * action does not reveal is a missing fact, never a pass.
 */
import type { Activity, ActionView, Constraint, Finding, ListDim } from "../types";
import { venueOfSpender } from "../known-spenders";
import { addressesIn, aliasesOf, atPath, canonSym, looksLikeAddress, normAddr } from "../context";
import { SENDER_REF } from "../parse/items";
import { marketIdsOfToken, marketListIds } from "./markets";
import { entryFor, hostOf, isHostTable, payeesIn } from "./payees";
import { checkTopicScope } from "./topic-scope";
import { CENTRAL_BANK_RATES, CENTRAL_BANK_WORDS } from "../topics";
import { DISPUTED_STABLES, TOPICS, US_WORDS, USD_STABLES } from "../vocab";

type Ctx = Record<string, unknown> | null;
type ListC = Extract<Constraint, { kind: "allow" | "deny" }>;

// An unstake moves value only where the adapter names a destination (Solana's stake Withdraw pays a recipient);
// one that returns the stake to the same account (no destination) has no recipient to check.
const MOVING: Activity[] = ["transfer", "payment", "withdrawal", "bridge", "delegate", "swap", "redeem", "vault_withdraw", "internal_transfer", "unstake"];

/** Activities that take funds to another chain or out of the venue. */
const LEAVING: Activity[] = ["withdrawal", "bridge", "redeem", "vault_withdraw"];

function applies(c: { activities: Activity[] }, view: ActionView): Activity[] {
  if (c.activities.length === 0) return view.activities;
  return view.activities.filter((a) => c.activities.includes(a) || (a === "cancel" && c.activities.includes("order")));
}

/** The values of one dimension the action shows, for the activities in play; null entries are unknown. */
function valuesOf(c: ListC, dim: ListDim, view: ActionView, acts: Activity[], quoteImplicit = false, internalNamed = false, undelegateNamed = false): Array<string | null> | "n/a" {
  switch (dim) {
    case "asset": {
      if (acts.every((a) => a === "cancel")) return "n/a";
      const nonPrediction = view.orders.filter((o) => o.marketType !== "prediction");
      if (view.orders.length && nonPrediction.length === 0 && !view.swap && !view.moves.length) return "n/a";
      const vals: Array<string | null> = [];
      if (acts.includes("order")) vals.push(...nonPrediction.map((o) => o.asset));
      if (view.swap && acts.some((a) => a === "swap" || a === "wrap" || a === "unwrap")) {
        const sides = [view.swap.sellAsset, view.swap.buyAsset];
        // "Buy SOL": paying with a stablecoin is the quote side, not a second traded asset.
        vals.push(...(quoteImplicit && sides.some((x) => x && !USD_STABLES.has(x)) ? sides.filter((x) => !x || !USD_STABLES.has(x)) : sides));
      }
      if (acts.some((a) => a !== "order" && a !== "swap")) vals.push(...view.moves.map((m) => m.asset));
      if (acts.includes("approval")) vals.push(...view.approvals.map((a) => a.token));
      if (acts.includes("leverage") && view.leverage) vals.push(view.leverage.asset);
      if (vals.length === 0) vals.push(...view.assets);
      return vals.length ? vals : "n/a";
    }
    case "assetClass": {
      const vals: Array<string | null> = [...view.moves.map((m) => m.asset)];
      if (view.swap) vals.push(view.swap.sellAsset);
      return vals.length ? vals : "n/a";
    }
    case "venue":
      return [view.venue];
    case "chain":
      // "Withdrawals to Arbitrum": a chain list stated for withdrawals names where they land, which a withdrawal
      // that leaves for another chain shows apart from the chain it is signed on.
      if (view.destinationChain && acts.length && acts.every((a) => a === "withdrawal" || a === "bridge") && c.activities.length && c.activities.every((a) => LEAVING.includes(a)))
        return [view.destinationChain];
      return [view.chain];
    case "host":
      if (!acts.some((a) => a === "payment" || a === "transfer")) return "n/a";
      return view.hosts.length ? view.hosts : [null];
    case "market":
    case "topic": {
      const preds = view.orders.filter((o) => o.marketType === "prediction" || o.question);
      if (!view.orders.length) return "n/a";
      return preds.length ? preds.map((o) => o.question ?? null) : view.orders.map(() => null);
    }
    case "outcome": {
      const preds = view.orders.filter((o) => o.marketType === "prediction");
      return preds.length ? preds.map((o) => o.asset) : "n/a";
    }
    case "marketType":
      return view.orders.length ? view.orders.map((o) => o.marketType) : "n/a";
    case "recipient": {
      // "undelegate only from the validators in context.jailed": a list the rule binds to undelegating names the
      // validators it may leave. Undelegating pays no one, so no other recipient list reaches it.
      const moving = acts.filter((a) => MOVING.includes(a) || (a === "undelegate" && undelegateNamed));
      if (moving.length === 0) return "n/a";
      const vals: Array<string | null> = [];
      if (moving.includes("swap") && view.swap) vals.push(view.swap.recipient);
      // "move USDC between the master and the sub-accounts in context.subaccounts": the list names the own
      // accounts a move may touch, so a move to or from any other is outside it.
      if (internalNamed && moving.includes("internal_transfer")) {
        if (view.moves.length === 0) vals.push(null);
        for (const m of view.moves) vals.push(m.own ?? null);
      }
      const others = moving.filter((a) => a !== "swap" && a !== "internal_transfer");
      const paysOut = view.moves.some((m) => m.to !== null);
      if (others.length && (paysOut || others.some((a) => a !== "unstake"))) {
        const tos = view.moves.filter((m) => m.to !== null).map((m) => m.to);
        if (tos.length) vals.push(...tos);
        else if (view.recipients.length) vals.push(...view.recipients);
        else if (!moving.includes("delegate") || view.moves.length === 0) vals.push(null);
      }
      return vals.length ? vals : "n/a";
    }
    case "spender":
      return view.approvals.length ? view.approvals.map((a) => a.spender) : "n/a";
    case "contract":
      if (!view.chainId || !/^\d+$/.test(view.chainId)) return "n/a";
      // "SwapRouter02 only" + an approval: the call goes to the token; what must be the listed contract is the spender.
      if (view.activities.length > 0 && view.activities.every((a) => a === "approval") && view.approvals.length)
        return view.approvals.map((a) => a.spender);
      return view.contracts.length ? view.contracts : [null];
  }
}

/** A light stem so "elections" matches "election" and "winner" matches "win". */
function stemWord(w: string): string {
  let s = w.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (/^\d+$/.test(s) || s.length < 4) return s;
  s = s.replace(/(?:ners?|ers?|ings?|ed|es|s)$/, "");
  return s.replace(/([bdfglmnprt])\1$/, "$1");
}

/** "sports" / "US politics" against a market question, via the category word lists. */
function topicMatch(topic: string, question: string): boolean {
  // "the Federal Reserve's rate decisions": a possessive names the institution; "decisions", "calls" and "meetings"
  // are what any market on it resolves on, not words its question must repeat.
  const words = topic
    .split(" ")
    .map((w) => w.toLowerCase().replace(/['’]s$/, ""))
    .filter((w) => !/^(?:[a-z]|the|markets?|events?|related|only|decisions?|calls?|meetings?|announcements?|outcomes?|results?)$/.test(w));
  if (words.length === 0) return false;
  return words.every((w) => {
    if (w === "us" || w === "american" || w === "usa") return US_WORDS.test(question);
    const cat = TOPICS[w] ?? TOPICS[w.replace(/s$/, "")] ?? TOPICS[`${w}s`] ?? (CENTRAL_BANK_WORDS.test(w) ? CENTRAL_BANK_RATES : undefined);
    if (cat) return cat.test(question);
    const stemmed = stemWord(w);
    return question.toLowerCase().split(/[^a-z0-9]+/).some((q) => q === w || stemWord(q) === stemmed);
  });
}

const norm = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();

/**
 * Entries of a context list whose status is not plainly good ({"status": "jailed"}, "jailed since 2026-02-16",
 * "paused pending review"): listed, but not plainly allowed. A status is good only when it says so in one word;
 * any other wording is for a human to read.
 */
const GOOD_STATUS = /^(?:active|ok|okay|approved|enabled|live|healthy|verified|current|allowed|good|online)\.?$/i;

function flaggedIn(c: ListC, ctx: Ctx): Map<string, string> {
  const out = new Map<string, string>();
  for (const ref of c.refs ?? []) {
    const val = atPath(ctx, ref);
    if (!val || typeof val !== "object" || Array.isArray(val)) continue;
    for (const [k, x] of Object.entries(val)) {
      if (!x || typeof x !== "object") continue;
      const r = x as Record<string, unknown>;
      const status = [r.status, r.state].find((s) => typeof s === "string") as string | undefined;
      if ((status && !GOOD_STATUS.test(status.trim())) || r.active === false || r.enabled === false || r.jailed === true)
        out.set(c.dim === "recipient" || c.dim === "spender" || c.dim === "contract" ? normAddr(k) : k.toLowerCase(), status ?? "inactive");
    }
  }
  return out;
}

/** Well-known memecoins: a deny list of "memecoins" that says it is partial still covers these. */
const MEMECOINS = new Set(
  "DOGE SHIB PEPE KPEPE BONK KBONK WIF POPCAT FARTCOIN PENGU FLOKI MOG BRETT MEW GOAT PNUT TRUMP MELANIA NEIRO SPX TURBO BOME MYRO SLERF MOODENG CHILLGUY GIGA PONKE BABYDOGE".split(" "),
);

function allowedSet(c: ListC, ctx: Ctx, missing: string[], sender: string | null = null, hosts: readonly string[] = []): Set<string> {
  const out = new Set<string>();
  const isAddr = c.dim === "recipient" || c.dim === "spender" || c.dim === "contract";
  // A host keeps its hyphens and dots: "quotes-pro.example" and "quotes.pro.example" are different hosts.
  const add = (v: string): void => void out.add(isAddr ? normAddr(v) : c.dim === "asset" ? (canonSym(v) ?? v) : c.dim === "host" ? v.trim().toLowerCase().replace(/\.$/, "") : norm(v));
  for (const v of c.values) add(v);
  for (const ref of c.refs ?? []) {
    if (ref === SENDER_REF) {
      if (sender) add(sender);
      else missing.push("the address the transaction is sent from");
      continue;
    }
    const val = atPath(ctx, ref);
    if (val === undefined) missing.push(ref);
    else if (c.dim === "market") {
      // Token ids, questions, slugs or condition ids, as an array, a map or entries carrying them (markets.ts).
      for (const id of marketListIds(taggedOnly(val, c.rule))) out.add(id);
    } else if (c.dim === "asset") {
      for (const [k, x] of Object.entries(typeof val === "object" && val ? val : {})) {
        add(k);
        if (x && typeof x === "object" && typeof (x as Record<string, unknown>).symbol === "string") add((x as Record<string, string>).symbol);
      }
      if (Array.isArray(val)) for (const x of val) if (typeof x === "string") add(x);
    } else if (c.dim === "host") {
      // [{host, pay_to}]: a list of entries names its hosts in a field.
      const names = Array.isArray(val) ? val.map((x) => (x && typeof x === "object" ? (x as Record<string, unknown>).host ?? (x as Record<string, unknown>).domain ?? (x as Record<string, unknown>).hostname ?? (x as Record<string, unknown>).url : x)) : typeof val === "object" && val ? Object.keys(val) : [val];
      for (const h of names) if (typeof h === "string") add(h.replace(/^https?:\/\//i, "").replace(/[/:].*$/, ""));
    } else if (c.dim === "recipient" && hosts.length && isHostTable(val)) {
      // A recipient list that pairs hosts with payees ({host: payTo}, [{host, pay_to}]) allows, for a payment to a
      // resource, only the payee given for that resource's host: another host's payee, or a host the table does
      // not list, is not allowed.
      for (const h of hosts) for (const a of payeesIn(entryFor(hostOf(h), val))) add(a);
    } else for (const a of addressesIn(val)) add(a);
  }
  // An address book entry of an allowed wallet names its token accounts, which receive on its behalf.
  if (c.dim === "recipient") for (const v of [...c.values, ...(c.refs ?? []).flatMap((r) => addressesIn(atPath(ctx, r)))]) for (const a of aliasesOf(v, ctx)) add(a);
  return out;
}

const WRAPPED: Record<string, string> = { ETH: "WETH", SOL: "WSOL", HYPE: "WHYPE", BTC: "WBTC", STRK: "WSTRK" };
const UNWRAPPED: Record<string, string> = Object.fromEntries(Object.entries(WRAPPED).map(([a, b]) => [b, a]));

function matches(dim: ListDim, value: string, set: Set<string>, wrapping = false): boolean {
  if (dim === "recipient" || dim === "spender" || dim === "contract") return set.has(normAddr(value));
  if (dim === "asset") {
    const s = canonSym(value) ?? value;
    // Wrapping and unwrapping move one asset between its two forms: allowing ETH there allows WETH.
    return set.has(s) || (wrapping && (set.has(WRAPPED[s] ?? "") || set.has(UNWRAPPED[s] ?? "")));
  }
  if (dim === "host") {
    const h = value.toLowerCase();
    return [...set].some((a) => {
      const host = a.replace(/ /g, ".");
      return h === host;
    });
  }
  if (dim === "topic") {
    const q = ` ${norm(value)} `;
    return [...set].some((t) => t.split(" ").every((w) => q.includes(` ${w} `)) || topicMatch(t, value));
  }
  return set.has(norm(value));
}

/** Market questions read better in quotes. */
const show = (dim: ListDim, v: string): string => (dim === "market" || dim === "topic" || dim === "outcome" ? `"${v}"` : v);

const DIM_LABEL: Record<ListDim, string> = {
  asset: "asset",
  recipient: "recipient",
  spender: "approval spender",
  venue: "venue",
  chain: "chain",
  host: "host",
  market: "market",
  topic: "market",
  outcome: "outcome",
  marketType: "market type",
  assetClass: "asset",
  contract: "contract",
};

/** "SOL may only go to X": only the moves (or swap) of the route's assets are bound by the list. */
function routeView(c: ListC, view: ActionView): ActionView | null {
  if (!c.forAssets?.length) return view;
  const own = (a: string | null) => a === null || c.forAssets?.includes(a);
  const moves = view.moves.filter((m) => own(m.asset));
  const swap = view.swap && own(view.swap.sellAsset) ? view.swap : null;
  if (moves.length === 0 && !swap) return view.moves.length || view.swap ? null : view;
  return { ...view, moves, swap };
}

export function checkList(c: ListC, baseView: ActionView, ctx: Ctx, all: readonly Constraint[] = []): Finding[] {
  const view = routeView(c, baseView);
  if (!view) return [];
  const acts = applies(c, view);
  if (acts.length === 0) return [];
  if (c.dim === "venue") {
    const off = venueOffAction(c, view, acts, all);
    if (off) return off;
  }
  if (c.dim === "assetClass") return checkStable(c, view);
  if (c.dim === "topic" && c.kind === "allow") return checkTopicScope(c, view);
  // "approvals only to context.x": a recipient list the rule binds to approvals names who may spend (never unchecked).
  const grants = (xs: readonly string[]) => xs.includes("approval") || xs.includes("permission");
  const asSpender = c.dim === "recipient" && grants(c.activities) && view.approvals.length > 0 && grants(acts);
  const vals = asSpender ? view.approvals.map((a) => a.spender) : valuesOf(c, c.dim, view, acts, !!c.quoteImplicit, c.activities.includes("internal_transfer"), c.activities.includes("undelegate"));
  if (vals === "n/a") return [];
  const missing: string[] = [];
  const set = allowedSet(c, ctx, missing, view.sender ?? null, view.hosts);
  const flagged = flaggedIn(c, ctx);
  const out: Finding[] = [];
  if (missing.length) out.push({ type: "unknown", message: `The rule "${c.rule}" refers to ${missing.join(", ")}, which the context does not provide.` });
  // Prediction orders: the token id identifies the market as well as its question does, and so do the slug and
  // condition id the context's market map gives for that token.
  if (c.dim === "market" || c.dim === "topic") {
    const listed = (o: (typeof view.orders)[number]): boolean => !!o.tokenId && (set.has(norm(o.tokenId)) || (c.dim === "market" && marketIdsOfToken(o.tokenId, ctx).some((id) => set.has(id))));
    const ids = view.orders.filter(listed);
    if (c.kind === "allow" && ids.length === view.orders.length && ids.length > 0) return out;
    if (c.kind === "deny" && ids.length > 0) out.push({ type: "violation", message: `The market ${show(c.dim, ids[0].question ?? ids[0].tokenId ?? "")} is excluded by "${c.rule}".` });
  }
  for (const v of new Set(vals)) {
    if (v === null || v === "UNKNOWN" || /^#\d+$/.test(v)) {
      out.push({ type: "unknown", message: `The action does not show its ${DIM_LABEL[c.dim]}, so "${c.rule}" cannot be checked.` });
      continue;
    }
    // A swap into or out of ETH goes through WETH on every DEX: there, as in wrapping, the two forms are one asset.
    const hit = matches(c.dim, v, set, view.activities.every((a) => a === "wrap" || a === "unwrap" || a === "swap"));
    const flag = hit && c.kind === "allow" ? flagged.get(c.dim === "recipient" || c.dim === "spender" || c.dim === "contract" ? normAddr(v) : v.toLowerCase()) : undefined;
    if (flag) {
      out.push({ type: "unknown", message: `${v} is on the list "${c.rule}" names, but the context marks it ${flag}.` });
      continue;
    }
    if (c.kind === "deny" && !hit && c.dim === "asset" && /memecoin|meme coin|memes?\b/i.test(c.rule) && MEMECOINS.has((canonSym(v) ?? v).toUpperCase())) {
      out.push({ type: "unknown", message: `${v} is widely treated as a memecoin but is not on the list "${c.rule}" gives; whether the rule covers it is for a human.` });
      continue;
    }
    if (c.kind === "allow" && !hit) {
      const sub = c.dim === "host" && [...set].some((a) => v.toLowerCase().endsWith(`.${a.replace(/ /g, ".")}`));
      if (sub) {
        // A subdomain is another host, run by whoever the parent delegates it to: not clearly the listed one.
        out.push({ type: "unknown", message: `The host ${v} is a subdomain of a listed host, not a listed host itself ("${c.rule}").` });
      } else if (c.dim === "topic") {
        out.push({ type: "unknown", message: `It is unclear whether the market "${v}" falls under "${c.rule}".` });
      } else if (c.dim === "asset" && looksLikeAddress(v)) {
        out.push({ type: "unknown", message: `The token ${v} is not identified, so "${c.rule}" cannot be checked.` });
      } else if (!missing.length || set.size) {
        out.push({ type: "violation", message: `The ${DIM_LABEL[c.dim]} ${show(c.dim, v)} is not one the rules allow ("${c.rule}").` });
      }
    }
    if (c.kind === "deny" && hit) out.push({ type: "violation", message: `The ${DIM_LABEL[c.dim]} ${show(c.dim, v)} is excluded by "${c.rule}".` });
  }
  return out;
}

function checkStable(c: ListC, view: ActionView): Finding[] {
  const out: Finding[] = [];
  const vals: Array<string | null> = [...view.moves.map((m) => m.asset)];
  if (view.swap) vals.push(view.swap.sellAsset);
  for (const v of new Set(vals)) {
    const s = canonSym(v);
    const allow = c.kind === "allow";
    if (!s || looksLikeAddress(s)) out.push({ type: "unknown", message: `The token moved is not identified, so "${c.rule}" cannot be checked.` });
    else if (DISPUTED_STABLES.has(s)) out.push({ type: "unknown", message: `Whether ${v} counts as a stablecoin under "${c.rule}" is unclear.` });
    else if (USD_STABLES.has(s) !== allow) out.push({ type: "violation", message: `${v} is ${allow ? "not" : ""} a stablecoin, and the rule says "${c.rule}".`.replace("is  a", "is a") });
  }
  return out;
}

export function checkBeneficiary(c: Extract<Constraint, { kind: "beneficiary" }>, view: ActionView, ctx: Ctx = null): Finding[] {
  if (!view.activities.some((a) => a === "supply" || a === "vault_deposit" || a === "repay" || a === "borrow")) return [];
  if (view.beneficiaries.length === 0) return [{ type: "unknown", message: `The action does not show on whose behalf it acts, so "${c.rule}" cannot be checked.` }];
  // "onBehalfOf must be the vault (context.vault)": the address is read from the context the rule names.
  const fromRefs = (c.refs ?? []).flatMap((r) => addressesIn(atPath(ctx, r)));
  const missing = (c.refs ?? []).filter((r) => addressesIn(atPath(ctx, r)).length === 0);
  if (missing.length) return [{ type: "unknown", message: `The rule "${c.rule}" refers to ${missing.join(", ")}, which the context does not provide.` }];
  const ok = new Set([...c.addresses, ...fromRefs].map(normAddr));
  const bad = view.beneficiaries.filter((b) => !ok.has(normAddr(b)));
  return bad.length ? [{ type: "violation", message: `The position would be credited to ${bad[0]}, not ${c.addresses[0] ?? fromRefs[0]} as "${c.rule}" requires.` }] : [];
}

/**
 * A venue list meets an action that runs on no venue of its own: wrapping runs on the token's contract, and an
 * approval on the token's chain, whatever venue it is for. Returns the findings that settle the list for such an
 * action, or null to check it as usual.
 *
 * - Wrapping or unwrapping, under a list not stated for it: the list does not reach it (the scope check still asks
 *   whether wrapping is permitted at all).
 * - An approval: the venue it is for is its spender's. A spender the rules name on an approvals list is settled
 *   there; a spender known to belong to a venue is checked against the list; any other spender is not shown to be
 *   for a listed venue, which blocks under a list stated for approvals and is for a human under a general one.
 */
function venueOffAction(c: ListC, view: ActionView, acts: Activity[], all: readonly Constraint[]): Finding[] | null {
  const named = (xs: readonly Activity[], a: Activity): boolean => xs.includes(a);
  if (acts.every((a) => a === "wrap" || a === "unwrap") && !acts.some((a) => named(c.activities, a))) return [];
  if (!acts.every((a) => a === "approval" || a === "permission") || view.approvals.length === 0) return null;
  const spenderLists = all.filter((k): k is ListC => k.kind === "allow" && k.dim === "spender" && (k.activities.length === 0 || k.activities.includes("approval")));
  const listed = new Set(spenderLists.flatMap((k) => k.values.map(normAddr)));
  const venues = new Set(c.values.map((v) => v.toLowerCase()));
  const out: Finding[] = [];
  for (const a of view.approvals) {
    if (!a.spender) {
      out.push({ type: "unknown", message: `The action does not show its approval spender, so "${c.rule}" cannot be checked.` });
      continue;
    }
    if (listed.has(normAddr(a.spender))) continue;
    const v = venueOfSpender(a.spender);
    if (v && venues.has(v)) continue;
    if (v || c.activities.includes("approval")) out.push({ type: "violation", message: `The approval goes to ${a.spender}, which is not a contract of ${c.values.join(" or ")} ("${c.rule}").` });
    else out.push({ type: "unknown", message: `The approval goes to ${a.spender}, which is not shown to be a contract of ${c.values.join(" or ")} ("${c.rule}").` });
  }
  return out;
}

/**
 * "the markets tagged nba in context.markets": only the entries carrying that tag are on the list. An entry that shows
 * no tags is not shown to carry it, so it is left off (the action is refused or held, never let through).
 */
function taggedOnly(val: unknown, rule: string): unknown {
  const tag = /\btagged\s+(?:as\s+|with\s+)?["'“]?([\w-]+)/i.exec(rule)?.[1]?.toLowerCase();
  if (!tag) return val;
  const carries = (x: unknown): boolean => {
    if (!x || typeof x !== "object") return false;
    const r = x as Record<string, unknown>;
    const tags = [r.tags, r.tag, r.category, r.categories].flatMap((t) => (Array.isArray(t) ? t : [t])).filter((t): t is string => typeof t === "string");
    return tags.some((t) => t.toLowerCase() === tag);
  };
  if (Array.isArray(val)) return val.filter(carries);
  if (val && typeof val === "object") return Object.fromEntries(Object.entries(val).filter(([, x]) => carries(x)));
  return [];
}
