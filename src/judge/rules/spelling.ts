/**
 * How owners spell rules when they type fast or write in a second language, rewritten to the phrasing the
 * recognisers read: misspelt rule words ("aprovals", "adresess", "withdrawl"), "more then", a non-native
 * comparative ("not more big than"), "pass" for exceed, a decimal comma ("0,50 USDC"), shorthand ("500/order",
 * "no wd"), "at no time", "apiece", "don't let it send", a double negative ("isn't forbidden"), "ask me before
 * placing it", "in one go", and a chat run-on whose sentences are separated only by a double space.
 *
 * Invariant: a rewrite never turns a word into a permissive one; corrections only reach rule nouns and verbs
 * that restrict (approval, withdrawal, address, transfer ...), and "isn't forbidden" becomes "allowed" only
 * where the owner wrote exactly that.
 */

/** Rule words a typo is corrected to (one edit away, words of five letters or more). */
const VOCAB = (
  "approval approvals approve address addresses withdraw withdrawal withdrawals transfer transfers payment payments " +
  "recipient recipients freelancer freelancers contractor contractors vendor vendors leverage maximum minimum " +
  "forbidden prohibited exceed exceeding balance notional separately receive wallet wallets between daily weekly monthly " +
  // "anyhting", "anythng": the object of a refusal ("don't sell anyhting"); left as typed it was an unread word.
  "anything"
).split(" ");
const VOCAB_SET = new Set(VOCAB);

/** Damerau-Levenshtein distance, stopping once it is past 1. */
function withinOne(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return true;
  const rest = (x: number, y: number) => a.slice(x) === b.slice(y);
  return (
    rest(i + 1, i + 1) || // substitution
    rest(i + 1, i) || // a has an extra letter
    rest(i, i + 1) || // b has an extra letter
    (a[i] === b[i + 1] && a[i + 1] === b[i] && rest(i + 2, i + 2)) // transposition
  );
}

/** A doubled or dropped letter twice over ("adresess" for "addresses"): two edits, only for long words. */
function withinTwo(a: string, b: string): boolean {
  if (a.length < 7 || Math.abs(a.length - b.length) > 2) return false;
  for (let k = 0; k <= a.length; k++) {
    for (const ch of new Set(b)) if (withinOne(a.slice(0, k) + ch + a.slice(k), b)) return true;
    if (k < a.length && withinOne(a.slice(0, k) + a.slice(k + 1), b)) return true;
  }
  return false;
}

// "spender contracts" is not "spender contractor": real words two edits from a rule word are kept.
const KNOWN_WORDS = new Set("walled appraisal approach addressee transferee receiver balanced minimal maximal contract contracts contracted".split(" "));

/** "approved", "received", "exceeds": an inflection of a rule word is spelt right. */
const isInflection = (lw: string): boolean => VOCAB.some((v) => lw.startsWith(v.replace(/e$/, "")));

function correct(word: string): string {
  const lw = word.toLowerCase();
  if (lw.length < 5 || VOCAB_SET.has(lw) || KNOWN_WORDS.has(lw) || isInflection(lw)) return word;
  for (const v of VOCAB) if (v[0] === lw[0] && (withinOne(lw, v) || withinTwo(lw, v))) return v;
  return word;
}

/**
 * Function words that close, negate or except a rule ("nothign else", "withdrawals are nto allowed", "exept to X").
 * Left as typed they were read as names and silently ignored, so "nto allowed" permitted what it forbids. A
 * swapped pair of letters, or one letter dropped from a longer word, is read as the word: each target only
 * restricts, so a wrong correction can only hold an action back. Real words one edit away are kept.
 */
const CLOSED = "never not nothing nobody none only except unless without other else cannot".split(" ");
const CLOSED_SET = new Set(CLOSED);
const REAL_NEAR_CLOSED = new Set("ont ever noting ther othe one once ones nose note tone eels".split(" "));

function swapsTo(lw: string, v: string): boolean {
  if (lw.length !== v.length) return false;
  let i = 0;
  while (i < lw.length && lw[i] === v[i]) i++;
  return i < lw.length - 1 && lw[i] === v[i + 1] && lw[i + 1] === v[i] && lw.slice(i + 2) === v.slice(i + 2);
}
const dropsFrom = (lw: string, v: string): boolean => v.length >= 5 && lw.length === v.length - 1 && [...v].some((_, k) => v.slice(0, k) + v.slice(k + 1) === lw);

function correctClosed(word: string): string {
  const lw = word.toLowerCase();
  if (lw.length < 3 || CLOSED_SET.has(lw) || REAL_NEAR_CLOSED.has(lw)) return word;
  const hit = CLOSED.find((v) => swapsTo(lw, v) || (lw.length >= 4 && dropsFrom(lw, v)));
  if (!hit) return word;
  return word === word.toUpperCase() ? hit.toUpperCase() : hit;
}

