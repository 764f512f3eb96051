/**
 * Recognises the things a rule talks about: token symbols, venues, chains, addresses (with the role the
 * surrounding words give them), hosts, quoted market names, context references and asset classes. The caller
 * (permits or prohibitions) decides whether they form an allowlist or a denylist.
 */
import { consume, scan, type Clause } from "../text";
import { CHAIN_IDS, CHAINS, VENUES } from "../vocab";
import { asSymbol, type ParseState } from "./state";
import { PERMIT2 } from "../known-spenders";

export interface Items {
  assets: string[];
  venues: string[];
  chains: string[];
  hosts: string[];
  markets: string[];
  outcomes: string[];
  recipients: string[];
  beneficiaries: string[];
  contracts: string[];
  spenders: string[];
  /** context paths ("context.suppliers") naming recipients. */
  recipientRefs: string[];
  /** context paths naming assets or markets. */
  otherRefs: string[];
  /** The subset of otherRefs that lists prediction markets (by token id, question, slug or condition id). */
  marketRefs: string[];
  /** context paths naming allowed hosts ("only the hosts in context.allowed_hosts"). */
  hostRefs: string[];
  marketTypes: Array<"perp" | "spot" | "prediction">;
  classes: string[];
  /** "to anyone", "any address": the rule covers every recipient. */
  anyone: boolean;
}

/**
 * A context path that names a figure (spend so far, a running total, a balance, a value) rather than a list:
 * "context.paid_this_month_usdc", "context.aave.debt_usd", "context.portfolio_usd".
 */
export function isCounterRef(ref: string): boolean {
  return /spent|spend|budget|usage|so_?far|remaining|prices?\b|counter|paid|sent|to_?date|today|total|supplied|swapped|traded|debt|collateral|portfolio|value|balance|equity|exposure|_usdc?$|_sol$|_eth$|_strk$|_hype$|_amount$|\bamount$|(?:staked|delegated)_(?:amount|total|strk|hype|sol|eth|usdc?)\b|(?:total|amount)_(?:staked|delegated)\b/i.test(ref);
}

/**
 * A context list of prediction markets: its name says so ("context.watchlist", "context.allowed_conditions"), the
 * words before it name what identifies a market ("whose condition id is in", "slugs in"), or, in rules about
 * prediction markets, they call its entries markets ("only the macro markets in context.x"). On other venues
 * "markets in context.x" stays a list of assets.
 */
export function isMarketRef(ref: string, before: string, prediction: boolean): boolean {
  if (/market|question|event|condition|slug|watch_?list/i.test(ref)) return true;
  if (/\b(?:condition[\s_-]?ids?|slugs?|questions?|market[\s_-]?ids?|token[\s_-]?ids?)\b[^§]*$/i.test(before)) return true;
  return prediction && /\bmarkets?\b[^§]*$/i.test(before);
}

export function emptyItems(): Items {
  return {
    assets: [],
    venues: [],
    chains: [],
    hosts: [],
    markets: [],
    outcomes: [],
    recipients: [],
    beneficiaries: [],
    contracts: [],
    spenders: [],
    recipientRefs: [],
    otherRefs: [],
    marketRefs: [],
    hostRefs: [],
    marketTypes: [],
    classes: [],
    anyone: false,
  };
}

/** A recipient list entry meaning "the wallet this action is sent from" (the transaction's own `from`). */
export const SENDER_REF = "@sender";

const push = <T>(xs: T[], x: T): void => {
  if (!xs.includes(x)) xs.push(x);
};

// A venue name with the product word that often follows it ("Aave V3 Pool", "Uniswap V3 SwapRouter").
const VENUE_RE = new RegExp(
  `\\b(${Object.keys(VENUES)
    .filter((k) => k !== "hl" && k !== "0x")
    .map((k) => k.replace(/\./g, "\\."))
    .join("|")})\\b(?:\\s+v\\d)?(?:\\s+(?:pool|lending pool|router|swaprouter|protocol|vaults?|contracts?|markets?|exchange|app|dex|clob|api))?\\b`,
  "gi",
);
const TESTNETS = ["sepolia", "base-sepolia", "arbitrum-sepolia", "solana-devnet", "hyperliquid-testnet"];
const CEX = new Set(["kraken", "binance", "coinbase", "okx", "bybit"]);
const CHAIN_WORDS = Object.keys(CHAINS)
  .filter((k) => k !== "base" && k !== "mainnet" && k !== "hyperliquid")
  .sort((a, b) => b.length - a.length);
