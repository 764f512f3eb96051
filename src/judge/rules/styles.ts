/**
 * Owners' document styles, rewritten to the plain phrasing the recognisers read, before anything is protected:
 * section headings of a policy, `snake_case` config keys, a definition of notional, a speaker's "until 5000 USDC".
 * Every rewrite keeps what limits something: a heading's title that could carry a rule stays as its own sentence,
 * and nothing here removes a negation, a figure or a list.
 */
import { reservedForFees } from "./activity-words";

/** A title word that could itself be a rule ("Section 5 (No withdrawals)"): such a title is kept. */
const TITLE_RULE = /\b(?:no|not|never|only|except|max|min|limit|cap|must|may|shall|forbid\w*|prohibit\w*|ban\w*|allow\w*|permit\w*)\b|\d|\$|%/i;

/**
 * "Section 2. The Agent may ...", "Article 4 (Leverage): ...", "§3 -": a heading that numbers the rule. Its number
 * is not a quantity; a plain title ("(Scope)") names the section and is dropped with it.
 */
function headings(s: string): string {
  // "§1 The agent may ...": a section sign and number before a capital need no punctuation to be a heading.
  s = s.replace(/(^|\n|[.;!?][ \t]+)[ \t]*§[ \t]*\d{1,3}(?:\.\d{1,3})*[a-z]?[ \t]+(?=[A-Z])/g, "$1");
  return s.replace(
    /(^|\n)[ \t]*(?:section|article|clause|part|rule|item|paragraph|§)\s*\d{1,3}(?:\.\d{1,3})*[a-z]?\s*(?:\(([^()\n]{1,40})\))?\s*(?:[.:)-]\s*|(?=\n)|$)/gi,
    (_m, start: string, title: string | undefined) => (title && TITLE_RULE.test(title) ? `${start}${title}. ` : start),
  );
}

/** A config line that only names the bot ("agent: hl-scalper-02", "strategy_id: mm-7"): a label. */
const NAME_LINE = /(^|\n)[ \t]*(?:agent|bot|name|id|label|strategy|desk|book)(?:[_ ](?:name|id))?[ \t]*[:=][ \t]*[A-Za-z0-9][\w.-]*[ \t]*(?=\n|$)/gi;

/**
 * `snake_case` keys of a config line ("max_order_notional_usd: 2k", "max_leverage: 10", "reduce_only_exits:
 * required") read as words; a key's `_usd` unit goes onto its figure, a bare leverage figure gets its "x".
 */
function configKeys(s: string): string {
  return s
    .replace(/(^|\n)([ \t]*)([a-z][a-z0-9]*(?:_[a-z0-9]+)+)([ \t]*[:=][ \t]*)([^\n]*)/gi, (_m, start: string, ind: string, key: string, sep: string, value: string) => {
      let k = key.toLowerCase();
      let v = value;
      if (/_usd$/.test(k) && /^\$?\d/.test(v.trim())) {
        k = k.replace(/_usd$/, "");
        v = v.replace(/^(\s*)\$?(?=\d)/, "$1$");
      }
      if (/(?:^|_)leverage$/.test(k)) v = v.replace(/^(\s*\d+(?:\.\d+)?)(?![\d.x])/i, "$1x");
      if (/^reduce_only_(?:exits|closes|closing_orders)$/.test(k) && /^\s*(?:required|yes|true|always|mandatory)\b/i.test(v))
        return `${start}${ind}exits must be reduce-only${v.replace(/^\s*\w+/, "")}`;
      return `${start}${ind}${k.replace(/_/g, " ")}${sep}${v}`;
    });
}

