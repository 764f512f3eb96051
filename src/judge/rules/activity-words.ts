/**
 * What owners call an activity, in one place for the intent parser (a prohibition forbids what the words name,
 * `parse/polarity.ts`) and for the relevance test (a clause it could not read holds only the actions its words
 * could restrict, `relevance.ts`). The two used to keep their own word lists, so a word one side learnt ("stake
 * authority", "LP", "looping") stayed unknown to the other: the parser left the clause unread and relevance
 * guessed from a stray word in it ("stake" in "stake authority" reads as staking).
 *
 * Each entry is a phrase an owner writes and two sets of activities:
 * - `acts`, what a prohibition in these words forbids;
 * - `reach`, what a clause naming it could restrict at all (the relevance test; defaults to `acts`).
 * Fail closed: a word that could mean several activities names all of them ("LP" is a pool position and a vault
 * deposit such as HLP; "leave the account" is every way value goes out). Longer phrases come first, because the
 * parser consumes the first match: "withdraw authority" is a permission, not a withdrawal.
 */
import type { Activity } from "./types";

export interface ActivityWord {
  re: RegExp;
  acts: Activity[];
  reach?: Activity[];
  label: string;
  /**
   * Read only in a prohibition. "NFTs stay in the cold wallet" or "funds may leave the account only for X" are
   * not permissions the parser may grant; the clause stays unread instead.
   */
  negOnly?: boolean;
  /** The words name a class of asset, not an activity: the prohibition binds only actions that touch one. */
  assetClass?: "nft";
  /** The activity is a pattern: only an action doing all of `acts` at once is it (a borrow that re-supplies). */
  together?: boolean;
  /** Only actions whose type or summary names this ("flash"): a kind of an activity no adapter tells apart yet. */
  typeRe?: string;
  /** Matched after the parser's own verbs (a bare noun such as "orders" yields to "cancel orders"). */
  late?: boolean;
  /**
   * The phrase with its subject, for the relevance test only ("nothing should leave the account": the "nothing" is
   * what leaves, not a catch-all over every action). The parser reads the subject as the clause's negation.
   */
  withSubject?: RegExp;
}

/** Every way value goes out of the account (a vault is outside it too). */
export const OUT_OF_ACCOUNT: Activity[] = ["transfer", "withdrawal", "payment", "internal_transfer", "vault_deposit", "bridge"];
/** "Nothing should leave the account": a move between its own perp and spot balances stays inside. */
const LEAVES: Activity[] = OUT_OF_ACCOUNT.filter((a) => a !== "internal_transfer");
const TRADES: Activity[] = ["order", "cancel", "leverage", "margin", "swap", "wrap", "unwrap"];

const AUTHORITY = String.raw`(?:stake|staking|staker|withdraw(?:al)?|withdrawer|mint(?:ing)?|freeze|upgrade|update|close|lockup|custodian|owner)\s+authorit(?:y|ies)`;
const STAKING_SIDE = String.raw`(?:the\s+)?(?:staking|stake|staked)(?:\s+(?:balance|side|account|wallet))?`;
const SPOT_SIDE = String.raw`(?:the\s+)?spot(?:\s+(?:balance|side|account|wallet))?`;
const MOVE_VERB = String.raw`\b(?:mov|shift|transferr?|tak|pull|bring|shuffl|send|withdraw|put)(?:e|es|ed|ing|s)?\b`;
/**
 * The verb and its direction are matched apart, so the token between them ("moving HYPE from staking ...") stays
 * for the asset reader: the verb counts only when the direction follows within two words.
 */
const moveDirection = (direction: string): string => String.raw`${MOVE_VERB}(?=(?:\s+[\w$.-]+){0,2}?\s+${direction})|${direction}`;
/** A parenthesis that only explains the word before it: none of the words that could narrow or extend a rule. */
const GLOSS = String.raw`(?:\s*\((?![^)]*\b(?:except|unless|only|but|above|over|under|below|more|less|up\s+to|max|min|without|if|when)\b)(?![^)]*\d)[^)]{0,120}\))?`;

