/**
 * Intent text preparation: protects addresses, hosts, quoted market names and context references behind
 * placeholders (so their dots and digits do not split sentences or read as amounts), splits the intent into
 * sentences and clauses, and tracks which characters of a clause a recogniser has consumed. A clause is
 * understood only when what is left over is filler.
 */
import { reservedToOwner } from "./reserved";
import { FILLER } from "./vocab";
import { normaliseNumbers } from "./numbers";
import { AMBIGUOUS_RE, readSeparators, spokenForms, unitFirst } from "./number-forms";
import { normaliseOwnerStyles } from "./styles";
import { normaliseSpelling } from "./spelling";
import { nameReferrals } from "./parse/human";
import { applyDefinitions, normaliseLayout, unwrapLayout } from "./layout";
import { readCapTables } from "./cap-tables";
import { normaliseConfigLines } from "./config-lines";
import { normaliseNetworks } from "./networks";
import { USD_STABLES } from "./vocab";
import { readStructure } from "./structure/index";

export interface Refs {
  addresses: string[];
  quotes: string[];
  hosts: string[];
  ctx: string[];
  /** Figures with two readings ("1.500"), held so that no figure reader takes either (number-forms.ts). */
  numbers: string[];
}

export const PH_RE = /§([aqhcn])(\d+)/g;

export interface Clause {
  /** Sentence the clause belongs to, with placeholders restored, for quoting. */
  sentence: string;
  /** Working text (original case, placeholders in place). */
  text: string;
  used: boolean[];
  refs: Refs;
}

export function newRefs(): Refs {
  return { addresses: [], quotes: [], hosts: [], ctx: [], numbers: [] };
}

function hold(list: string[], kind: string, value: string): string {
  let i = list.indexOf(value);
  if (i < 0) i = list.push(value) - 1;
  return ` §${kind}${i} `;
}

const HOST_TLDS =
  "com|org|net|io|xyz|ai|example|test|local|internal|dev|app|co|finance|fi|exchange|markets|info|gg|so|me|trade|us|uk|de|eu|sh|network|cloud|tech|news|data|money|pro|site|online";
const HOST_RE = new RegExp(`\\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+(?:${HOST_TLDS})\\b`, "gi");
const BASE58_RE = /\b[1-9A-HJ-NP-Za-km-z]{32,44}\b/g;

/**
 * Layout first (JSON, markdown), then owners' document styles, then the rest of the layout and spelling
 * (layout.ts, styles.ts, spelling.ts). Pure and the costliest step, while the same texts (an agent's rules, its
 * action strings) come back with every request: remembered for the most recent texts.
 */
const STYLED = new Map<string, string>();
function normaliseStyles(raw: string): string {
  const hit = STYLED.get(raw);
  if (hit !== undefined) return hit;
  const out = nameReferrals(normaliseSpelling(normaliseLayout(normaliseConfigLines(normaliseOwnerStyles(readStructure(readCapTables(unwrapLayout(readSeparators(raw)))))))));
  if (STYLED.size >= 512) STYLED.delete(STYLED.keys().next().value as string);
  STYLED.set(raw, out);
  return out;
}

/** "75,000 of the stablecoin", "10k of the stable": the figure in the only dollar stablecoin the text names. */
function theStablecoin(s: string): string {
  if (!/\bstable(?:coin)?s?\b/i.test(s)) return s;
  const named = new Set((s.match(/\b[A-Z][A-Z0-9]{2,5}\b/g) ?? []).filter((w) => USD_STABLES.has(w)));
  if (named.size !== 1) return s;
  const [sym] = [...named];
  return s.replace(/(\d[\d,]*(?:\.\d+)?\s?[kKmM]?)\s+(?:of\s+)?(?:the|our)\s+stable(?:coin)?\b/g, `$1 ${sym}`);
}

