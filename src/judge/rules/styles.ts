/**
 * Owners' document styles, rewritten to the plain phrasing the recognisers read, before anything is protected:
 * section headings of a policy, `snake_case` config keys, a definition of notional, a speaker's "until 5000 USDC".
 * Every rewrite keeps what limits something: a heading's title that could carry a rule stays as its own sentence,
 * and nothing here removes a negation, a figure or a list.
 */

/** A title word that could itself be a rule ("Section 5 (No withdrawals)"): such a title is kept. */
const TITLE_RULE = /\b(?:no|not|never|only|except|max|min|limit|cap|must|may|shall|forbid\w*|prohibit\w*|ban\w*|allow\w*|permit\w*)\b|\d|\$|%/i;

/**
 * "Section 2. The Agent may ...", "Article 4 (Leverage): ...", "§3 -": a heading that numbers the rule. Its number
 * is not a quantity; a plain title ("(Scope)") names the section and is dropped with it.
 */
function headings(s: string): string {
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
  // "notional value ..., computed as size multiplied by limit price,": the definition the engine already uses.
  s = s.replace(/,?\s*(?:computed|calculated|measured|defined|taken)\s+as\s+(?:the\s+)?(?:order\s+)?size\s+(?:multiplied\s+by|times|x|×)\s+(?:the\s+)?(?:limit|order)\s+price\s*,?/gi, " ");
  // "Leverage on any asset shall not exceed 6x": the scope is every asset, as a bare "leverage" is.
  s = s.replace(/\bleverage\s+(?:on|for|across|in)\s+(?:any|each|every|all)\s+(?:assets?|markets?|positions?|perps?|coins?)\b/gi, "leverage");
  // "there it can send until 5 thousand USDC": a speaker's "until" before an amount is "up to".
  s = s.replace(/\buntil\s+(?=\$\s?\d|\d[\d,.]*\s*(?:k|m|thousand|million)?\s*(?:\$|usd\b|usdc\b|usdt\b|dollars?\b|(?!(?:AM|PM|UTC|GMT|CET|EST|PST)\b)[A-Z]{2,6}\b))/g, "up to ");
  // "don't mess w leverage, leave it where it is": leave the setting alone.
  s = s.replace(/\bmess\s+(?:around\s+)?(?:w|with|w\/)\s+/gi, "touch ");
  s = s.replace(/(\btouch\s+(?:the\s+)?leverage)\s*,?\s*(?:and\s+|just\s+)?leave\s+it\s+(?:where|as|how)\s+it\s+is\b/gi, "$1");
  return s;
}
