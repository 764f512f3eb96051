/**
 * Market scope written as a description ("NBA Finals markets", "markets on the 2026 United States midterm elections
 * (House, Senate or governor races)", "entertainment markets (Oscars, Grammys, box office)", "the price of bitcoin").
 * A market question is
 * - "in" only when it plainly names the scope: every content word of the description (a category word through its
 *   lexicon, a coin through its names, other words by stem) or one of the sub-kinds in parentheses together with
 *   the description's category; the description's year(s) and country; and no strong word of another category
 *   ("Will the Fed chair attend the NBA Finals?" names the NBA Finals in another sense, so it is never "in");
 * - "out" only when it plainly names something else of the same kind: another year, another country, another
 *   league, another coin, or only categories the description does not cover;
 * - "unsure" otherwise, which the checks turn into a question for a human.
 * The lexicons hold strong words only: weak ones ("game", "final", "match") never decide "out".
 */

import { TOPICS } from "./vocab";

export type TopicCat = "sports" | "politics" | "crypto" | "economics" | "weather" | "entertainment";

/** Words that place a question in a category on their own. */
const STRONG: Record<TopicCat, RegExp> = {
  sports:
    /\b(?:nba|wnba|nfl|nhl|mlb|mls|ufc|ncaa|f1|formula (?:1|one)|fifa|uefa|world cup|super bowl|stanley cup|world series|olympics?|olympic games|premier league|champions league|europa league|fa cup|la liga|serie a|bundesliga|ligue 1|arsenal|chelsea|liverpool|juventus|wimbledon|grand slam|grand prix|march madness|all-star|playoffs?|touchdowns?|lakers|celtics|warriors|knicks|nuggets|yankees|dodgers|chiefs|eagles|oilers|real madrid|barcelona|soccer|football|basketball|baseball|hockey|tennis|golf|boxing|cricket|rugby)\b/i,
  politics:
    /\b(?:elections?|elected|electoral|midterms?|primar(?:y|ies)|presidential|president|senate|senators?|congress(?:ional)?|governor(?:s|ship)?|gubernatorial|mayor(?:al)?|parliament(?:ary)?|prime minister|nominees?|nomination|democrats?|democratic|republicans?|gop|conservatives|labour|tories|ballot|impeach\w*|approval rating|supreme court|white house)\b/i,
  crypto: /\b(?:bitcoin|btc|ethereum|ether|eth|solana|sol|xrp|dogecoin|doge|cardano|litecoin|crypto(?:currenc(?:y|ies))?|stablecoins?|memecoins?|altcoins?|halving)\b/i,
  economics:
    /\b(?:fed|federal reserve|fomc|ecb|boe|boj|rba|bank of (?:england|japan|canada)|central bank|interest rates?|rate (?:cut|hike|decision)s?|inflation|cpi|pce|gdp|recession|unemployment|jobless|payrolls?|nonfarm|jobs report|treasury yields?)\b/i,
  weather: /\b(?:temperature|rain(?:fall)?|snow(?:fall)?|hurricanes?|tornado(?:es)?|storms?|weather|heat ?waves?|celsius|fahrenheit|inches of|earthquakes?|wildfires?)\b/i,
  entertainment:
    /\b(?:oscars?|academy awards?|best picture|best actor|best actress|grammys?|emmys?|golden globes?|tony awards?|box office|opening weekend|albums?|billboard|hot 100|movies?|films?|netflix|spotify|eurovision)\b/i,
};

/**
 * Words naming a central bank or its rates ("Fed", "Federal Reserve", "FOMC", "rate"): a market on a central bank's
 * rate decision. Narrower than economics: "the Fed's rate decisions" does not take in a CPI or GDP market.
 */
