/**
 * Plain-English actions ("Buy 0.5 ETH perp at market on Hyperliquid"). Only simple, certain facts are read:
 * the verb, size and asset, price or "at market", venue, recipient, time-in-force. Every word the reader did
 * not use is reported as a gap, so an action with unexplained text can be blocked on a clear violation but
 * never allowed.
 */
import type { Activity, ActionView, OrderView } from "./types";
import { canonSym, priceOf } from "./context";
import { asSymbol } from "./parse/state";
import { makeClause, newRefs, parseNumber, protect, restore, scan, leftoverWords } from "./text";
import { CHAINS, VENUES } from "./vocab";
import { emptyView } from "./view";

type Ctx = Record<string, unknown> | null;

const VERB_ACTS: Array<[RegExp, Activity, "buy" | "sell" | null]> = [
  [/^(?:market[- ])?(?:buy|long|go long|open (?:a )?long|bid)\b/i, "order", "buy"],
  [/^(?:market[- ])?(?:sell|short|go short|open (?:a )?short|close|exit|ask)\b/i, "order", "sell"],
  [/^open\s+(?:a|an)\s+(?=(?:[\w$.,-]+\s+){0,4}long\b)/i, "order", "buy"],
  [/^open\s+(?:a|an)\s+(?=(?:[\w$.,-]+\s+){0,4}short\b)/i, "order", "sell"],
  [/^(?:place|submit|post)\s+(?:a\s+)?(?:limit\s+|market\s+)?(?:buy|bid)\b/i, "order", "buy"],
  [/^(?:place|submit|post)\s+(?:a\s+)?(?:limit\s+|market\s+)?(?:sell|ask)\b/i, "order", "sell"],
  [/^(?:swap|convert|exchange|trade)\b/i, "swap", null],
  [/^bridge\b/i, "bridge", null],
  [/^withdraw\b/i, "withdrawal", null],
  [/^(?:send|transfer|move|pay|tip|wire)\b/i, "transfer", null],
  [/^(?:undelegate|unstake)\b/i, "undelegate", null],
  [/^(?:stake|delegate)\b/i, "delegate", null],
  [/^(?:supply|lend|deposit)\b/i, "supply", null],
  [/^borrow\b/i, "borrow", null],
  [/^repay\b/i, "repay", null],
  // "Redeem the winning YES shares", "Merge 100 YES and 100 NO": outcome shares back into collateral.
  [/^(?:redeem|merge)\b/i, "redeem", null],
  [/^(?:approve|grant)\b/i, "approval", null],
  [/^unwrap\b/i, "unwrap", null],
  [/^wrap\b/i, "wrap", null],
  [/^cancel\b/i, "cancel", null],
  [/^(?:set|change|increase|raise|lower|reduce)\s+(?:the\s+)?(?:\w+\s+)?leverage\b/i, "leverage", null],
];

/** Venues that live on one chain, so naming the venue names the chain. */
const VENUE_CHAIN: Record<string, string> = {
  hyperliquid: "hyperliquid",
  polymarket: "polygon",
  jupiter: "solana",
  raydium: "solana",
  orca: "solana",
  drift: "solana",
  kamino: "solana",
  marginfi: "solana",
  ekubo: "starknet",
  avnu: "starknet",
};

const ACTION_FILLER = new Set(
  "a an the of on at as for to from in into with via using through my our your this that it its please now then and or perp perps perpetual perpetuals spot shares share contracts position market order orders limit worth of token tokens coins funds".split(
    " ",
  ),
);

/**
 * "Buy 100 NO shares on 'Will X happen?'": a quoted question that the context lists among its Polymarket
 * markets (CLOB token ids) names the venue as surely as the word "Polymarket" would.
 */
function predictionVenue(text: string, refs: ReturnType<typeof newRefs>, ctx: Ctx): string | null {
  const markets = ctx && typeof ctx.markets === "object" && ctx.markets !== null ? Object.entries(ctx.markets as Record<string, unknown>) : [];
  if (!/\b(?:yes|no)\s+shares?\b/i.test(text) || markets.length === 0) return null;
  const questions = [...text.matchAll(/§q(\d+)/g)].map((m) => refs.quotes[Number(m[1])]);
  const listed = markets.some(([id, v]) => /^\d{20,}$/.test(id) && typeof v === "object" && v !== null && questions.includes(String((v as Record<string, unknown>).question ?? "")));
  return listed ? "polymarket" : null;
}