/** Replace the literal things in an intent by placeholders; returns the protected text. */
export function protect(raw: string, refs: Refs): string {
  // "ctx.wallet", "ctx.prices": owners' short name for the context object, a path like "context.wallet".
  let s = normaliseStyles(raw).replace(/\bctx\.(?=[A-Za-z_])/g, "context.").replace(AMBIGUOUS_RE, (_m, n: string) => hold(refs.numbers, "n", n)).replace(/[\u2018\u2019\u201b]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/[\u2013\u2014]/g, " - ");
  // "USDC <-> SOL" goes both ways; "WETH -> USDC" is one direction.
  s = s.replace(/\s*(?:<->|↔|<=>)\s*/g, " and ").replace(/\s*->\s*|\s*→\s*/g, " to ");
  // "the approve the swap needs", "approvals that a supply requires": the approval for that action, no condition.
  s = s.replace(/\b(approv\w*|allowances?)\s+(?:that\s+|which\s+)?(?:the|a|an|each|every|its|this)\s+(swap|trade|supply|deposit|repay(?:ment)?)s?\s+(?:needs?|requires?|needed|required)\b/gi, "$1 for the $2");
  // "between the perp balance and spot balance of this same account": the sides are the account's own balances.
  s = s.replace(/\b(balances?|wallets?|sides?)\s+(?:of|in|within)\s+(?:the|this)\s+same\s+(?:account|wallet|address)\b/gi, "$1");
  s = s.replace(/≤|=<|<=/g, " at most ").replace(/≥|>=/g, " at least ").replace(/\s<\s?(?=[$\d])/g, " under ").replace(/\s>\s?(?=[$\d])/g, " above ").replace(/\u00a0/g, " ");
  // "1. Permitted instruments: ..." at the start of a line: an enumerator, not a quantity.
  s = s.replace(/(^|\n)[ \t]*\d{1,2}[.)][ \t]+(?=[A-Za-z])/g, "$1");
  // "at most 75,000 of the stablecoin in": the one stablecoin the intent names, so a pair with another token stays
  // one ceiling per asset. With none or several named, it is left as written (unread).
  s = theStablecoin(s);
  // "USD 4,000" is "$4,000" (only the bare currency code, never a token such as USDC).
  s = s.replace(/\bUSD\s+(?=\d)/g, "$");
  // "per UTC day", "(UTC)": the engine's days are UTC days.
  s = s.replace(/\s*\(\s*UTC\s*\)/g, "").replace(/\bUTC\s+(?=(?:calendar\s+)?(?:day|week|month)s?\b)/gi, "");
  // "min out no worse than 1% below": "at most 1% below".
  s = s.replace(/\b(?:no|not)\s+worse\s+than\b/gi, "at most");
  // "slippage no greater than 1%", "not higher than 5x": at most.
  s = s.replace(/\b(?:no|not)\s+(?:greater|higher|larger|bigger)\s+than\b/gi, "at most");
  // "the hedge never exceeds 2 BTC", "the total does not exceed $5k": at most (the inclusive reading of "exceed").
  s = s.replace(/\b(?:never|does\s+not|doesn['’]t)\s+exceeds?\b/gi, "at most");
  // "Undelegation is outside the agent's authority", "borrowing is a no-go", "testnets are out of scope": prohibitions.
  s = s.replace(/\b(is|are)\s+(?:(?:strictly|completely|entirely)\s+)?(?:outside\s+(?:of\s+)?(?:the|its|our|your|this)?\s*(?:(?:agent|bot|assistant)['’]?s?\s+)?(?:authority|mandate|remit|scope|permissions?)|a\s+no[- ]go|out\s+of\s+scope|not\s+(?:ok|okay|fine|on(?!\s+(?:the|our|my|this|that|these|those|a|an|any|its|their)\b)))\b/gi, "$1 forbidden");
  // "Selling is my call", "leave withdrawals to me", "only I move money": activities the owner keeps (reserved.ts).
  s = reservedToOwner(s);
  // "cancel whatever you need to": no requirement in it.
  s = s.replace(/\b(whatever|anything|as (?:much|many) as)\s+(?:you|it|the agent)\s+(?:need|needs|want|wants)(?:\s+to)?\b/gi, "$1");
  // Config spelling of reduce-only: "r=true", "reduce_only: true", "reduceOnly=true".
  s = s.replace(/\b(?:r|reduce[_-]?only|reduceonly)\s*[=:]\s*true\b/gi, "reduce-only");
  // "r must be true", "reduce_only should always be true": the flag required, said as a sentence.
  s = s.replace(/\b(?:r|reduce[_-]?only|reduceonly)\s+(?:must|should|shall|has\s+to|needs?\s+to)\s+(?:always\s+)?be\s+(?:set\s+(?:to\s+)?)?true\b/gi, "reduce-only");
  // "only to close wat i hold": chat spelling of "what".
  s = s.replace(/\bwat\b/gi, "what");
  // Shorthand: "mkts" are markets, "w/" is with, "lev" is leverage, "txs" are transactions.
  // "no mkt orders", "no IOC, no mkt": the market order type, not the markets traded.
  s = s.replace(/\bmkt\b(?=\s+(?:orders?|ones?|buys?|sells?)\b)|(?<=\b(?:no|not|never|avoid)\s+)mkt\b(?=\s*(?:[.,;!)\n]|$))/gi, "market");
  // "cross or iso", "iso/cross": both modes named, spelled out before the bare "iso" below is read as a rule.
  s = s.replace(/\b(cross\s*(?:or|and|\/|&)\s*)isol?\b|\bisol?\b(?=\s*(?:or|and|\/|&)\s*cross\b)/gi, (_m, lead: string | undefined) => `${lead ?? ""}isolated`);
  // "lev max 3x, ISO", "5x iso only": isolated margin, written beside the leverage it goes with.
  s = s.replace(/(?<=\b(?:\d+(?:\.\d+)?\s?x|lev\w*|margin)\b[^.;\n]{0,12}?)\b(?:iso|isol)\b(?:\s+only)?/gi, "isolated margin only");
  // Order-field shorthand: "px <= 0.40" is the limit price, "sz <= 250 sh" the size in shares.
  s = s.replace(/\bpx\b/gi, "price").replace(/\bsz\b/gi, "size").replace(/(?<=\d\s?)sh\b\.?/gi, " shares");
  s = s.replace(/\bmkts?\b/gi, "markets").replace(/\bw\/(?=\s)/gi, "with").replace(/\blev\b(?=\s*(?:max|cap|limit|at most|up to|≤|<|\d))/gi, "leverage");
  // "pays for API calls over x402": the protocol a payment travels over, not a comparison.
  s = s.replace(/\bover\s+(?=(?:the\s+)?x402\b)/gi, "via ");
  // "repay whenever", "unwrapping is fine anytime": at the end of a line, when it happens is left open; it is no
  // condition ("whenever the price ..." goes on, and stays).
  s = s.replace(/\s+(?:whenever|anytime|any\s+time|at\s+any\s+time)(?=\s*(?:[.;!\n]|$))/gi, "");
  // Venue action names: "spotSend" is a spot send, "usdSend" a USD send, "withdraw3" a withdrawal.
  s = s.replace(/\bspotSend\b/g, "spot send").replace(/\busdSend\b/g, "usd send").replace(/\bwithdraw3\b/g, "withdrawal").replace(/\bvaultTransfer\b/g, "vault transfer");
  // "the vendors below:", "payees listed below": the list follows; "below" is not a cap here.
  s = s.replace(/\b(vendors|payees|addresses|wallets|recipients|markets|tokens|assets|hosts|contractors|suppliers|validators|accounts)\s+(?:listed\s+)?below\b(?!\s*\$?\d)/gi, "$1 listed");
  // "setApprovalForAll" grants every NFT of a collection: an NFT approval.
  s = s.replace(/\bsetApprovalForAll\b/g, "NFT approvals");
  // "(never the other way)", "not the reverse": restates the one direction already given. Not "never reverse a
  // position", where "reverse" is the verb of a rule (parse/positions.ts).
  s = s.replace(/,?\s*\(?\s*(?:and\s+)?(?:never|not|no)\s+(?:the\s+)?(?:other\s+way(?:\s+(?:round|around))?|reverse(?!\s+(?:a|an|the|any|my|our|your|its|positions?|longs?|shorts?|trades?|directions?|exposure)\b)|opposite(?:\s+direction)?)\s*\)?/gi, "");
  // "Nothing else: no transfers, no swaps": the closing sentence, then its examples.
  s = s.replace(/\b(nothing else)\s*:\s*/gi, "$1. ");
  // "Don't let the total in Aave go over $1.5m": keep it at most $1.5m.
  s = s.replace(/\b(?:don['’]t|do not|never)\s+let\s+([^.;:]{1,60}?)\s+(?:go|get|rise|climb|run)\s+(?:over|above|beyond|past)\b/gi, "keep $1 at most");
  // "We've budgeted 6,000 USDC for the month": a monthly budget.
  s = s.replace(/\b(?:we(?:['’]ve| have)\s+|i(?:['’]ve| have)\s+)?budgeted\s+([^.;:]{1,30}?)\s+(?:for|per)\s+(?:the|a|each)\s+(day|week|month)\b/gi, "budget $1 per $2");
  // Solana's compute budget program sets fees, not a spending budget.
  s = s.replace(/\bcompute[- ]budget\b/gi, "compute-unit");
  // "appear under context.x", "listed under context.x": in the list at that path.
  s = s.replace(/\b(?:appears?|listed|named|found|kept)\s+(?:under|in)\s+(?=context\.)/gi, "in ");
  // "the validators under context.validators.ok": a plural of listed things before "under" a path names the list there
  // (never a cap: "payments under context.x" has no such noun and stays a bound).
  s = s.replace(/\b(validators|payees|vendors|addresses|wallets|recipients|destinations|markets|tokens|assets|coins|mints|hosts|contractors|suppliers|grantees|counterparties|spenders|routers|pools|accounts|sub-?accounts)\s+under\s+(?=context\.)/gi, "$1 in ");
  // "bigger than like 800 bucks": a hedge, not a word of the rule.
  s = s.replace(/\b(?:like|about|roughly|around)\s+(?=\$?\d)/gi, "");
  // "never short, unless you're closing part of our long": closing a long is not shorting; the exception restates it.
  s = s.replace(/,?\s*\bunless\s+(?:you['’]re|you are|it['’]s|it is|we['’]re|we are|when|it)\s+(?:just\s+)?(?:closing|reducing|trimming|exiting|unwinding)\b[^,;.()]*/gi, "");
  // "not permitted unless the sell only reduces a long we already hold (and is marked reduce-only)": the same exception.
  s = s.replace(/,?\s*\bunless\s+(?:the|a|an|it|that|this|such\s+a)?\s*(?:sell|sale|order|trade|position)?\s*(?:only\s+|just\s+)?(?:reduces|closes|trims|cuts|exits|unwinds)\s+(?:a|an|the|our|my|some|part\s+of\s+(?:a|an|the|our))?\s*(?:existing\s+|open\s+)?long\b[^,;.()]*/gi, "");
  s = s.replace(/\bthose\s+(sells|buys|orders|exits)\b/gi, "$1");
  // Test networks: a chain class.
  s = s.replace(/\btest\s?nets?\b|\btest\s+networks?\b|\btest\s+chains?\b/gi, "testnets");
  // "x402: Base USDC, mainnet only (no testnets)", "base and arbitrum r off limits": networks as owners name them.
  s = normaliseNetworks(s);
  // "Undelegating, pulling HYPE out of staking, or sending HYPE elsewhere: all off-limits": every item is prohibited.
  // A bullet's marker stays in front ("- over 600 STRK: not allowed" -> "- never over 600 STRK"), not after "never".
  s = s.replace(/(^\s*(?:[-*•‣]\s+)?|[.;\n]\s*(?:[-*•‣]\s+)?)([^.;:\n]{3,200}?)\s*:\s*(?:(?:all|both|each|every one)(?:\s+of\s+(?:them|these))?\s+)?(?:are\s+|is\s+)?(?:off[- ]limits|forbidden|prohibited|banned|not allowed|not permitted|a no[- ]go)\b/gi, "$1never $2");
  // Config lines "borrow: never", "bridging: disabled": the activity the key names is never done.
  s = s.replace(/(^|\n)([ \t]*[-*•]?[ \t]*)([A-Za-z][\w /-]{1,40}?)[ \t]*[:=][ \t]*(?:never|disabled)[ \t]*\.?[ \t]*(?=\n|$)/gi, "$1$2never $3");
  // Intensifiers carry no rule: "shorts are totally fine", "seriously don't".
  s = s.replace(/\b(?:totally|completely|absolutely|perfectly|really|seriously|definitely|100%)\s+(?=(?:fine|ok|okay|allowed|permitted|don['’]t|do not|never|not)\b)/gi, "");
  // "each transfer counts on its own": separately.
  s = s.replace(/\bon\s+(?:its|their)\s+own\b/gi, "separately");
  // Chat spelling without apostrophes: "dont", "cant", "wont", "shouldnt".
  s = s.replace(/\b(do|ca|wo|should|must|does|is|are)nt\b/gi, (_m, w: string) => `${w}n't`);
  // "go past 5x", "goes over $2k": above.
  s = s.replace(/\b(?:go|goes|going|get|gets|run|runs)\s+(?:past|over|above|beyond)\b/gi, "exceed");
  // "Entries are limited to $2,500", "orders are capped at": the subject names the cap's scope.
  s = s.replace(/\b(entries|orders|trades|payments|transfers|swaps|bets)\s+(?:are|is)\s+(limited to|capped at)\b/gi, "$2");
  // "Leverage maximum is 5x", "max leverage is 5x": a maximum.
  s = s.replace(/\b(leverage)\s+(?:maximum|max|cap|limit)\s+(?:is|of|=|:)\s*/gi, "$1 at most ").replace(/\b(?:maximum|max)\s+(leverage)\s+(?:is|=|:)\s*/gi, "$1 at most ");
  // Config keys: "max_order_usd: 75" is "max order: $75", "max_price_per_share: 0.35" is "max price per share: 0.35".
  s = s.replace(/(^|\n)([ \t-]*)([A-Za-z]+(?:_[A-Za-z0-9]+)+)(\s*[:=]\s*)/g, (_m, nl: string, ind: string, key: string, sep: string) => `${nl}${ind}${key.replace(/_/g, " ")}${sep.includes("=") ? ": " : sep}`);
  s = s.replace(/(^|\n)([ \t-]*[A-Za-z][A-Za-z ]*?)\s+usdc?\s*:\s*\$?(?=\d)/gi, "$1$2: $");
  // Chat spelling: "b4" is before, "w/o" without, "askin" asking; "ping me before you send it" is "ping me first".
  s = s.replace(/\bw\/?\s+(?=(?:me|us|the owner)\b)/gi, "with ").replace(/\bb4\b/gi, "before").replace(/\bw\/o\b/gi, "without").replace(/\b(ask|check|ping|text|call)in\b/gi, "$1ing");
  s = s.replace(/\bbefore\s+(?:you|u|the agent|it)\s+(?:send|place|submit|execute|do|make|put in|fire off)s?\s+(?:it|them|that|this|the (?:order|bet|trade|payment))\b/gi, "first");
  // Chat spelling: "u can" is "you can".
  s = s.replace(/\bu\s+(?=(?:can|may|must|should|cannot|can't|are|will)\b)/gi, "you ");
  // "Prohibited: A; B; C." - every item of the list is prohibited, not only the first.
  s = s.replace(/\b(prohibited|forbidden|not allowed|not permitted|disallowed|banned)\s*:([^.\n]*)/gi, (_m, head: string, body: string) =>
    `${head}:${body.replace(/;\s*/g, `; ${head}: `)}`,
  );
  // "context.recipients only (wallet -> label)", "context.sellers (host name -> payout address)": the shape of the
  // list a path points at, not a rule. Only words for keys and values qualify, so "(max 5k)" or "(not bridged)" stay.
  s = s.replace(/(\bcontext\.[\w.]*\w(?:\s+only)?)\s*\(\s*(?:(?:host|domain|wallet|payee|payout|recipient|vendor|person|owner|desk|mod|token|mint)\s+)?(?:names?|labels?|wallets?|address(?:es)?|hosts?|hostnames?|pay-?to|payees?|amounts?|handles?|ids?)\s*(?:->|→|=>|:|to|maps?\s+to)\s*(?:(?:host|payout|wallet|payee|recipient|owner)\s+)?(?:names?|labels?|wallets?|address(?:es)?|hosts?|pay-?to|payees?|amounts?|handles?|ids?|salar(?:y|ies)|fees?)\s*\)/gi, "$1");
  // "ppl in context.former_mods dont get anything anymore": nobody on that list is paid.
  s = s.replace(/\b(?:ppl|people|persons?|folks|those|anyone|everyone|addresses|wallets|accounts|the\s+ones)\s+(?:listed\s+)?(?:in|on|from)\s+(context\.[\w.]*\w)\s+(?:don['’]?t|do\s+not|never|shouldn['’]?t|should\s+not|must\s+not|won['’]?t|can['’]?t|cannot)\s+get\s+(?:anything|paid|a\s+thing|any\s+(?:money|tips?|payments?|funds)|tips?|money)(?:\s+(?:anymore|any\s+more|again|at\s+all))?/gi, "never pay the addresses in $1");
  s = s.replace(/https?:\/\/([^\s/)"',;]+)[^\s)"',;]*/gi, (_m, host: string) => hold(refs.hosts, "h", host.toLowerCase()));
  s = s.replace(/\bcontext\.[A-Za-z_][\w.]*[A-Za-z0-9_]/g, (m) => hold(refs.ctx, "c", m));
  // Quoted names: an opening quote after a boundary, a closing quote before one. Apostrophes inside words stay.
  s = s.replace(/(^|[\s(:,])(['"])([^'"\n]{2,200}?)\2(?=[\s).,;:!?]|$)/g, (_m, pre: string, _q: string, body: string) =>
    pre + hold(refs.quotes, "q", body.trim()),
  );
  s = s.replace(/\b0x[0-9a-fA-F]{6,64}\b/g, (m) => hold(refs.addresses, "a", m));
  s = applyDefinitions(s, refs.quotes);
  s = s.replace(BASE58_RE, (m) => (/\d/.test(m) && /[a-z]/.test(m) && /[A-Z]/.test(m) ? hold(refs.addresses, "a", m) : m));
  s = s.replace(HOST_RE, (m) => (/^\d+(\.\d+)*$/.test(m) ? m : hold(refs.hosts, "h", m.toLowerCase())));
  s = unitFirst(normaliseNumbers(spokenForms(s)));
  s = s.replace(/\b(e\.g|i\.e|etc|vs|approx|incl)\./gi, (m) => m.slice(0, -1).replace(/\./g, ""));
  // "(Finance, rev. 3)", "sec. 4", "art. 2": an abbreviation before a number does not end the sentence.
  s = s.replace(/\b(rev|ver|sec|art|para|no|nr)\.\s*(?=\d)/gi, "$1 ");
  s = s.replace(/\bper-(?=[a-z])/gi, "per ");
  // "on the Safe's behalf" -> "on behalf of the Safe", so the role reader sees one phrasing.
  s = s.replace(/\bon\s+((?:the|our|my)\s+)?([A-Za-z][\w-]*)['’]s\s+behalf\b/gi, (_m, det: string | undefined, name: string) => `on behalf of ${det ?? ""}${name}`);
  // "Leave ETH and STRK alone" is a prohibition: "never touch ETH and STRK".
  s = s.replace(/\bleave\s+([^.;:!?]{1,80}?)\s+(?:alone|untouched|as (?:it is|they are))\b/gi, (_m, what: string) => `never touch ${what}`);
  // "no transfers of any kind": the qualifier only stresses the prohibition.
  s = s.replace(/,?\s+of\s+any\s+(?:kind|sort|type|description)\b|,?\s+whatsoever\b|,?\s+(?:under|in)\s+(?:any|no)\s+circumstances?\b/gi, "");
  // "rebalance as needed", "top up when necessary": the agent's discretion, not a condition.
  s = s.replace(/,?\s+(?:as|when|whenever|if)\s+(?:needed|necessary|appropriate)\b(?=\s*(?:[.,;!\n)]|$))/gi, "");
  // "The agent has no authority to withdraw", "is not authorised to": it may not.
  s = s.replace(/\b(?:has|have|holds?|gets?|is given|are given)\s+no\s+(?:authority|permission|right|mandate|power|license|licence)\s+to\b|\b(?:is|are)\s+not\s+(?:authori[sz]ed|permitted|allowed|entitled|empowered)\s+to\b|\blacks?\s+(?:the\s+)?(?:authority|permission|right)\s+to\b/gi, "may not");
  // Chat interjections carry no rule: "never send money anywhere lol", "tbh just BTC".
  s = s.replace(/[ \t]*\b(?:lol|lmao|rofl|haha+|hehe+|tbh|imo|imho|ngl|btw|obv|obvs|pls|plz|thx)\b/gi, "");
  // "no token approvals, zero exceptions", "never, no matter what": emphasis, not a second rule.
  s = s.replace(/[,;:(\s-]+\s*(?:(?:zero|no)\s+exceptions?|without\s+(?:any\s+)?exceptions?|no\s+matter\s+what|no\s+ifs(?:,)?\s+(?:and|or)\s+buts|full\s+stop|period)\s*\)?(?=\s*(?:[.;!\n]|$))/gi, "");
  // "Flag anything over $10k for review" asks for a human above the figure: "anything over $10k needs review".
  s = s.replace(/\bflag\s+([^.;:!?]{1,60}?)\s+for\s+(?:(?:a\s+)?human\s+)?(review|approval|sign[- ]?off)\b/gi, (_m, what: string, why: string) => `${what} needs ${why}`);
  // "ETH-USD perp", "BTC-PERP": the market of one asset.
  s = s.replace(/\b([A-Z][A-Z0-9]{1,9})-(?:USD|PERP)\b/g, "$1 perp");
  // "Any transfer outside (a) or (b) requires a vote": a reference to enumerated permissions, not an enumerator.
  s = s.replace(/\b(outside(?:\s+of)?|not\s+covered\s+by|other\s+than|beyond)\s+\((?:[a-h]|[1-9]|i{1,3}|iv)\)(?:\s*(?:,|or|and|and\/or)\s*\((?:[a-h]|[1-9]|i{1,3}|iv)\))*/gi, "$1 the permissions above");
  // "(1) BTC only (2) $1k max": an enumerator in the middle of a run-on list starts a new rule.
  s = s.replace(/([A-Za-z0-9%$])\s+\(([a-h]|[1-9]|i{1,3}|iv)\)\s/g, "$1; ");
  // "(a)", "(b)", "1)" enumerators carry no meaning.
  s = s.replace(/(^|[\s:;,])\(?([a-h]|[1-9]|i{1,3}|iv)\)\s/g, "$1 ");
  return s;
}

export function restore(text: string, refs: Refs): string {
  return text
    .replace(PH_RE, (_m, k: string, i: string) => {
      const n = Number(i);
      if (k === "a") return refs.addresses[n] ?? "";
      if (k === "q") return `'${refs.quotes[n] ?? ""}'`;
      if (k === "h") return refs.hosts[n] ?? "";
      if (k === "n") return refs.numbers[n] ?? "";
      return refs.ctx[n] ?? "";
    })
    .replace(/\s+/g, " ")
    .replace(/\s([,.;:)])/g, "$1")
    .replace(/\(\s/g, "(")
    .trim();
}

/** Split protected text into sentences (., !, ?, ;, new lines, bullets). */
export function splitSentences(s: string): string[] {
  return s
    .split(/(?<=[.!?])\s+|\n+|;\s*|\s+[•·]\s+/)
    .map((x) => x.replace(/^[\s\-*•·]+/, "").replace(/[.!?\s]+$/, "").trim())
    .filter((x) => x.length > 0);
}

const NEG_START =
  "(?:never|do not|don't|dont|does not|doesn't|must not|must never|mustn't|cannot|can't|should not|should never|shouldn't|may not|may never|will never|no|not|nothing|avoid)";
const VERB_START =
  "(?:withdraw|supply|swap|send|pay|trade|buy|sell|delegate|stake|unstake|wrap|unwrap|add|remove|bridge|borrow|repay|lend|deposit|transfer|move|approve|close|open|place|bet|short|long|cancel|set|change|use)";

/**
 * Split a sentence into clauses at "but", dashes, and conjunctions that start a new prohibition or permission. The two
 * sides named together ("long and short", "buying and selling") are one permission, not two clauses.
 */
const CLAUSE_RE = new RegExp(
  `\\s+-\\s+|,?(?<!\\b(?:anyone|anybody|anything|anywhere|nobody|nothing|none|one|address(?:es)?|wallets?|recipients?|accounts?))\\s+but\\s+|,?\\s+however,?\\s+|,\\s+(?=(?:and\\s+)?${NEG_START}\\b)|\\s+and\\s+(?=${NEG_START}\\b)|,?(?<!\\b(?:longs?|shorts?|buy(?:s|ing)?|sell(?:s|ing)?))\\s+and\\s+(?=(?:also\\s+)?${VERB_START}\\b)|,\\s+(?=(?:and\\s+)?(?:only|you may|you can|the agent may)\\b)|,?\\s+(?:provided(?:\\s+that)?|as long as|so long as|on condition that)\\s+(?!(?:they|it)(?:['’]re|['’]s|\\s+are|\\s+is)\\s+(?:set\\s+)?reduce)|,\\s+(?=(?:I|we)(?:['’]ll|\\s+will|['’]m|\\s+am|['’]d)\\b)|,?\\s+(?=(?:so\\s+that|so\\s+as\\s+to|in\\s+order\\s+(?:to|that))\\b)|,\\s+and\\s+that\\s+(?=\\w)`,
  "i",
);

export function splitClauses(sentence: string): string[] {
  return sentence
    .split(CLAUSE_RE)
    .map((x) => x.trim().replace(/^,\s*/, ""))
    .filter((x) => x.length > 0);
}

export function makeClause(text: string, sentence: string, refs: Refs): Clause {
  return { text, sentence, used: new Array<boolean>(text.length).fill(false), refs };
}

/** Is any character of [start, end) consumed already? */
export function isUsed(c: Clause, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (c.used[i]) return true;
  return false;
}

export function consume(c: Clause, start: number, end: number): void {
  for (let i = start; i < end && i < c.used.length; i++) c.used[i] = true;
}

/**
 * Run a global regex over the clause; for each match not overlapping consumed text, call fn. When fn returns
 * anything but false, the match is consumed.
 */
const COMPILED = new WeakMap<RegExp, RegExp>();

/** A global copy of a regex, made once per regex object (recognisers run on every request). */
export function globalRe(re: RegExp): RegExp {
  if (re.global || re.sticky) {
    re.lastIndex = 0;
    return re;
  }
  let g = COMPILED.get(re);
  if (!g) {
    g = new RegExp(re.source, `${re.flags}g`);
    COMPILED.set(re, g);
  }
  g.lastIndex = 0;
  return g;
}

export function scan(c: Clause, re: RegExp, fn: (m: RegExpExecArray) => boolean | void): void {
  const g = globalRe(re);
  let m: RegExpExecArray | null;
  while ((m = g.exec(c.text)) !== null) {
    if (m[0].length === 0) {
      g.lastIndex++;
      continue;
    }
    if (isUsed(c, m.index, m.index + m[0].length)) continue;
    if (fn(m) !== false) consume(c, m.index, m.index + m[0].length);
  }
}

/** The text of the clause that no recogniser consumed, as words (placeholders kept). */
export function leftoverWords(c: Clause): string[] {
  let out = "";
  for (let i = 0; i < c.text.length; i++) out += c.used[i] ? " " : c.text[i];
  return out.match(/§[aqhcn]\d+|[$]?[A-Za-z0-9][A-Za-z0-9'’._/-]*%?/g) ?? [];
}

/** Leftover words that are not filler: what the parser did not understand. */
export function unexplained(c: Clause): string[] {
  return leftoverWords(c).filter((w) => {
    const lw = w.toLowerCase().replace(/['’]s$/, "").replace(/[.]+$/, "");
    if (FILLER.has(lw)) return false;
    if (/^(?:[a-z]\/)+[a-z]$/.test(lw)) return !lw.split("/").every((p) => FILLER.has(p));
    return true;
  });
}

/** Parse "2,000", "2k", "1.5m" into a number. */
export function parseNumber(num: string, suffix?: string | null): number | null {
  const n = Number(num.replace(/,/g, ""));
  if (!Number.isFinite(n)) return null;
  const s = (suffix ?? "").toLowerCase();
  if (s === "k" || s === "thousand") return n * 1e3;
  if (s === "m" || s === "mm" || s === "million") return n * 1e6;
  if (s === "b" || s === "bn" || s === "billion") return n * 1e9;
  return n;
}

/** Format a USD figure the way a person writes it: $2,430 or $0.25. */
// Intl formatters are costly to build; build them once.
const USD0 = new Intl.NumberFormat("en-US", { minimumFractionDigits: 0, maximumFractionDigits: 0 });
const USD2 = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const QTY = new Intl.NumberFormat("en-US", { maximumFractionDigits: 8 });

export function usd(n: number): string {
  const abs = Math.abs(n);
  return `${n < 0 ? "-" : ""}$${(abs >= 100 ? USD0 : USD2).format(abs)}`;
}

/** Format a token quantity: 2,500 STRK, 0.05 BTC. */
export function qty(n: number, unit: string): string {
  if (unit === "USD") return usd(n);
  return `${QTY.format(n)} ${unit}`;
}

export const lc = (s: string | null | undefined): string => (s ?? "").toLowerCase();