const CHAIN_RE = new RegExp(`\\b(${CHAIN_WORDS.join("|")})\\b`, "gi");
const NAME_NOUN = /^(validator|router|swaprouter|safe|multisig|vault|pool|contract|wallet|address|treasury|account|deposit|exchange|cold|hot|spender)$/i;

/** "asset: USDC <addr>", "token = <addr>", "mint: <addr>": a key naming a token, then at most its symbol. */
const TOKEN_KEY_RE = /\b(?:assets?|tokens?|mints?|coins?|currency)\s*[:=]\s*(?:\$?[A-Za-z][A-Za-z0-9.]{0,9}\s+)?$/i;

/** Role of an address from the words just before it. */
function roleOf(before: string): "beneficiary" | "contract" | "spender" | "recipient" {
  const b = before.toLowerCase();
  if (/on behalf of|onbehalfof|credited to|for the benefit of/.test(b)) return "beneficiary";
  if (/spender|approv|allowance/.test(b)) return "spender";
  // "SwapRouter02 0x..", "Router V2 0x..": a version suffix still names a contract.
  if (/\b(through|via|using|router|swaprouter|contract|pool)(?:[\s-]?v?\d{1,2})?\b\W*(?:\w+\W+){0,3}$/.test(b)) return "contract";
  return "recipient";
}

function placeAddress(it: Items, role: ReturnType<typeof roleOf>, addr: string): void {
  if (role === "beneficiary") push(it.beneficiaries, addr);
  else if (role === "contract") push(it.contracts, addr);
  else if (role === "spender") push(it.spenders, addr);
  else push(it.recipients, addr);
}

/**
 * Take the items of a clause. In a label ("Solana payouts wallet <addr>:") addresses are the owner's own and
 * the words naming them are remembered so "the Safe" can be resolved later.
 */