export const CENTRAL_BANK_WORDS = /^(?:fed|federal|reserve|fomc|ecb|boe|boj|central|bank|banks|rate|rates|interest|monetary)$/;
export const CENTRAL_BANK_RATES =
  /\b(?:fed|fomc|federal reserve|ecb|european central bank|boe|bank of england|boj|bank of japan|central bank|interest rates?|rate (?:cut|hike|decision)s?|(?:cut|cuts|raise|raises|hike|hikes|hold|holds)\s+(?:interest\s+)?rates|deposit facility rate|policy rate)\b/i;

/** Category words an owner writes for a whole category ("sports markets", "not politic"). */
const CAT_WORDS: Array<[RegExp, TopicCat]> = [
  [/^(?:sports?|sporting|athletics)$/, "sports"],
  [/^(?:politics?|political|elections?|electoral)$/, "politics"],
  [/^(?:crypto|cryptos|cryptocurrenc(?:y|ies)|coins?)$/, "crypto"],
  [/^(?:economics?|economy|economic|macro|macroeconomic|monetary)$/, "economics"],
  [/^(?:weather|climate)$/, "weather"],
  [/^(?:entertainment|showbiz|celebrity|celebrities|awards?|pop-culture)$/, "entertainment"],
];

export function catOfWord(w: string): TopicCat | null {
  const l = w.toLowerCase();
  for (const [re, cat] of CAT_WORDS) if (re.test(l)) return cat;
  return null;
}

/** Leagues and tournaments by family: a question naming only another family is outside. */
const SPORT_FAMILIES: Array<[string, RegExp]> = [
  ["nba", /\b(?:nba|lakers|celtics|warriors|knicks|nuggets|bucks|76ers|thunder)\b/i],
  ["wnba", /\bwnba\b/i],
  ["nhl", /\b(?:nhl|stanley cup|oilers|maple leafs|bruins|panthers)\b/i],
  ["nfl", /\b(?:nfl|super bowl|chiefs|eagles|49ers|cowboys)\b/i],
  ["mlb", /\b(?:mlb|world series|yankees|dodgers|red sox)\b/i],
  ["football", /\b(?:fifa|uefa|world cup|fa cup|champions league|europa league|premier league|la liga|serie a|bundesliga|ligue 1|mls|real madrid|barcelona|arsenal|chelsea|liverpool|manchester (?:united|city)|bayern|psg|juventus|inter milan|soccer)\b/i],
  ["f1", /\b(?:f1|formula (?:1|one)|grand prix)\b/i],
  ["tennis", /\b(?:wimbledon|roland garros|atp|wta)\b/i],
  ["ncaa", /\b(?:ncaa|march madness)\b/i],
  ["ufc", /\b(?:ufc|mma)\b/i],
  ["olympics", /\bolympics?\b|\bolympic games\b/i],
];

const COINS: Array<[string, RegExp]> = [
  ["btc", /\b(?:bitcoin|btc|xbt)\b/i],
  ["eth", /\b(?:ethereum|ether|eth)\b/i],
  ["sol", /\b(?:solana|sol)\b/i],
  ["xrp", /\b(?:xrp|ripple)\b/i],
  ["doge", /\b(?:dogecoin|doge)\b/i],
  ["ada", /\bcardano\b/i],
  ["ltc", /\blitecoin\b/i],
  ["bnb", /\bbnb\b/i],
];

const US_STATES =
  "alabama|alaska|arizona|arkansas|california|colorado|connecticut|delaware|florida|georgia|hawaii|idaho|illinois|indiana|iowa|kansas|kentucky|louisiana|maine|maryland|massachusetts|michigan|minnesota|mississippi|missouri|montana|nebraska|nevada|new hampshire|new jersey|new mexico|new york|north carolina|north dakota|ohio|oklahoma|oregon|pennsylvania|rhode island|south carolina|south dakota|tennessee|texas|utah|vermont|virginia|washington|west virginia|wisconsin|wyoming";