export function normaliseOwnerStyles(raw: string): string {
  let s = headings(raw);
  s = s.replace(NAME_LINE, (m: string, start: string) => (TITLE_RULE.test(m.replace(/^[^:=]*[:=]/, "").replace(/\d+/g, " ").replace(/[-_.]/g, " ")) ? m : start));
  s = configKeys(s);
  // "The SOL in the wallet is only for pay the fees": the asset is kept for fees (activity-words.ts).
  s = reservedForFees(s);
  // "only to the people of the list in the context (freelancers)": a list's key in brackets is its context path.
  s = s.replace(/\b((?:list|addresses|people|recipients|payees|wallets)\s+in)\s+(?:the\s+)?context\s*\(\s*([A-Za-z_]\w*)\s*\)/g, "$1 context.$2");
  // "notional value ..., computed as size multiplied by limit price,": the definition the engine already uses.
  s = s.replace(/,?\s*(?:computed|calculated|measured|defined|taken)\s+as\s+(?:the\s+)?(?:order\s+)?size\s+(?:multiplied\s+by|times|x|×)\s+(?:the\s+)?(?:limit|order)\s+price\s*,?/gi, " ");
  // "Leverage on any asset shall not exceed 6x": the scope is every asset, as a bare "leverage" is.
  s = s.replace(/\bleverage\s+(?:on|for|across|in)\s+(?:any|each|every|all)\s+(?:assets?|markets?|positions?|perps?|coins?)\b/gi, "leverage");
  // "there it can send until 5 thousand USDC": a speaker's "until" before an amount is "up to".
  s = s.replace(/\buntil\s+(?=\$\s?\d|\d[\d,.]*\s*(?:k|m|thousand|million)?\s*(?:\$|usd\b|usdc\b|usdt\b|dollars?\b|(?!(?:AM|PM|UTC|GMT|CET|EST|PST)\b)[A-Z]{2,6}\b))/g, "up to ");
  // "don't mess w leverage, leave it where it is": leave the setting alone.
  s = s.replace(/\bmess\s+(?:around\s+)?(?:w|with|w\/)\s+/gi, "touch ");
  s = s.replace(/(\btouch\s+(?:the\s+)?leverage)\s*,?\s*(?:and\s+|just\s+)?leave\s+it\s+(?:where|as|how)\s+it\s+is\b/gi, "$1");
  return chatAndDesk(s);
}

/**
 * Chat and trading-desk phrasings of rules the recognisers know: "acct", "if ur closing stuff make sure its reduce
 * only", "may only sell ETH (opening or adding to shorts)", "buy back with reduce-only orders", "Orders of $100k or
 * more are never allowed", and a sentence that states what the account is for ("Short ETH positions are the point
 * of this account:") in front of the rule that says it.
 */