export const ACTIVITY_WORDS: ActivityWord[] = [
  // "change the stake authority or withdraw authority of any stake account", "the withdrawer": who controls an account.
  {
    re: new RegExp(String.raw`(?:\b${AUTHORITY}\b(?:\s+(?:or|and|and\/or)\s+(?:the\s+|its\s+)?${AUTHORITY}\b)?|\b(?:staker|withdrawer)s?\b)(?:\s+(?:of|on|for)\s+(?:any|a|an|the|our|its|each|every|this|these|those)\s+(?:stake|token|mint)\s+accounts?\b)?`, "gi"),
    acts: ["permission"],
    label: "changing who controls an account",
  },
  // "account upgrades", "upgrade the contract": replacing the account's code is handing over control of it.
  {
    re: /\b(?:account|contract|class|proxy|wallet)\s+upgrades?\b|\bupgrad(?:e|es|ed|ing)\s+(?:of\s+)?(?:the\s+|this\s+|our\s+|its\s+|any\s+)?(?:account|contract|wallet|class|proxy|implementation)s?\b|\bupgrade\s+calls?\b/gi,
    acts: ["permission"],
    label: "account upgrades",
  },
  // "moving HYPE from the staking balance back to spot", "the c withdraw thing" (Hyperliquid's cWithdraw).
  {
    re: new RegExp(String.raw`${moveDirection(String.raw`(?:out\s+of|from|off)\s+${STAKING_SIDE}\s+(?:back\s+)?(?:to|into|in)\s+${SPOT_SIDE}\b`)}|\bc\s?-?withdraw(?:al)?s?\b`, "gi"),
    acts: ["unstake"],
    label: "moving tokens from staking back to spot",
  },
  {
    re: new RegExp(String.raw`${moveDirection(String.raw`(?:out\s+of|from|off)\s+${SPOT_SIDE}\s+(?:to|into|in)\s+${STAKING_SIDE}\b`)}|\bc\s?-?deposits?\b`, "gi"),
    acts: ["stake"],
    label: "moving tokens from spot into staking",
  },
  // "no shuffling HYPE between staking and spot": both directions.
  {
    re: new RegExp(moveDirection(String.raw`between\s+(?:${STAKING_SIDE}\s+and\s+${SPOT_SIDE}|${SPOT_SIDE}\s+and\s+${STAKING_SIDE})\b`), "gi"),
    acts: ["stake", "unstake"],
    label: "moving tokens between staking and spot",
  },
  // "no LP stuff", "no adding liquidity", "liquidity provision": a pool position, or a vault such as HLP.
  {
    re: /\b(?:(?:add|adding|provid\w*|suppl\w*|deposit\w*|remov\w*|pull\w*|withdraw\w*)\s+(?:of\s+)?(?:the\s+|any\s+|our\s+)?)?liquidity\b(?![- ]only)(?:[- ](?:provision|providing|provider|positions?|pools?|mining|farming))?|\bLP(?:s|ing)?\b(?:\s+(?:stuff|things?|positions?|tokens?|farming|fees))?|\bpool\s+positions?\b/gi,
    acts: ["liquidity", "vault_deposit", "vault_withdraw"],
    label: "providing liquidity",
  },
  // "no looping (borrowing against the deposits to deposit again)": a borrow that re-supplies in the same action. A
  // borrow alone is left to the rules about borrowing ("May it borrow? Yes ... no looping" permits it).
  {
    re: new RegExp(String.raw`\b(?:(?:leverage[ds]?|recursive|lending|borrow(?:ing)?|supply|looped)\s+)?(?<!\bin\s+the\s+)loop(?:s|ing|ed)?\b${GLOSS}|\brecursive\s+(?:borrowing|lending|leverage)\b${GLOSS}`, "gi"),
    acts: ["borrow", "supply"],
    reach: ["borrow", "supply", "repay", "unknown"],
    together: true,
    label: "looping (borrowing to supply again)",
  },
  // "no flash loans": only an action the venue reports as a flash loan (no adapter decodes one yet: such calls are unknown).
  {
    re: /\bflash[- ]?(?:loans?|borrow\w*)\b/gi,
    acts: ["borrow"],
    reach: ["borrow", "unknown"],
    typeRe: "flash",
    label: "flash loans",
  },
  // "No NFTs", "no ERC-721s": every move, approval or trade of one. "NFT approvals" stays with the approval words.
  {
    re: /\b(?:nfts?|non[- ]fungibles?(?:\s+tokens?)?|erc[- ]?721s?|erc[- ]?1155s?|collectibles?)\b(?!\s+(?:approvals?|transfers?|sends?|allowances?|permissions?|operators?))(?:\s+(?:stuff|things?|collections?|trading))?/gi,
    acts: ["transfer", "payment", "approval", "permission", "order", "swap"],
    label: "NFTs",
    negOnly: true,
    assetClass: "nft",
  },
  // "nothing should leave the account for any reason", "no funds go out of the wallet": every way value goes out.
  {
    re: /\b(?:leav(?:e|es|ing)|go(?:es)?\s+out\s+of|exits?)\s+(?:the|this|our|my|its)\s+(?:own\s+)?(?:trading\s+|main\s+)?(?:account|wallet|safe|treasury|vault|sub-?account|address)s?\b(?:\s+(?:for\s+any\s+reason|at\s+all|ever|under\s+any\s+circumstances?|whatsoever))?/gi,
    acts: LEAVES,
    reach: OUT_OF_ACCOUNT,
    label: "moving value out of the account",
    negOnly: true,
    withSubject:
      /\b(?:(?:nothing|no\s+(?:funds|money|tokens|assets|value|coins|usdc|eth|sol)|none\s+of\s+(?:the\s+|our\s+)?(?:funds|money|tokens|assets))\s+(?:(?:should|may|must|can|shall|will|is\s+to|is\s+allowed\s+to)\s+)?(?:ever\s+)?)?(?:leav(?:e|es|ing)|go(?:es)?\s+out\s+of|exits?)\s+(?:the|this|our|my|its)\s+(?:own\s+)?(?:trading\s+|main\s+)?(?:account|wallet|safe|treasury|vault|sub-?account|address)s?\b(?:\s+(?:for\s+any\s+reason|at\s+all|ever|under\s+any\s+circumstances?|whatsoever))?/gi,
  },
  // "dont touch my money", "never touch our funds", "hands off the treasury's cash": the owner's value as a whole,
  // so every way it can leave the account (a move between the account's own balances is only reached: held, not
  // refused). Only with an owner's possessive and a money noun: "don't touch the USDC" names one asset and is read
  // by the asset readers, "don't touch leverage" is a setting (foreign.ts).
  {
    re: /\b(?:touch(?:es|ed|ing)?|hands\s+off)\s+(?:any\s+(?:of\s+)?)?(?:my|our|the|the\s+(?:owner|client|company|treasury)['’]s)\s+(?:own\s+)?(?:money|funds|cash|savings|capital|stack|balances?|assets)\b/gi,
    acts: LEAVES,
    reach: OUT_OF_ACCOUNT,
    label: "moving the owner's money",
    negOnly: true,
  },
  // "It never redeems, merges or splits positions": turning outcome shares back into collateral, or the reverse.
  {
    re: /\bredeem(?:s|ed|ing)?\b|\bredemptions?\b|\b(?:merg(?:e|es|ed|ing)|split(?:s|ting)?)\b(?=[^.;]{0,40}\b(?:positions?|shares?|outcomes?|sets?)\b)/gi,
    acts: ["redeem", "vault_withdraw"],
    label: "redeeming or merging positions",
    late: true,
  },
  // "limit orders / DCA: no", "no recurring buys": orders placed over time.
  {
    re: /\bDCA(?:s|ing)?\b|\bdollar[- ]cost[- ]averag\w*|\brecurring\s+(?:buys?|purchases?|orders?|swaps?)\b/gi,
    acts: ["order", "swap"],
    reach: TRADES,
    label: "recurring orders",
    late: true,
  },
  // "orders are forbidden", "no trades whatsoever": the noun alone names trading.
  {
    re: /\b(?:orders|trades)\b/gi,
    acts: ["order", "swap"],
    reach: TRADES,
    label: "trading",
    negOnly: true,
    late: true,
  },
];

/** In a prohibition, a word that only narrows what is forbidden ("no usd/spot sends"): dropping it forbids more. */
export const QUALIFIER_RE =
  /\b(?:usd|usdc|spot|perps?|native|external|outbound|outgoing|on-?chain|off-?chain|direct|manual|cross-chain|third-party|internal|nfts?|erc-?(?:20|721|1155)|class)(?:\s*[-/]\s*(?:to-)?(?:usd|usdc|spot|perps?|native|external|on-?chain|off-?chain|class))*\b(?=\s+[a-z]|\s*$)/gi;

/**
 * In a prohibition that names its activities, words that only place the activity ("on this account", "out of the
 * wallet"), say who starts it ("initiate", "carry out", "pulling", "add", "this account does not ...") or only
 * stress it ("absolutely"): reading past them forbids more, never less. A word that could narrow the prohibition to
 * something smaller ("large", "memecoin") is not among them.
 */
export const NEG_SCOPE_RE =
  /\b(?:treasury|company|dao|team|client|customer|user|project|fund)(?:['’]s)?\s+(?=funds\b|money\b|assets\b|tokens\b|capital\b|balances?\b)|\b(?:on|in|from|out\s+of|off|within|inside)\s+(?:this|the|our|my|that|its|your)\s+(?:own\s+)?(?:trading\s+|main\s+|master\s+)?(?:account|wallet|address|exchange|venue|platform|sub-?account|safe|vault|balance)\b|\b(?:initiat\w*|conduct\w*|carry(?:ing)?\s+out|process(?:ing)?|pull(?:s|ing)?|tak(?:e|es|ing)|hand(?:s|ing)?(?:\s+(?:out|over))?|shar(?:e|es|ing)|put(?:ting)?\s+through|ever|add(?:s|ing)?|creat(?:e|es|ing)|register(?:s|ing)?|set(?:ting)?\s+up|absolutely|strictly|definitely|certainly|really|completely|entirely)\b|^\s*(?:(?:and|but|also)\s+)?(?:this|the|our|my)\s+(?:[\w-]+\s+)?(?:account|wallet|bot|agent|safe)\b(?=\s+(?:does|do|must|may|shall|should|will|can|never|cannot|can't|won't|is|doesn't))/gi;

/**
 * "The SOL in the wallet is only for pay the fees", "ETH is for gas only": the asset is kept for fees, so it is not
 * sent, bridged or swapped. Rewritten to the prohibition it means before the sentence is read.
 */
export function reservedForFees(s: string): string {
  return s.replace(
    /\b(?:[Tt]he\s+)?([A-Z][A-Z0-9]{1,9})\b(?:\s+(?:here|in\s+here|(?:in|on|of)\s+(?:the|this|our|my)\s+(?:wallet|account|address|safe)))?\s+(?:is|are|stays?|remains?)\s+(?:only\s+|just\s+|solely\s+|strictly\s+|reserved\s+)?(?:for|to)\s+(?:pay(?:ing)?\s+|cover(?:ing)?\s+)?(?:the\s+)?(?:(?:network|transaction|tx|gas|rent)\s+)?(?:fees?|gas)(?:\s+only)?\b/g,
    "never send, bridge or swap $1",
  );
}

/** The activities the vocabulary names in a text, with the text left after removing what it matched. */
const REACH_RES = ACTIVITY_WORDS.map((w) => ({ re: w.withSubject ?? w.re, reach: w.reach ?? w.acts }));

export function wordsReach(text: string): { reach: Set<Activity>; rest: string } {
  const reach = new Set<Activity>();
  let rest = text;
  for (const w of REACH_RES) {
    w.re.lastIndex = 0;
    if (!w.re.test(rest)) continue;
    rest = rest.replace(w.re, (m) => {
      for (const a of w.reach) reach.add(a);
      return " ".repeat(m.length);
    });
  }
  return { reach, rest };
}