export function normaliseSpelling(raw: string): string {
  let s = raw;
  s = s.replace(/\b[a-z]{3,9}\b/gi, (w) => correctClosed(w));
  // "ok so this wallet pays our freelancers  dont send more then 750": a double space ends a sentence.
  s = s.replace(/(?<=[a-z0-9])[ \t]{2,}(?=[a-z])/g, ". ");
  // "Leverage stays at 5x or below", "leverage shall remain at 3x max": the copula before a bounded multiple says
  // nothing more than "leverage at 5x or below" (the bound word is kept, so a bare "stays at 5x" is not made a cap).
  s = s.replace(/\b(leverage|lev)\s+(?:stays|remains|must\s+(?:stay|remain)|shall\s+(?:stay|remain)|should\s+(?:stay|remain)|will\s+(?:stay|remain)|is\s+kept|kept|is\s+to\s+(?:stay|remain))\s+(?=(?:at\s+)?\d+(?:\.\d+)?\s?x\b\s*(?:or\s+(?:below|lower|less|under)\b|max\b|at\s+most\b|tops\b))/gi, "$1 ");
  // "Leverage you can put until 5x": a non-native "until" before a multiple is "up to".
  s = s.replace(/\buntil\s+(?=\d+(?:\.\d+)?\s*x\b)/gi, "up to ");
  s = s.replace(/\b[a-z]{5,}\b/gi, (w) => (/^[a-z]+$/.test(w) ? correct(w) : w));
  s = s.replace(/\b(more|less|bigger|larger|higher|greater|smaller|lower|other|fewer|rather)\s+then\b/gi, "$1 than");
  // "not more as 900 USDC": a comparative with "as" before a figure (a speaker's "than").
  s = s.replace(/\b(more|less|bigger|larger|higher|greater|smaller|lower|fewer)\s+as\b(?=\s+(?:\$\s?)?\d)/gi, "$1 than");
  // "not more of 3 SOL together": "of" for than before a figure, "together" for in total after one.
  s = s.replace(/\b(more|less|bigger|larger|higher|greater)\s+of\b(?=\s+(?:\$\s?)?\d)/gi, "$1 than");
  s = s.replace(/(\d(?:[\d,.]*\d)?\s?(?:[kKmM]\b\s?)?(?:[A-Za-z]{2,6}\b\s?)?)\s*(?:all\s+)?together\b/g, "$1 in total");
  // "anythin above 75 cents i wanna see before it goes out": chat contractions of the words a human line is read by
  // ("wanna see" is "want to see"; "nothin" is "nothing", so a dropped g never drops a negation).
  s = s.replace(/\b(any|some|no|every)thin\b/gi, "$1thing").replace(/\bwanna\b/gi, "want to").replace(/\bgotta\b/gi, "have to").replace(/\bhafta\b/gi, "have to");
  // "base usdc only", "on base": the chain, as it is read when capitalised (a chain rule only ever narrows).
  s = s.replace(/\bbase(?=\s+(?:usdc|usdt|eth|weth|dai|mainnet)\b)|(?<=\b(?:on|to|via)\s+)base\b(?!\s+(?:fee|rate|currency|amount|price|asset|token|layer|case|pay|salary)s?\b)/g, "Base");
  // "Above 10 dollars, never.", "over $5k: no": the top tier of a review band, its consequence after the figure.
  s = s.replace(/(^|[.;\n]\s*)(?:(?:and\s+)?(?:anything|any\s+\w+|everything)\s+)?(above|over|more than|beyond|past)\s+((?:\$\s?)?\d[\d,.]*\s*[kKmM]?(?:\s*(?:usd|usdc|usdt|dollars?|bucks|[A-Z]{2,6})\b)?)\s*[,:–—-]\s*(?:never|no|not\s+allowed|forbidden|prohibited|blocked|refuse(?:\s+it)?|reject(?:\s+it)?|don['’]?t)\s*(?=[.;!\n]|$)/gi, "$1never $2 $3");
  // "the amount sended today", "what we payed this month": the irregular past of a counter's verb.
  s = s.replace(/\bsended\b/gi, "sent").replace(/\bpayed\b/gi, "paid").replace(/\bspended\b/gi, "spent");
  // "not more big than", "more bigger than": a comparative spelt out.
  s = s.replace(/\bmore\s+(?:big|bigger)\s+than\b/gi, "bigger than").replace(/\bmore\s+(?:large|larger)\s+than\b/gi, "larger than").replace(/\bmore\s+(?:high|higher)\s+than\b/gi, "higher than");
  // "is not allowed to pass 20 USDC", "never surpass": exceed.
  s = s.replace(/\b(not|never)\s+((?:be\s+)?(?:allowed|permitted)\s+to\s+)?(?:pass|surpass|overshoot|top)\b(?=\s+(?:\$|\d|the|a|an|its|this|that))/gi, "$1 $2exceed");
  // "0,50 USDC": a comma followed by one or two digits is a decimal comma (thousands take three).
  s = s.replace(/(?<![\d,.])(\d{1,3}),(\d{1,2})(?![\d,])/g, "$1.$2");
  // "on Base network": the chain.
  s = s.replace(/\b(Base|Ethereum|Arbitrum|Optimism|Polygon|Solana|Starknet|Avalanche|BSC|Hyperliquid)\s+(?:network|chain|blockchain)\b/g, "$1");
  // "500/order", "2k/tx": per.
  s = s.replace(/(\d[\d,.]*\s*[kKmM]?)\s*\/\s*(orders?|trades?|tx|txn|transactions?|payments?|calls?|requests?|swaps?|bets?|transfers?|withdrawals?)\b/gi, "$1 per $2");
  // "no wd", "w/d": withdrawals.
  s = s.replace(/\b(?:wds?|w\/ds?)\b/gi, "withdrawals");
  s = s.replace(/\bat\s+no\s+time\b/gi, "never").replace(/\bapiece\b/gi, "each");
  s = s.replace(/\b(?:in\s+(?:one|a\s+single)\s+go|at\s+one\s+go)\b/gi, "at a time");
  // "please don't let it send tokens": never send.
  s = s.replace(/\b(?:do\s+not|don['’]?t|never)\s+let\s+(?:it|him|her|them|the\s+(?:bot|agent|assistant))\s+(?=[a-z])/gi, "never ");
  // "Changing leverage isn't forbidden": allowed.
  s = s.replace(/\b(is|are)(?:\s+not|n['’]?t)\s+(?:forbidden|prohibited|banned|disallowed|off[- ]limits)\b/gi, "$1 allowed");
  // "ask me before placing it": ask me first.
  s = s.replace(/\b(ask|check\s+with|ping|text|call|message)\s+(me|us|the owner)\s+before\s+(?:placing|sending|executing|doing|making|submitting|paying|running)\s+(?:it|them|that|this|the\s+\w+)\b/gi, "$1 $2 first");
  // "Orders above $5,000 are never allowed": forbidden.
  s = s.replace(/\b(orders?|trades?|payments?|transfers?|swaps?|bets?|withdrawals?|purchases?)\s+((?:above|over|larger than|bigger than|more than|exceeding)\s+\$?\d[\d.,]*\s*[kKmM]?(?:\s*[A-Za-z]{3,5}\b)?)\s+(?:are|is)\s+(?:never\s+(?:allowed|permitted|ok|okay)|not\s+(?:allowed|permitted)|forbidden|prohibited|banned)\b/gi, "no $1 $2");
  s = s.replace(/\b(is|are)\s+never\s+(?:allowed|permitted|ok|okay|acceptable)\b/gi, "$1 forbidden").replace(/\b(is|are)\s+not\s+permitted\b/gi, "$1 not allowed");
  // "the spent until now", "spent up to now": so far.
  s = s.replace(/\b(?:until|up\s+to|till)\s+now\b/gi, "so far");
  // "only to the vendors listed, nowhere else": restates the list.
  s = s.replace(/,?\s*(?:and\s+)?nowhere\s+else\b/gi, "");
  // "anything else ask me first" after a list: whatever is outside the list is held back (a block is stricter still).
  s = s.replace(/[,;]?\s*(?:and\s+)?(?:for\s+)?(?:anything|everything|anyone|anybody|anywhere)\s+else,?\s+(?:just\s+)?(?:ask|check\s+with|ping|text|call|message)\s+(?:me|us)(?:\s+first)?\b/gi, ". Nothing else");
  // "One sweep may not be", "one payment": a single one.
  s = s.replace(/\bone\s+(?=(?:sweep|payment|transfer|order|trade|call|request|swap|bet|withdrawal|transaction|send|top-?up|payout|tip)s?\b)/gi, "a single ");
  // "..., and since the bot will only ever be buying HYPE, I think it's safe ..., though please ...": a run-on of
  // separate statements; a reason clause ("since ...") states what the owner expects, which is the rule.
  s = s.replace(/,\s+(?:and\s+)?(?:since|because|as)\s+(?=(?:the|our|my|it|we|this)\b)/gi, ". ").replace(/,\s+(?:though|although|even though)\s+/gi, ". ").replace(/,\s+(?=I\s+(?:think|guess|believe|reckon|figure)\b)/g, ". ");
  // "this wallet pays our freelancers": the agent's own wallet is the subject, not a recipient.
  s = s.replace(/\b(?:this|the|our|my)\s+wallet\s+(?=(?:pays|sends|handles|makes|settles|covers)\b)/gi, "it ");
  return s;
}