function chatAndDesk(raw: string): string {
  let s = raw.replace(/\bacct(s?)\b/gi, "account$1");
  // "my hl account", "the HL bot", "on hl": Hyperliquid (a bare "hl" elsewhere is read only in a label).
  s = s.replace(/\bhl(?=\s+(?:accounts?|perps?|bots?|sub-?accounts?|vaults?|positions?)\b)|(?<=\b(?:on|at|via)\s+)hl\b(?!-)/gi, "hyperliquid");
  s = s.replace(
    /\bif\s+(?:you(?:['’]re|\s+are)?|ur|u\s+r|u['’]re|it['’]s|its|it\s+is)\s+(?:closing|exiting|reducing|trimming)(?:\s+(?:stuff|anything|something|positions?|a\s+position|out|trades?))?\s*,?\s+(?:make\s+sure|ensure|be\s+sure|check)\s+(?:that\s+)?(?:its|it['’]s|it\s+is|they['’]re|theyre|they\s+are|it|they)\s+(?:set\s+|marked\s+|flagged\s+)?reduce[- ]only\b/gi,
    "exits must be reduce-only",
  );
  // "... reduce-only so it can't flip me short": what the flag is for, not another rule.
  s = s.replace(/(reduce-only)\s*,?\s*so\s+(?:that\s+)?(?:it|they)\s+(?:can['’]?t|cannot|won['’]?t|doesn['’]?t|never)\s+(?:flip|turn)\s+(?:me|us|the\s+position|it|them)\s+(?:short|long)\b/gi, "$1");
  // "only sell ETH (opening or adding to shorts)": the gloss says the sells open shorts, so the side is short.
  s = s.replace(/\bonly\s+sell\s+([A-Za-z0-9]{2,10})\s*\(\s*(?:to\s+)?(?:open(?:ing)?|add(?:ing)?\s+to|open(?:ing)?\s+or\s+add(?:ing)?\s+to)\s+(?:a\s+)?shorts?(?:\s+positions?)?\s*\)/gi, "only go short $1");
  s = s.replace(/\bonly\s+buy\s+([A-Za-z0-9]{2,10})\s*\(\s*(?:to\s+)?(?:open(?:ing)?|add(?:ing)?\s+to|open(?:ing)?\s+or\s+add(?:ing)?\s+to)\s+(?:a\s+)?longs?(?:\s+positions?)?\s*\)/gi, "only go long $1");
  // "buy back with reduce-only orders": every buy is reduce-only.
  s = s.replace(/\b(buy|sell)(?:\s+(?:back|to\s+close|to\s+cover|out))?\s+(?:only\s+)?(?:with|using|via|through)\s+reduce[- ]only(?:\s+orders?)?\b/gi, (_m, side: string) => `${side.toLowerCase()}s must be reduce-only`);
  // "Orders of $100k or more are never allowed": every order stays under the figure.
  s = s.replace(
    /\b(orders?|trades?|positions?|entries|sends?|transfers?|withdrawals?|payments?)\s+(?:of|worth|sized?\s+at|at)\s+(\$\s?[\d.,]+\s*[kKmM]?|[\d.,]+\s*(?:[kKmM]\b|(?:[kKmM]\s*)?(?:USDC|USD|dollars)))\s+or\s+(?:more|above|larger|bigger|higher)\s+(?:are|is)\s+(?:never|not)\s+(?:allowed|permitted|ok|okay|fine)\b/gi,
    (_m, what: string, amount: string) => `${what} must be under ${amount}`,
  );
  // "Undelegation requires a new vote and is therefore not permitted to the agent": the consequence is the rule.
  s = s.replace(/\b(?:requires|needs)\s+(?:a\s+)?(?:new\s+|separate\s+|fresh\s+|another\s+)?(?:dao\s+|governance\s+|on-chain\s+|board\s+)?(?:vote|resolution|proposal)\s+and\s+(?:is\s+|are\s+)?(?:therefore|thus|so|hence)\s+(?=not\s+(?:permitted|allowed)|forbidden|prohibited)/gi, "is ");
  // "HYPE shall never leave the treasury's accounts": no send or withdrawal of it.
  s = s.replace(/\b([A-Z][A-Z0-9]{1,9})\s+(?:shall|must|may|will|should)\s+never\s+leave\s+(?:the\s+)?(?:treasury['’]s|treasury|our|its|the\s+owner['’]s|my)\s+(?:own\s+)?(?:accounts?|wallets?|custody)\b/g, "never send or withdraw $1");
  // "anything above 10k needs a human though": a human's approval above the figure.
  s = s.replace(/\b(needs?|requires?)\s+(?:a\s+)?(?:human|person|manual\s+check)(?:\s+(?:though|tho|anyway|first))?(?=\s*(?:$|[,.;)\n]))/gi, "$1 human approval");
  // "..., except the key in context.x, and it must never approve builder fees": a new prohibition, not part of the exception.
  s = s.replace(/,\s+and\s+((?:it|the\s+agent|the\s+bot|you|they)\s+(?:must|may|shall|should|can|will)\s+(?:never|not)\b)/gi, "; $1");
  // "Buy orders are only allowed when they are reduce-only (to close the short)": buys must be reduce-only.
  s = s.replace(/\b(buy|sell)\s+orders?\s+(?:are|is)\s+only\s+(?:allowed|permitted|ok|okay|fine)\s+(?:when|if)\s+(?:they\s+are|they['’]re|it\s+is|it['’]s|marked|flagged)\s+(?:marked\s+|flagged\s+)?reduce[- ]only(?:\s*\(\s*(?:to|in order to|so as to)\s+(?:close|cover|reduce|trim|exit)\s+(?:the|a|our|an?\s+existing)?\s*(?:short|long|position)s?\s*\))?/gi, (_m, side: string) => `${side.toLowerCase()}s must be reduce-only`);
  // "place and cancel orders": both verbs take the noun.
  s = s.replace(/\b(place|submit|post|send)\s+and\s+(cancel|modify|amend)\s+(orders?)\b/gi, "$1 $3 and $2 $3");
  // "Short ETH perp positions are the point of this account:": the purpose, restated by the rule after the colon.
  s = s.replace(/(^|[.\n]\s*)[^.:;\n]{3,80}?\s+(?:is|are)\s+the\s+(?:whole\s+)?(?:point|purpose|goal|aim)\s+of\s+(?:this|the|our|my)\s+(?:account|bot|agent|book|strategy)\s*:\s*/gi, (m: string, start: string) =>
    TITLE_RULE.test(m.replace(/\b(?:is|are)\s+the\b.*$/i, "")) ? m : start,
  );
  return s;
}
