/**
 * Word lists the intent parser and the action-text reader share. Kept in one place so a new venue, chain or
 * token is one edit. Lists hold lower-case words.
 */

/** Well-known token symbols, recognised even when written in lower case. */
export const KNOWN_TOKENS = new Set(
  (
    "btc eth sol usdc usdt dai weth wbtc hype jup bonk strk arb op matic pol avax bnb doge xrp ada link uni aave " +
    "pepe wif sui apt tia sei near atom dot ltc trx ton frax usde susde pyusd usds gho lusd eurc cbbtc cbeth steth " +
    "wsteth reth wsol msol jitosol ray orca pyth jto w ena ondo mkr ldo crv cvx snx comp yfi sushi gmx dydx " +
    "purr fartcoin trump kbonk kpepe tao render fet inj hbar xlm etc bch fil icp shib floki usdb usd0 rlusd usd1 " +
    "fdusd tusd busd usdbc eure"
  ).split(" "),
);

/** Dollar-pegged tokens valued at $1 when the context gives no price. USDe and other synthetics are excluded on purpose. */
export const USD_STABLES = new Set(["USDC", "USDT", "DAI", "USDBC", "PYUSD", "FDUSD", "USDS", "TUSD", "BUSD", "LUSD", "GHO", "RLUSD", "USD1"]);

/** Tokens a careful reader may not call a "stablecoin" without a human (synthetic or algorithmic dollars). */
export const DISPUTED_STABLES = new Set(["USDE", "SUSDE", "FRAX", "USD0", "USDB", "EURC", "EURE", "USDX", "CRVUSD"]);

/** Upper-case words that are not token symbols. */
export const NOT_TOKENS = new Set(
  (
    "api gtc gtd ioc alo fok fak tp sl fomc nba nfl nhl mlb ufc fifa us usa uk eu ai dex cex nft etf ok id v1 v2 v3 v4 " +
    "l1 l2 evm spl erc kyc pnl ceo cfo cto twap vwap mev dao apy apr tvl utc am pm est et pst pt usd bps ath " +
    "yes no or and the of to in on at a an i my we our tx url http https json eip chainid gmt cet it is be ok " +
    "amm lp rpc sdk mcp safe dca mev rfq otc max min per fed sec cpi gdp btc_perp perp perps " +
    "memo re fyi attn llc ltd inc buy sell " +
    // English words owners write in capitals for emphasis ("any perp EXCEPT memecoins", "NEVER", "ONLY"):
    "except excluding only never none nothing all any every each must shall should may will can cannot do dont " +
    "above below under over than more less most least unless else also just even other others rest fine allowed " +
    "forbidden banned prohibited required important note warning limit limits rules rule policy section scope " +
    // Government currencies: a cap written in one measures no token the action moves, so it must stay unread
    // rather than become a cap in a unit nothing is measured in ("max EUR 500 per payment" over USDC).
    "eur gbp chf jpy cad aud nzd cny rmb inr brl mxn krw sek nok dkk pln czk huf try zar sgd hkd"
  ).split(" "),
);

/** Venue names (and aliases) as owners write them, mapped to a canonical venue id. */
export const VENUES: Record<string, string> = {
  hyperliquid: "hyperliquid",
  hl: "hyperliquid",
  hypercore: "hyperliquid",
  polymarket: "polymarket",
  uniswap: "uniswap",
  aave: "aave",
  jupiter: "jupiter",
  x402: "x402",
  "1inch": "1inch",
  cowswap: "cowswap",
  cow: "cowswap",
  curve: "curve",
  compound: "compound",
  lido: "lido",
  gmx: "gmx",
  dydx: "dydx",
  drift: "drift",
  across: "across",
  stargate: "stargate",
  "li.fi": "lifi",
  lifi: "lifi",
  morpho: "morpho",
  pendle: "pendle",
  kamino: "kamino",
  raydium: "raydium",
  orca: "orca",
  binance: "binance",
  coinbase: "coinbase",
  kraken: "kraken",
  okx: "okx",
  bybit: "bybit",
  paraswap: "paraswap",
  "0x": "0x",
  kalshi: "kalshi",
  vertex: "vertex",
  ekubo: "ekubo",
  avnu: "avnu",
  marginfi: "marginfi",
  lighter: "lighter",
  paradex: "paradex",
  aerodrome: "aerodrome",
  velodrome: "velodrome",
  eigenlayer: "eigenlayer",
  ethena: "ethena",
};

/** Chain names to canonical ids, and EVM chain ids to the same. */
export const CHAINS: Record<string, string> = {
  ethereum: "ethereum",
  mainnet: "ethereum",
  "ethereum mainnet": "ethereum",
  "eth mainnet": "ethereum",
  base: "base",
  arbitrum: "arbitrum",
  "arbitrum one": "arbitrum",
  optimism: "optimism",
  polygon: "polygon",
  bsc: "bsc",
  "bnb chain": "bsc",
  avalanche: "avalanche",
  solana: "solana",
  starknet: "starknet",
  hyperliquid: "hyperliquid",
  hyperevm: "hyperevm",
  linea: "linea",
  scroll: "scroll",
  zksync: "zksync",
  blast: "blast",
  gnosis: "gnosis",
  sepolia: "sepolia",
  "base sepolia": "base-sepolia",
};

export const CHAIN_IDS: Record<string, string> = {
  "1": "ethereum",
  "8453": "base",
  "42161": "arbitrum",
  "10": "optimism",
  "137": "polygon",
  "56": "bsc",
  "43114": "avalanche",
  "59144": "linea",
  "534352": "scroll",
  "324": "zksync",
  "81457": "blast",
  "100": "gnosis",
  "11155111": "sepolia",
  "84532": "base-sepolia",
  "999": "hyperevm",
};

