/**
 * How owners name the networks an agent may use, rewritten to the words the chain readers take (parse/items.ts):
 *
 * - A bare "mainnet" beside one other chain ("x402: Base USDC, mainnet only", "we only pay on mainnet") is that
 *   chain's mainnet ("Base mainnet"); beside several, "mainnet only" means production networks: "no testnets". Bare
 *   "mainnet" stays Ethereum when the intent names no other chain or names Ethereum, as before, and "Base mainnet" /
 *   "Ethereum mainnet" are left to the chain readers.
 * - "(no testnets)", "(never on test networks)": a refusal of testnets in brackets after a rule is a rule of its own,
 *   split off so the "only" before it keeps its reading. Other brackets are left where they are.
 * - "base and arbitrum r off limits": chat "r" before a verdict is "are"; "off limits" is "forbidden"; a lower-case
 *   "base" joined to another chain's name is the chain, not the English word.
 *
 * Fail closed: each rewrite only renames a word the readers already know, or splits a bracket into its own clause;
 * nothing is dropped, so anything else in the line is still read (or held) as before.
 */
const OTHER_CHAINS = String.raw`(?:base|arbitrum|optimism|polygon|solana|starknet|avalanche|bsc|bnb|linea|scroll|zksync|blast|gnosis|hyperliquid|hyperevm)`;
/** A chain other than Ethereum, by name or CAIP id; "Base" only capitalised (it is also an English word). */
const NAMED_CHAIN = /\bBase\b|\b(?:[Aa]rbitrum|[Oo]ptimism|[Pp]olygon|[Ss]olana|[Ss]tarknet|[Aa]valanche|BSC|bsc|BNB|[Ll]inea|[Ss]croll|zkSync|[Zz]ksync|[Bb]last|[Gg]nosis|[Hh]yperliquid|HyperEVM|[Hh]yperevm)\b|\beip155:(?!1\b)\d+/;
const ETHEREUM = /\b(?:ethereum|eth\s+mainnet|l1)\b|\bchain\s?(?:id)?\s*[:=]?\s*1\b|\beip155:1\b/i;

/** "mainnet only", "mainnet-only", "only mainnet", "mainnets only", not after a chain's name ("Base mainnet only"). */
const BARE_MAINNET_ONLY = new RegExp(
  String.raw`(?<!\b(?:${OTHER_CHAINS}|ethereum|eth|op|one|chain)\s+)\bmainnets?(?:\s+only|-only)\b|\bonly\s+(?:on\s+)?mainnets?\b(?!\s+(?:of\s+)?${OTHER_CHAINS})`,
  "gi",
);

/**
 * Chains whose own mainnet a bare "mainnet" can name. Not Hyperliquid: its actions say Mainnet or Testnet in the
 * payload, and "mainnet" there stays as it was read before. Base only capitalised (it is also an English word).
 */
const ONE_CHAIN = /\bBase\b|\b(?:[Aa]rbitrum|[Oo]ptimism|[Pp]olygon|[Ss]olana|[Ss]tarknet|[Aa]valanche|BSC|bsc|[Ll]inea|[Ss]croll|zkSync|[Zz]ksync|[Bb]last|[Gg]nosis)\b/g;
const BARE_MAINNET = new RegExp(String.raw`(?<!\b(?:${OTHER_CHAINS}|ethereum|eth|op|one|chain)\s+)\bmainnet\b(?!\s+(?:of\s+)?${OTHER_CHAINS}\b)`, "gi");

const CHAIN_JOIN = String.raw`\s*(?:,|&|\/|\band\b|\bor\b|\bnor\b)\s*(?:and\s+|or\s+)?(?:(?:no|not|never)\s+(?:on\s+)?)?`;
const PEERS = String.raw`(?:arbitrum|optimism|polygon|solana|starknet|avalanche|bsc|linea|scroll|zksync|blast|gnosis|ethereum|mainnet)`;

/**
 * A chain named in a refusal ("base and arbitrum r off limits", "never on Solana") is not where the agent works, so
 * a bare "mainnet" beside it is left as it was read (Ethereum). "no testnets" itself refuses no named chain.
 */
function chainRefused(t: string): boolean {
  return t
    .replace(/\(?\s*\b(?:no|never|not\s+on|without)\s+(?:test\s?nets?|test\s+networks?)\b\s*\)?/gi, " ")
    .split(/[.;\n]/)
    .some((x) => NAMED_CHAIN.test(x) && /\b(?:no|not|never|nor|off[- ]?limits|forbidden|banned|prohibited|avoid|except|excluding|without)\b|n['’]t\b/i.test(x));
}

export function normaliseNetworks(s: string): string {
  if (!/mainnet|testnet|\bbase\b|off[- ]?limits|\br\b|\(\s*(?:no|never)\b/i.test(s)) return s;
  let t = s;
  if (NAMED_CHAIN.test(t) && !ETHEREUM.test(t) && !chainRefused(t)) {
    // One chain named: its mainnet ("x402 on Base ... we only pay on mainnet"). Several: production, no testnets.
    const named = new Set([...t.matchAll(ONE_CHAIN)].map((m) => m[0].toLowerCase()));
    const [one] = [...named];
    if (named.size === 1) t = t.replace(BARE_MAINNET, `${one.charAt(0).toUpperCase()}${one.slice(1)} mainnet`);
    else t = t.replace(BARE_MAINNET_ONLY, "no testnets");
  }
  // "(no testnets)", "(never on test networks)": its own clause (an "(e.g. ...)"-like bracket of other words, "nothing
  // else (no memecoins)", is an example of what it follows and is left to the closers).
  t = t.replace(/\s*\(\s*((?:no|never)\s+(?:on\s+)?(?:testnets|test\s?nets?|test\s+networks?|sepolia|devnets?))\s*\)(?=\s*(?:[.;,\n]|$))/gi, "; $1");
  // "base and arbitrum", "arbitrum or base": the chain (Base is also an English word, so only beside a peer).
  t = t.replace(new RegExp(String.raw`\bbase(?=${CHAIN_JOIN}${PEERS}\b)`, "g"), "Base");
  t = t.replace(new RegExp(String.raw`(?<=\b${PEERS}${CHAIN_JOIN})base\b`, "gi"), "Base");
  // Chat "r" for "are" before a verdict: "base and arbitrum r off limits", "memecoins r not ok".
  t = t.replace(/\br(?=\s+(?:off[- ]?limits|not\b|never\b|forbidden|banned|fine|ok|okay|allowed|out\b))/gi, "are");
  // "X are off limits (for this bot)": forbidden. The ": off-limits" form of a list line is read elsewhere.
  t = t.replace(/\b(is|are)\s+(?:strictly\s+|completely\s+|totally\s+)?off[- ]?limits\b(?:\s+(?:for|to)\s+(?:this|the|our|my)\s+(?:bot|agent|wallet|account|desk))?/gi, "$1 forbidden");
  return t;
}