/** Countries; "US" in a question only in capitals ("us" is a pronoun there). */
const COUNTRIES: Array<[string, RegExp, RegExp?]> = [
  ["us", new RegExp(`\\b(?:united states|america|american|u\\.s\\.a?\\.?|usa|${US_STATES})\\b`, "i"), /\bU\.?S\.?\b/],
  ["uk", /\b(?:united kingdom|britain|british|england|english|scotland|scottish|wales|welsh)\b/i, /\bUK\b/],
  ["fr", /\b(?:france|french)\b/i],
  ["de", /\b(?:germany|german)\b/i],
  ["ca", /\b(?:canada|canadian)\b/i],
  ["jp", /\b(?:japan|japanese)\b/i],
  ["in", /\b(?:india|indian)\b/i],
  ["br", /\b(?:brazil|brazilian)\b/i],
  ["mx", /\b(?:mexico|mexican)\b/i],
  ["au", /\b(?:australia|australian)\b/i],
  ["cn", /\b(?:china|chinese)\b/i],
  ["ru", /\b(?:russia|russian)\b/i],
  ["es", /\b(?:spain|spanish)\b/i],
  ["it", /\b(?:italy|italian)\b/i],
];

function hits(list: Array<[string, RegExp, RegExp?]>, text: string, lowerUs = false): Set<string> {
  const out = new Set<string>();
  for (const [k, re, caps] of list) if (re.test(text) || (caps && (lowerUs ? new RegExp(caps.source, "i") : caps).test(text))) out.add(k);
  return out;
}

/** Years named, a season "2026-27" counting as both. */
function years(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/\b(20\d\d)(?:\s*[-–/]\s*(\d\d))?\b/g)) {
    out.add(m[1]);
    if (m[2]) out.add(`${m[1].slice(0, 2)}${m[2]}`);
  }
  return out;
}

function cats(text: string): Set<TopicCat> {
  const out = new Set<TopicCat>();
  for (const [k, re] of Object.entries(STRONG) as Array<[TopicCat, RegExp]>) if (re.test(text)) out.add(k);
  return out;
}

// "decisions", "calls", "meetings" are what any market on the subject resolves on, not words its question repeats.
const STOP = /^(?:the|a|an|of|on|in|about|for|to|and|or|any|all|only|markets?|related|around|re|regarding|concerning|covering|stuff|things|ones|type|kind|events?|bets?|decisions?|calls?|meetings?|announcements?|outcomes?|results?)$/i;
const COUNTRY_WORDS = /^(?:united|states|us|u\.s\.?|usa|america|american|uk|britain|british|kingdom)$/i;
/** "price" is where a price will be ("above $5,000", "reach $150k"), not the word itself. */
const PRICE_Q =
  /^(?!.*\b(?:market ?cap|mcap|flip|flippening|tvl|volume|dominance|etf|approv\w*|launch\w*|listing|purchase\w*|buy\w*)\b).*(?:\bprice\b|\b(?:reach|hit|touch|trade|close|be|end|finish|stay|above|below|over|under|dip to|fall to)\s+(?:above\s+|below\s+|over\s+|under\s+)?\$\s?\d|\ball[- ]time high\b)/i;

function stem(w: string): string {
  let s = w.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (/^\d+$/.test(s) || s.length < 4) return s;
  s = s.replace(/(?:ners?|ers?|ings?|ed|es|s)$/, "");
  return s.replace(/([bdfglmnprt])\1$/, "$1");
}