/**
 * Words that carry no rule on their own. A sentence is understood when every word left after the
 * recognisers have run is in this list. Negations, "only", "except", numbers and conditions are deliberately
 * absent: a leftover of that kind means a rule was not understood.
 */
export const FILLER = new Set(
  (
    "a an the and or to of on in at for with via through from into onto by as is are be been being it its this that " +
    "these those our my your their his her we you i me us he she agent agents bot bots assistant may can " +
    "allowed permitted authorised authorized empowered entitled please must should shall will always each every any all single per one either both also " +
    "here there using use used trading trader funds fund money capital positions position order orders trade trades " +
    "market markets outcome outcomes side sides whole entire total value amount amounts size notional worth equivalent " +
    "token tokens coin coins asset assets perp perps perpetual perpetuals futures spot contract contracts " +
    "ops operations research payouts payout payments payment desk strategy policy rules rule mandate " +
    "do does doing have has had get gets mainnet v2 v3 v4 defi dex book new existing current available " +
    "requests request calls call api apis resources resource endpoints endpoint data feeds services service " +
    "across between among within up down out it's etc i.e e.g ie eg ok okay fine " +
    "transaction transactions tx txs transfer transfers swap swaps bet bets wager wagers note " +
    "grant grants granting give giving issue issuing sign signing create creating make making execute executing " +
    "perform performing submit submitting change changes changing modify modifying alter update updating edit " +
    "touch hosted output sent back either listed settings setting place placing open opening behalf anything everything " +
    "proceeds invoice invoices bill bills host hosts domain domains url urls site sites website websites keep stay remain mode fine " +
    "sizes notionals values spending go goes delivered routed credited actions action activities operations " +
    "ever whatsoever sending conversion conversions idle spare excess unused paywall paywalls " +
    "kind kinds sort sorts want wants wanted hard cash management otherwise see debt once pair pairs small " +
    "instrument instruments pls plz please thanks thank thx spl erc20 erc-20 operator operators"
  ).split(/\s+/),
);

/**
 * Words that name where value goes ("our own wallets", "the exchange deposit address"). They are not filler:
 * a sentence that uses them must also give the list they stand for, or it is not understood.
 */
export const RECIPIENT_WORDS =
  /\b(?:own|wallets?|accounts?|address(?:es)?|vendors?|suppliers?|contributors?|recipients?|payees?|counterpart(?:y|ies)|partners?|employees?|merchants?|creditors?|beneficiar(?:y|ies)|validators?|listed|whitelisted|allowlisted|approved|known|these|following|exchange|deposit|cold|hot|treasury|vault|safe|multisig|main|primary|team|company|spender|router|contract|contractors?|freelancers?|providers?|clients?|customers?|grantees?|payroll|staff|entries|receivers?)\b/gi;

/**
 * Market categories for "sports markets only": a question that names one of these words clearly belongs to the
 * category; anything else is left to a human (a Fed rate decision is not obviously "politics").
 */
export const TOPICS: Record<string, RegExp> = {
  sports:
    /\b(?:nba|nfl|nhl|mlb|mls|ufc|f1|formula 1|fifa|uefa|world cup|super bowl|stanley cup|world series|olympics?|premier league|champions league|la liga|serie a|bundesliga|wimbledon|us open|grand slam|masters|finals?|playoffs?|championship|mvp|match|game|tournament|lakers|celtics|warriors|knicks|yankees|dodgers|chiefs|eagles|real madrid|barcelona|soccer|football|basketball|baseball|hockey|tennis|golf|boxing|cricket|rugby)\b/i,
  politics:
    /\b(?:election|elected|president(?:ial)?|senate|senator|congress|house of representatives|governor|mayor|parliament|prime minister|primary|nominee|nomination|democrat(?:ic)?s?|republicans?|gop|vote|ballot|impeach\w*|cabinet|supreme court|white house|trump|biden|harris|vance|newsom|desantis)\b/i,
  crypto: /\b(?:bitcoin|btc|ethereum|eth|solana|sol|crypto(?:currency)?|token|stablecoin|etf|coinbase|binance|halving|memecoin|defi|nft)\b/i,
  economics: /\b(?:fed|fomc|interest rates?|rate (?:cut|hike)|inflation|cpi|gdp|recession|unemployment|jobs report|treasury yields?)\b/i,
  weather: /\b(?:temperature|rain|snow|hurricane|storm|weather|heat ?wave|degrees)\b/i,
  // A price market asks where a price will be ("reach $150,000", "above $5,000"); market caps, flips and volumes are not prices.
  price: /^(?!.*\b(?:market ?cap|mcap|flip|flippening|tvl|volume|supply|dominance|etf|approv\w*|launch\w*|listing)\b).*(?:\bprice\b|\b(?:reach|hit|touch|trade|close|above|below|over|under|dip to|fall to)\s+\$\s?\d|\ball[- ]time high\b)/i,
};

/** Words that narrow a category to the US ("US politics"). */
export const US_WORDS = /\b(?:us|u\.s\.|united states|american?|president(?:ial)?|senate|congress|house|governor|supreme court|white house|trump|biden|harris|vance|newsom|desantis|democrat(?:ic)?s?|republicans?|gop)\b/i;

/** The leading label of an intent ("Treasury agent.", "Polymarket bets:") ends with one of these nouns. */
export const ROLE_NOUNS = new Set(
  "agent bot wallet account vault treasury desk fund strategy trader assistant mandate policy bets trading payouts operator manager keeper service bettor lender borrower payer buyer seller client consumer market-maker allocator rebalancer payroll helper".split(
    " ",
  ),
);