export function takeItems(c: Clause, st: ParseState, mode: "label" | "rule"): Items {
  const it = emptyItems();
  const t = c.text;
  scan(c, /\b(?:chain\s?id|chain)\s*[:=]?\s*(\d{1,7})\b|\beip155:(\d{1,7})\b/gi, (m) => {
    const id = m[1] ?? m[2];
    push(it.chains, CHAIN_IDS[id] ?? `eip155:${id}`);
  });
  // "Base (8453)": a bare id in parentheses right after the chain it names.
  scan(c, /\(\s*(\d{1,7})\s*\)/g, (m) => {
    const two = /([A-Za-z]+\s+)?([A-Za-z]+)\s*$/.exec(t.slice(0, m.index));
    const named = two?.[2]?.toLowerCase() ?? "";
    const named2 = two?.[1] ? `${two[1].trim().toLowerCase()} ${named}` : "";
    if (!CHAIN_IDS[m[1]] || (CHAINS[named] !== CHAIN_IDS[m[1]] && CHAINS[named2] !== CHAIN_IDS[m[1]])) return false;
    push(it.chains, CHAIN_IDS[m[1]]);
  });
  scan(c, CHAIN_RE, (m) => push(it.chains, CHAINS[m[1].toLowerCase()]));
  // "testnets" (normalised from "test networks"): the test chains the engine knows (src/venues/lib/chains.ts names
  // Arbitrum Sepolia and Solana devnet too, the Hyperliquid adapter its testnet, so "no testnets" must reach them).
  scan(c, /\btestnets\b/gi, () => {
    for (const t of TESTNETS) push(it.chains, t);
  });
  // Config lines ("network: base", "chain = base"): the key says the lower-case word is the chain.
  scan(c, /\b(?:networks?|chains?)\s*[:=]\s*base\b/gi, () => push(it.chains, "base"));
  scan(c, /(?<=\b(?:networks?|chains?)\s*[:=]\s*)base\b/gi, () => push(it.chains, "base"));
  scan(c, /\b[Oo]n base\b|\bBase\b/g, () => push(it.chains, "base"));
  if (it.chains.length === 0) scan(c, /\bmainnet\b/gi, () => push(it.chains, "ethereum"));
  scan(c, VENUE_RE, (m) => {
    // "our Kraken deposit address 0x..": an exchange named as the owner of an address is not a venue to trade on.
    if (CEX.has(VENUES[m[1].toLowerCase()]) && /^\s+(?:(?:deposit|hot|cold|withdrawal|main)\s+)?(?:address(?:es)?|wallets?|accounts?|deposit)\b/i.test(t.slice(m.index + m[0].length))) return false;
    // "the Uniswap SwapRouter02 recorded in context.router", "on avnu (router = context.avnu)": the venue names a
    // contract the rule gives by address, which the address list checks; as a venue scope it would bind every
    // activity of the clause to the adapter's venue (an approval on the token's chain is never "uniswap").
    const after = t.slice(m.index + m[0].length, m.index + m[0].length + 60);
    const contract = /\b(?:router\w*|pool|aggregator|contract)\s*$/i.test(m[0]) ? /^[^.;]{0,40}?§[ca]\d/.test(after) : /^\s*(?:\(\s*)?(?:v\d\s+)?(?:swap\s*)?(?:router\w*|pool|aggregator|contract)\b[^.;]{0,40}?§[ca]\d/i.test(after);
    if (contract) return;
    push(it.venues, VENUES[m[1].toLowerCase()]);
  });
  scan(c, /\bHL\b/g, () => push(it.venues, "hyperliquid"));
  // "approvals only to Permit2": one contract at one address on every EVM chain, so its name is its address.
  scan(c, /\bpermit\s?2\b(?:\s+contract)?/gi, () => {
    if (mode === "label") return false;
    push(it.spenders, PERMIT2);
  });
  // "swaps: jup only": "jup" in lower case (or capitalised) is Jupiter, the venue; "JUP" in capitals stays the token.
  scan(c, /\b(?:jup|Jup)\b(?!\s*[:=])/g, () => push(it.venues, "jupiter"));
  scan(c, /§h(\d+)/g, (m) => push(it.hosts, c.refs.hosts[Number(m[1])]));
  scan(c, /\b(?:the\s+)?outcomes?\s+§q(\d+)(?:\s+(?:or|and)\s+§q(\d+))?/gi, (m) => {
    push(it.outcomes, c.refs.quotes[Number(m[1])]);
    if (m[2]) push(it.outcomes, c.refs.quotes[Number(m[2])]);
  });
  scan(c, /§q(\d+)/g, (m) => push(it.markets, c.refs.quotes[Number(m[1])]));
  scan(c, /§c(\d+)/g, (m) => {
    const ref = c.refs.ctx[Number(m[1])];
    // "(see context.spent_today_usd)": a spend counter or price feed names where a figure comes from, not a list.
    if (isCounterRef(ref)) return;
    const before = t.slice(Math.max(0, m.index - 60), m.index).toLowerCase();
    if (/host|domain|url|site|endpoint/i.test(ref) || /\b(hosts?|domains?|urls?|sites?|endpoints?|apis?)\b[^§]*$/.test(before)) {
      push(it.hostRefs, ref);
      return;
    }
    if (isMarketRef(ref, before, st.prediction)) {
      push(it.otherRefs, ref);
      push(it.marketRefs, ref);
      // "Grantees and their USDC token accounts are in context.grantees": token accounts receive for their owners.
    } else if (/token|asset|market|mint|coin/.test(ref.toLowerCase()) || /\b(?:tokens?\b(?!\s+accounts?\b)|(?:assets?|markets?|coins?)\b)[^§]*$/.test(before))
      push(it.otherRefs, ref);
    else push(it.recipientRefs, ref);
  });
  // Addresses: the words before give the role, and capitalised words right before are its name.
  scan(c, /§a(\d+)/g, (m) => {
    const addr = c.refs.addresses[Number(m[1])];
    const full = t.slice(Math.max(0, m.index - 80), m.index);
    // "Ana (0x...)": the name before a parenthesised address, read like "Ana 0x...".
    const opened = /^\s*\)/.test(t.slice(m.index + m[0].length)) ? /\(\s*$/.exec(full) : null;
    const pre = opened ? full.slice(0, opened.index) : full;
    const words = [...pre.matchAll(/[A-Za-z][\w'-]*/g)].filter((w) => (w.index ?? 0) + w[0].length <= pre.length);
    // Name words: trailing words that are capitalised or a role noun ("validator", "router"), up to four.
    let k = words.length;
    while (
      k > 0 &&
      words.length - k < 4 &&
      /^\s*$/.test(pre.slice((words[k - 1].index ?? 0) + words[k - 1][0].length, k < words.length ? words[k].index : pre.length)) &&
      (/^[A-Z0-9]/.test(words[k - 1][0]) || NAME_NOUN.test(words[k - 1][0]))
    )
      k--;
    // "(asset: USDC 0xaf88.. only)", "token = WETH 0x82af..": the key says the address is the token's contract, so it
    // is neither a payee nor a name; the symbol before it stays in the text and is read as the asset it is.
    if (TOKEN_KEY_RE.test(pre)) {
      consume(c, m.index, m.index + m[0].length);
      return;
    }
    const names = words.slice(k).map((w) => w[0].toLowerCase().replace(/['’]s$/, ""));
    for (const n of names) if (!/^(the|our|my|a|an)$/.test(n)) st.names.set(n, addr);
    const nameStart = k < words.length ? m.index - full.length + (words[k].index ?? 0) : m.index;
    // "SwapRouter02 0x..", "Base Pool 0x..": a protocol contract, never the owner's wallet or a payee.
    const contractName = names.some((n) => /^(?:swap|universal)?router(?:v?\d{1,2})?$|^pool$|^contract$/.test(n));
    const role = roleOf(t.slice(Math.max(0, nameStart - 60), nameStart));
    if (mode === "label" && !contractName) push(st.self, addr);
    else if (mode !== "label") placeAddress(it, role === "recipient" && contractName ? "contract" : role, addr);
    // "0x1111... (Payroll)": a name in parentheses right after the address.
    const after = opened ? /^\s*\)/.exec(t.slice(m.index + m[0].length)) : /^\s*\(([^()§]{1,40})\)/.exec(t.slice(m.index + m[0].length));
    if (after?.[1]) for (const n of after[1].toLowerCase().split(/\s+/)) if (n) st.names.set(n, addr);
    consume(c, opened && k === words.length ? m.index - full.length + opened.index : nameStart, m.index + m[0].length + (after ? after[0].length : 0));
  });
  // "withdraw to it", "for this address": the owner's own wallet named in the label, when there is one.
  scan(c, /\b(to|into|for|back to|on behalf of)\s+(?:it|itself|this (?:address|wallet|account|safe|vault)|the same (?:address|wallet|account)|ourselves|us|them|they)\b/gi, (m) => {
    if (mode === "label") return false;
    // "this bot does payroll on base for us": whom the agent works for, not where money goes.
    if (/^for$/i.test(m[1]) && /\b(?:us|ourselves)$/i.test(m[0]) && /\b(?:does|do|handles?|runs?|manages?|works?|looks after|takes care of)\b[^.;,]*$/i.test(t.slice(0, m.index)))
      return;
    // "testnet payments are useless to us", "that is worth nothing to us": whom a judgement is for, not a payee.
    if (/^to$/i.test(m[1]) && /\b(?:us|ourselves)$/i.test(m[0]) && /\b(?:useless|pointless|worthless|no use|irrelevant|unimportant|important|useful|worth\s+\w+|annoying|confusing|new|known)\s*$/i.test(t.slice(0, m.index)))
      return;
    // "whatever comes out goes back to this wallet" with no address of its own in the intent: the wallet the
    // action is sent from (SENDER_REF, resolved by the checks from the transaction itself, never from context).
    if (st.self.length === 0 && /^(?:to|into|back to)$/i.test(m[1]) && /\bthis (?:address|wallet|account|safe|vault)|the same (?:address|wallet|account)/i.test(m[0])) {
      push(it.recipientRefs, SENDER_REF);
      return;
    }
    if (st.self.length !== 1 || /them|they/i.test(m[0])) {
      st.unknown.push(`Not understood: who "${m[0]}" refers to.`);
      return;
    }
    placeAddress(it, /for|behalf/i.test(m[1]) ? "beneficiary" : "recipient", st.self[0]);
  });
  // "with the multisig itself as recipient", "back to the Safe itself": "itself" marks the wallet that acts, so the
  // recipient is the action's own sender (never an address taken from context).
  scan(c, /\b(?:with\s+(?:the|our|this)\s+(?:multisig|safe|wallet|account|vault|treasury)\s+itself\s+as\s+(?:the\s+)?(?:recipient|receiver|beneficiary)|(?:to|into|back\s+to)\s+(?:the|our|this)\s+(?:multisig|safe|wallet|account|vault|treasury)\s+itself)\b/gi, () => {
    if (mode === "label") return false;
    push(it.recipientRefs, SENDER_REF);
  });
  // "the Safe", "that SwapRouter": an address named earlier in the intent.
  scan(c, /\b(?:the|our|that|this|my|said|same)\s+((?:[A-Za-z][\w-]*\s+){0,2}?([A-Za-z][\w-]*))\b/g, (m) => {
    const addr = st.names.get(m[2].toLowerCase());
    if (!addr || mode === "label") return false;
    placeAddress(it, roleOf(t.slice(Math.max(0, m.index - 60), m.index)), addr);
  });
  // "only to SwapRouter02": a distinctive name given to an address earlier, used without "the".
  scan(c, /\b(?:to|via|through|using)\s+([A-Za-z][\w-]*)\b/g, (m) => {
    const addr = st.names.get(m[1].toLowerCase());
    if (!addr || mode === "label" || NAME_NOUN.test(m[1])) return false;
    placeAddress(it, roleOf(t.slice(Math.max(0, m.index - 60), m.index + m[0].length - m[1].length)), addr);
  });
  scan(c, /\b(?:to\s+)?(?:(?:anyone|anybody|anywhere)(?:\s+else)?|any(?:\s+other)?\s+address(?:es)?|third[- ]part(?:y|ies)|external (?:addresses|wallets|accounts)|other (?:address(?:es)?|wallets?|accounts|people)|(?:another|a different|some other) (?:address|wallet|account|person)|elsewhere)\b/gi, () => {
    it.anyone = true;
  });
  scan(c, /\bstable\s?-?coins?\b|\bstables\b/gi, () => push(it.classes, "stablecoin"));
  scan(c, /\b(perps?|perpetuals?|perpetual futures|spot|prediction markets?)\b/gi, (m) => {
    const w = m[1].toLowerCase();
    push(it.marketTypes, w.startsWith("perp") ? "perp" : w === "spot" ? "spot" : "prediction");
    return false; // these words are filler; only note them
  });
  scan(c, /\b[A-Za-z][A-Za-z0-9]{0,9}\b/g, (m) => {
    const sym = asSymbol(m[0]);
    if (!sym) return false;
    push(it.assets, sym);
  });
  return it;
}

export function hasAny(it: Items): boolean {
  return (
    it.assets.length +
      it.venues.length +
      it.chains.length +
      it.hosts.length +
      it.markets.length +
      it.recipients.length +
      it.beneficiaries.length +
      it.contracts.length +
      it.spenders.length +
      it.recipientRefs.length +
      it.otherRefs.length +
      it.hostRefs.length +
      it.classes.length >
      0 || it.anyone
  );
}