/** Does the question carry this one word of a description? */
function wordIn(w: string, q: string, qStems: Set<string>): boolean {
  const l = w.toLowerCase().replace(/['’]s$/, "");
  if (CENTRAL_BANK_WORDS.test(l)) return CENTRAL_BANK_RATES.test(q);
  if (/^prices?$/.test(l)) return PRICE_Q.test(q);
  // A whole category: its strong words, or the broader word list the engine has always used for it.
  const cat = catOfWord(l);
  if (cat) return STRONG[cat].test(q) || (TOPICS[cat]?.test(q) ?? false);
  const coin = COINS.find(([, re]) => re.test(l));
  if (coin) return coin[1].test(q);
  return qStems.has(stem(l)) || qStems.has(l);
}

interface Desc {
  main: string[];
  subs: string[][];
  years: Set<string>;
  countries: Set<string>;
  families: Set<string>;
  coins: Set<string>;
  cats: Set<TopicCat>;
}

function describe(topic: string): Desc {
  const m = /^(.*?)\s*\(([^()]*)\)\s*$/.exec(topic);
  const mainText = (m ? m[1] : topic).replace(/-/g, " ");
  const subText = m ? m[2] : "";
  const words = (t: string) => (t.match(/[A-Za-z0-9][\w.'’]*/g) ?? []).filter((w) => !STOP.test(w));
  const main = words(mainText).filter((w) => !/^20\d\d$/.test(w) && !COUNTRY_WORDS.test(w));
  const subs = subText
    .split(/\s*(?:,|\bor\b|\band\b|\/|\|)\s*/)
    .map((s) => words(s))
    .filter((s) => s.length > 0);
  const all = `${mainText} ${subText}`;
  const c = cats(all);
  for (const w of words(all)) {
    const k = catOfWord(w);
    if (k) c.add(k);
  }
  const coins = hits(COINS, all);
  const families = hits(SPORT_FAMILIES, all);
  if (coins.size) c.add("crypto");
  if (families.size) c.add("sports");
  return { main, subs, years: years(all), countries: hits(COUNTRIES, mainText, true), families, coins, cats: c };
}

const disjoint = <T>(a: Set<T>, b: Set<T>): boolean => a.size > 0 && b.size > 0 && ![...a].some((x) => b.has(x));

/** Questions about an event's side-show rather than its outcome. */
const NOVELTY = /\b(?:attend(?:s|ed|ing|ance)?|appear(?:s|ance)?\s+(?:at|on|in)|perform(?:s|ing)?\s+at|halftime show|national anthem|sing(?:s|ing)?|wear(?:s|ing)?|tweet(?:s|ed)?|mention(?:s|ed)?|say(?:s)?)\b/i;

export type TopicVerdict = "in" | "out" | "unsure";

export function topicVerdict(topic: string, question: string): TopicVerdict {
  const d = describe(topic);
  const q = question;
  const qStems = new Set((q.match(/[A-Za-z0-9]+/g) ?? []).flatMap((w) => [stem(w), w.toLowerCase()]));
  const qYears = years(q);
  const qCountries = hits(COUNTRIES, q);
  const qFamilies = hits(SPORT_FAMILIES, q);
  const qCoins = hits(COINS, q);
  const qCats = cats(q);
  // Plainly something else of the same kind: a decision, never a guess from a missing word.
  if (disjoint(d.years, qYears) || disjoint(d.countries, qCountries) || disjoint(d.families, qFamilies) || disjoint(d.coins, qCoins) || disjoint(d.cats, qCats)) return "out";
  if (d.main.length === 0 && d.subs.length === 0) return "unsure";
  const yearsOk = [...d.years].every((y) => qYears.has(y));
  const countryOk = d.countries.size === 0 || [...d.countries].some((k) => qCountries.has(k));
  const mainOk = d.main.length > 0 && d.main.every((w) => wordIn(w, q, qStems));
  // A sub-kind ("governor races") counts with the description's own category named in the question.
  const mainCats = new Set(d.main.map((w) => catOfWord(w) ?? [...cats(w)][0]).filter((k): k is TopicCat => !!k));
  const subOk = d.subs.some((s) => wordIn(s[0], q, qStems)) && (mainCats.size === 0 || [...mainCats].some((k) => STRONG[k].test(q)));
  // Another category's strong word in the question, or a question about who attends, performs at or says something
  // at the event: the scope's words are used in another sense.
  const foreign = [...qCats].some((k) => !d.cats.has(k)) || NOVELTY.test(q);
  if (yearsOk && countryOk && (mainOk || subOk) && !foreign) return "in";
  return "unsure";
}