export function viewFromText(raw: string, ctx: Ctx): ActionView {
  const v = emptyView("text", raw.length > 160 ? `${raw.slice(0, 157)}...` : raw);
  const refs = newRefs();
  const text = protect(raw.trim(), refs).replace(/[.!]+\s*$/, "");
  const c = makeClause(text, raw, refs);
  const verb = VERB_ACTS.find(([re]) => re.test(text.trim()));
  if (!verb) {
    v.activities = ["unknown"];
    v.gaps.push("the kind of action could not be read from the action text");
    return v;
  }
  const [verbRe, activity, side] = verb;
  v.activities = [activity];
  scan(c, new RegExp(verbRe.source.replace(/^\^/, "^\\s*"), "i"), () => undefined);
  const venues: string[] = [];
  scan(c, /\b(?:on|via|using|through|at)\s+([A-Za-z0-9.]+)\b/gi, (m) => {
    const id = VENUES[m[1].toLowerCase()];
    if (!id) return false;
    venues.push(id);
  });
  const chains: string[] = [];
  scan(c, /\b(?:on|from|to)\s+(ethereum(?:\s+mainnet)?|eth mainnet|mainnet|base|arbitrum(?:\s+one)?|optimism|polygon|solana|starknet|avalanche|bsc)\b/gi, (m) => void chains.push(CHAINS[m[1].toLowerCase().replace(/\s+/g, " ")]));
  // "to Hartwell Supply (0x..)": the capitalised words naming an address are a label; the address is the fact.
  scan(c, /(?<=\bto\s+)(?:[A-Z][\w&.'-]*\s+){1,4}(?=\(\s*§a\d+\s*\))/g, () => undefined);
  // "for invoice HS-2291", "(ref #881)": a payment reference, narrative only.
  scan(c, /\b(?:for|re:?|per)\s+(?:invoice|bill|ref(?:erence)?|po|purchase order)\s*(?:no\.?|number|#)?\s*[A-Za-z0-9][\w/-]*\b|\((?:invoice|ref(?:erence)?|po)\s*(?:no\.?|#)?\s*[A-Za-z0-9][\w/-]*\)/gi, () => undefined);
  v.venue = venues[0] ?? predictionVenue(text, refs, ctx);
  v.chain = chains[chains.length - 1] ?? (v.venue ? (VENUE_CHAIN[v.venue] ?? null) : null);
  // Amount and asset: "0.5 ETH", "1,000 USDC", "$500 of ETH", "800 YES shares".
  let size = null as number | null;
  let asset = null as string | null;
  let usdAmount = null as number | null;
  let prediction = false as boolean;
  scan(c, /(?<![\w.$])(\d[\d,]*(?:\.\d+)?)\s?(k|m)?\s+(YES|NO)\s+shares?\b/gi, (m) => {
    if (size !== null) return false;
    size = parseNumber(m[1], m[2]);
    asset = m[3].toUpperCase();
    prediction = true;
  });
  scan(c, /(?<![\w.$])(\d[\d,]*(?:\.\d+)?)\s?(k|m)?\s*([A-Za-z][A-Za-z0-9]{1,9})\b/g, (m) => {
    const sym = asSymbol(m[3]);
    if (!sym || size !== null) return false;
    size = parseNumber(m[1], m[2]);
    asset = sym;
  });
  scan(c, /\$\s?(\d[\d,]*(?:\.\d+)?)(?:\s?(k|m)\b)?(?:\s+(?:of|worth of|in)\s+([A-Za-z][A-Za-z0-9]{1,9}))?/gi, (m) => {
    if (activity !== "order" || size !== null || usdAmount !== null || /\bat\s*$/i.test(text.slice(0, m.index))) return false;
    usdAmount = parseNumber(m[1], m[2]);
    asset = m[3] ? asSymbol(m[3]) : asset;
  });
  let price = null as number | null;
  let atMarket = false as boolean;
  scan(c, /\b(?:at|@)\s+(?:a\s+)?(?:limit\s+(?:price\s+)?(?:of\s+)?)?\$?(\d[\d,]*(?:\.\d+)?)\b(?:\s+limit\b)?|@\s?\$?(\d[\d,]*(?:\.\d+)?)|\b(?:with\s+)?(?:a\s+)?limit(?:\s+price)?\s+(?:of\s+|at\s+)?\$?(\d[\d,]*(?:\.\d+)?)\b/gi, (m) => {
    price = parseNumber(m[1] ?? m[2] ?? m[3]);
  });
  scan(c, /\bat\s+(?:the\s+)?market(?:\s+price)?\b|\bmarket[- ](?:buy|sell|order)\b|^\s*market\b/gi, () => {
    atMarket = true;
  });
  if (/^\s*market[- ]/i.test(text)) atMarket = true;
  let tif = null as string | null;
  scan(c, /\b(GTC|IOC|ALO|FOK|FAK|GTD|post[- ]only)\b/gi, (m) => {
    tif = m[1].toLowerCase().startsWith("post") ? "alo" : m[1].toLowerCase();
  });
  const reduceOnly = /\breduce[- ]only\b/i.test(text) || /^\s*(?:close|exit)\b/i.test(text);
  scan(c, /\breduce[- ]only\b/gi, () => undefined);
  let marketType = (prediction ? "prediction" : null) as OrderView["marketType"];
  scan(c, /\b(perps?|perpetuals?|spot)\b|(?<=[A-Za-z])-(perp)\b/gi, (m) => {
    marketType = (m[1] ?? m[2]).toLowerCase() === "spot" ? "spot" : "perp";
  });
  // Going long or short is a derivatives position; a plain "buy" could be spot.
  if (!marketType && /^\s*(?:market[- ])?(?:long|short|go long|go short|open (?:a|an)\b)/i.test(text) && v.venue !== "polymarket") marketType = "perp";
  scan(c, /\b(?:long|short)\b/gi, () => activity === "order");
  if (!marketType && v.venue === "hyperliquid") marketType = null;
  let question = null as string | null;
  scan(c, /§q(\d+)/g, (m) => {
    question = refs.quotes[Number(m[1])];
    marketType = "prediction";
  });
  const recipients: string[] = [];
  scan(c, /§a(\d+)/g, (m) => void recipients.push(refs.addresses[Number(m[1])]));
  // Swap target: "to USDC", "for SOL", "into WETH".
  let buyAsset = null as string | null;
  if (activity === "swap")
    scan(c, /\b(?:to|for|into)\s+([A-Za-z][A-Za-z0-9]{1,9})\b/gi, (m) => {
      const s = asSymbol(m[1]);
      if (!s) return false;
      buyAsset = s;
    });
  scan(c, /\b(?:all|everything|entire balance|all funds|whole balance|max)\b/gi, () => {
    if (activity === "order") return false;
    v.gaps.push("the action moves an unspecified amount (\"all\")");
    v.warnings.push("moves all funds");
  });
  let leverage = null as number | null;
  if (activity === "leverage") scan(c, /\b(?:to\s+)?(\d+(?:\.\d+)?)\s*x\b/gi, (m) => void (leverage = Number(m[1])));
  const left = leftoverWords(c)
    .map((w) => restore(w, refs))
    .filter((w) => !ACTION_FILLER.has(w.toLowerCase()));
  if (left.length) v.gaps.push(`the action text was not fully understood (unrecognised: ${left.slice(0, 6).join(", ")})`);
  const mark = asset ? priceOf(asset, ctx) : null;
  if (activity === "order") {
    const sz: number | null = size ?? (usdAmount !== null && (price ?? mark) ? usdAmount / ((price ?? mark) as number) : null);
    let notional: number | null = null;
    let atMark = false;
    if (usdAmount !== null) notional = usdAmount;
    else if (sz !== null) {
      const px = prediction ? price : side === "sell" ? Math.max(price ?? 0, mark ?? 0) || null : (price ?? mark);
      notional = px !== null ? Math.abs(sz * px) : null;
      atMark = price === null;
    }
    v.orders = [
      {
        asset: prediction ? asset : canonSym(asset),
        marketType,
        side,
        size: sz,
        price,
        notionalUsd: notional,
        notionalAtMark: atMark,
        reduceOnly,
        orderType: atMarket ? "market" : price !== null || tif ? "limit" : null,
        tif,
        isMarketLike: atMarket || tif === "ioc" || tif === "fok" || tif === "fak",
        trigger: false,
        question,
        tokenId: null,
      },
    ];
    if (!atMarket && price === null) v.gaps.push("the order type and price are not stated");
  } else if (activity === "swap") {
    v.swap = { sellAsset: asset, sellAmount: size, sellUsd: size !== null && mark !== null ? size * mark : null, buyAsset, buyMin: null, buyUsdMin: null, slippageBps: null, recipient: recipients[0] ?? null };
  } else {
    v.moves = [{ asset, amount: size, usd: size !== null && mark !== null ? size * mark : null, to: recipients[0] ?? null }];
  }
  if (activity === "leverage") {
    v.orders = [];
    v.moves = [];
    v.leverage = leverage !== null ? { asset, value: leverage } : null;
    if (leverage === null) v.gaps.push("the new leverage is not stated");
  }
  v.assets = [asset, buyAsset].filter((x): x is string => !!x && !(prediction && x === asset));
  v.recipients = recipients;
  return v;
}
