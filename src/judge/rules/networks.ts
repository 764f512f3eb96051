/**
 * How owners name the networks an agent may use, rewritten to the words the chain readers take (parse/items.ts):
 *
 * - "mainnet only" beside another chain ("x402: Base USDC, mainnet only") means production networks, not Ethereum:
 *   read as "no testnets". Bare "mainnet" stays Ethereum when the intent names no other chain ("mainnet only" in a
 *   treasury mandate), as before, and "Base mainnet" / "Ethereum mainnet" are left to the chain readers.
 * - "(no testnets)", "(never testnets)": a prohibition in brackets after a rule is a rule of its own, split off so
 *   the "only" before it keeps its reading. Only a bare "no <noun>" with no figure or comparison is split.
 * - "base and arbitrum r off limits": chat "r" before a verdict is "are"; "off limits" is "forbidden"; a lower-case
 *   "base" joined to another chain's name is the chain, not the English word.
 *
 * Fail closed: each rewrite only renames a word the readers already know, or splits a bracket into its own clause;
 * nothing is dropped, so anything else in the line is still read (or held) as before.
 */
const OTHER_CHAINS = String.raw`(?:base|arbitrum|optimism|polygon|solana|starknet|avalanche|bsc|bnb|linea|scroll|zksync|blast|gnosis|hyperliquid|hyperevm)`;
const NAMED_CHAIN = new RegExp(String.raw`\b${OTHER_CHAINS}\b|\beip155:(?!1\b)\d+`, "i");
const ETHEREUM = /\b(?:ethereum|eth\s+mainnet|l1)\b|\bchain\s?(?:id)?\s*[:=]?\s*1\b|\beip155:1\b/i;

/** "mainnet only", "mainnet-only", "only mainnet", "mainnets only", not after a chain's name ("Base mainnet only"). */
const BARE_MAINNET_ONLY = new RegExp(
  String.raw`(?<!\b(?:${OTHER_CHAINS}|ethereum|eth|op|one|chain)\s+)\bmainnets?(?:\s+only|-only)\b|\bonly\s+(?:on\s+)?mainnets?\b(?!\s+(?:of\s+)?${OTHER_CHAINS})`,
  "gi",
);

const CHAIN_JOIN = String.raw`\s*(?:,|&|\/|\band\b|\bor\b|\bnor\b)\s*(?:and\s+|or\s+)?`;
const PEERS = String.raw`(?:arbitrum|optimism|polygon|solana|starknet|avalanche|bsc|linea|scroll|zksync|blast|gnosis|ethereum|mainnet)`;

export function normaliseNetworks(s: string): string {
  if (!/mainnet|testnet|\bbase\b|off[- ]?limits|\br\b|\(\s*(?:no|never)\b/i.test(s)) return s;
  let t = s;
  if (NAMED_CHAIN.test(t) && !ETHEREUM.test(t)) t = t.replace(BARE_MAINNET_ONLY, "no testnets");
  // "(no testnets)", "(never memecoins)": its own clause; not "(no more than $5)" nor anything with a figure.
  t = t.replace(/\s*\(\s*((?:no|never)\s+(?!(?:more|less|higher|lower|greater|bigger|larger|over|above|under|below|than|worse|better)\b)[A-Za-z][A-Za-z -]{1,30}?)\s*\)(?=\s*(?:[.;,\n]|$))/gi, "; $1");
  // "base and arbitrum", "arbitrum or base": the chain (Base is also an English word, so only beside a peer).
  t = t.replace(new RegExp(String.raw`\bbase(?=${CHAIN_JOIN}${PEERS}\b)`, "g"), "Base");
  t = t.replace(new RegExp(String.raw`(?<=\b${PEERS}${CHAIN_JOIN})base\b`, "gi"), "Base");
  // Chat "r" for "are" before a verdict: "base and arbitrum r off limits", "memecoins r not ok".
  t = t.replace(/\br(?=\s+(?:off[- ]?limits|not\b|never\b|forbidden|banned|fine|ok|okay|allowed|out\b))/gi, "are");
  // "X are off limits (for this bot)": forbidden. The ": off-limits" form of a list line is read elsewhere.
  t = t.replace(/\b(is|are)\s+(?:strictly\s+|completely\s+|totally\s+)?off[- ]?limits\b(?:\s+(?:for|to)\s+(?:this|the|our|my)\s+(?:bot|agent|wallet|account|desk))?/gi, "$1 forbidden");
  return t;
}
