/**
 * What opens or frames an intent rather than limiting it: an account's label before a colon ("Payroll bot: ..."),
 * a preamble ("Hi, here are the rules"), a title line, a background paragraph. Each is recognised by form, and none
 * is taken when it carries a word that could state a rule (the *_DANGER patterns), so a label that says what the
 * account is *only* for stays a rule.
 */
import { CHAINS, ROLE_NOUNS, VENUES } from "../vocab";
import { asSymbol } from "./state";

const LABEL_DANGER =
  /\b(?:never|not|no|none|nothing|only|just|solely|exclusively|purely|except|unless|max|maximum|min|minimum|limit|limits|cap|caps|budget|if|when|while|until|after|before|above|below|under|over|must|may|can|cannot|should|don't|do|allowed|permitted|forbidden|prohibited|banned|disallowed|avoid|blocked|denied|restricted|required|requires?|up to|at most|per|trades|buys|sells|sends|pays|swaps|withdraws|transfers|borrows|bridges|approves?|stakes|delegates|moves|rules?|approvals?|withdrawals?|transfers?|swaps?|orders?|trades?|leverage|slippage|recipients?|hosts?|domains?|assets?|tokens?|markets?|fees?|spend(?:ing)?|exposure|positions?)\b|\$|%|(?<![\w§])\d/i;

/** Placeholders and a chain id in parentheses ("(chain 8453)") carry no rule words. */
const labelText = (t: string): string =>
  t
    .replace(/§[a-z]\d+/g, " ")
    // Config keys join words with underscores ("max_order_usd:"): each word still counts.
    .replace(/_/g, " ")
    .replace(/\(\s*(?:chain\s?id|chain|eip155)\s*[:=]?\s*\d{1,7}\s*\)/gi, " ")
    // A document id ("Policy AAVE-03", "MEMO RC-2026-14") is a name, not a quantity.
    .replace(/\b[A-Za-z]{2,}(?:-\d+)+\b/g, " ")
    // "x402 spend policy", "spending policy": the title of a policy, not a spending rule.
    .replace(/\bspend(?:ing)?\s+(?=(?:policy|rules|mandate)\b)/gi, " ");

/**
 * Preamble: a memo header ("MEMO - Risk & Compliance", "Re: mandate for ...", "Policy AAVE-03 (Treasury Ops)"), a
 * greeting or a description of the agent or owner ("this bot rebalances our treasury on base", "Its purpose is to
 * ...", "I'm a hobbyist"), or a bare venue name ("hl."). It is read as a label (its venue and chain narrow the scope)
 * only when it carries no rule word at all (LABEL_DANGER: negations, only/except, conditions, modals, quantities),
 * names no token and holds no address.
 */
const PREAMBLE_START =
  /^(?:(?:memo(?:randum)?|re|subject|fyi|attn|from)\b\s*[:-]?|policy\s+[A-Za-z]{2,}(?:-\d+)+\b|(?:(?:hello|hi|hey|dear\s+\w+)\b[\s,!]*)?(?:so\s+|ok\s+|okay\s+)?(?:(?:this|the|our|my)\s+(?:[\w-]+\s+){0,3}(?:agent|bot|assistant|helper|service|keeper|system)\s+(?:is|acts|works|runs|helps|handles|manages|rebalances|looks after)\b|(?:its|the)\s+(?:purpose|job|role|goal|task|mission)\s+is\b|(?:i'm|i am|we're|we are)\s+(?:a|an|the)\b))/i;

/**
 * A document's title on its own line: "Resolution 14 of the Oracle Guild DAO", "API Spend Policy (Finance, rev 3)",
 * "Directive no. 7 (Treasury Ops)". Capitalised name words, a document noun, an optional number, an optional
 * "of the <Name>" and an optional parenthesis naming a team and a revision: nothing in it can limit.
 */
const TITLE_LINE =
  /^\s*(?:[A-Z][\w&'’-]*\s+){0,5}(?:[Rr]esolution|[Pp]roposal|[Mm]otion|[Dd]irective|[Cc]ircular|[Cc]harter|[Pp]olicy|[Mm]andate|[Mm]emo|[Ss]tandard|[Pp]rocedure)(?:\s+(?:[Nn]o\.?\s*|#)?[A-Z]{0,5}-?\d+(?:[.-]\d+)*)?(?:\s+(?:of|from|by)\s+(?:the\s+)?(?:[A-Z][\w&'’-]*\s*){1,5})?\s*(?:\(\s*[A-Z][\w&'’ -]*(?:,\s*(?:rev(?:ision)?|ver(?:sion)?|v)\.?\s*\d+(?:\.\d+)*)?\s*\))?\s*$/;
const TITLE_DANGER = /\b(?:no|not|never|only|except|unless|max|min|limit|limits|cap|budget|above|below|under|over)\b/i;

export function isPreamble(s: string): boolean {
  if (TITLE_LINE.test(s) && !TITLE_DANGER.test(s.replace(/\b[Nn]o\.?\s*(?=\d)/g, "")) && !/§[aqhcn]\d/.test(s)) return true;
  const text = labelText(s);
  if (/§a\d/.test(s) || LABEL_DANGER.test(text)) return false;
  const words = text.match(/[A-Za-z][\w'-]*/g) ?? [];
  if (words.some((w) => asSymbol(w) !== null && !(w.toLowerCase() in VENUES))) return false;
  if (words.length > 0 && words.length <= 3 && words.every((w) => w.toLowerCase() in VENUES || w.toLowerCase() in CHAINS)) return true;
  return PREAMBLE_START.test(s.trim());
}

/**
 * Background and titles: "Background: our team runs three books and rotates keys monthly", "Resolution 14 of the
 * Lantern DAO, passed by on-chain vote". They describe the owner or name the rules, so they are descriptive and never
 * a label (a background's nouns, "API keys", grant nothing); only when no word in them could limit or permit.
 */
const BACKGROUND_START = /^\s*(?:background|for context|some context|context|fyi|about us|about this account)\s*[:,-]\s*/i;
const DOC_TITLE =
  /^\s*(?:resolution|proposal|motion|directive|decision|ordinance|bylaw)\s+(?:no\.?\s*|#)?\d+[\w-]*(?:\s+(?:of|from|by)\s+(?:the\s+)?[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3})?\s*,?\s*(?:(?:passed|adopted|ratified|approved|enacted)\s+(?:by|on|via|through|in)\s+[\w\s-]{1,40})?$/i;
const DESCRIBES_ONLY_DANGER =
  /\b(?:never|not|no|none|nothing|nobody|only|except|unless|max|maximum|min|minimum|limit|limits|cap|caps|budget|must|may|can|cannot|should|shall|allowed|permitted|forbidden|prohibited|banned|required|requires?|up to|at most|at least|per|above|below|under|over|approve|send|withdraw|transfer|trade|stake|delegate|pay|swap|bridge|borrow)\b|n['’]t\b|\$|%|§[aqh]\d/i;

export function isBackground(s: string): boolean {
  if (BACKGROUND_START.test(s)) return !DESCRIBES_ONLY_DANGER.test(s.replace(BACKGROUND_START, ""));
  return DOC_TITLE.test(s) && !DESCRIBES_ONLY_DANGER.test(s.replace(/\b(?:passed|adopted|ratified|approved|enacted)\s+(?:by|on|via|through|in)\b/i, " "));
}

export function labelPrefixEnd(text: string): number {
  // "eip155:8453" is a chain id, not the colon of a label.
  const colon = text.search(/:(?!\d)/);
  if (colon > 0 && colon < 120) {
    const prefix = text.slice(0, colon);
    if (!LABEL_DANGER.test(labelText(prefix)) && prefix.trim().split(/\s+/).length <= 12) return colon + 1;
    // "Resolution 14 of the Lumen sub-DAO: ...": a document's title before the colon names the rules.
    if (DOC_TITLE.test(prefix) && !DESCRIBES_ONLY_DANGER.test(prefix)) return colon + 1;
  }
  {
    const words = labelText(text).trim().split(/\s+/).map((w) => w.replace(/[^\w-]+$/, ""));
    // "Output goes back to this wallet": a sentence that sends something somewhere is a rule, not a name.
    const sendsTo = /\b(?:goes|go|going|flows?|sent|paid|returned|delivered|credited|comes|come|back)\s+(?:\w+\s+)?(?:to|into)\b/i.test(labelText(text));
    if (words.length <= 8 && words.some((w) => ROLE_NOUNS.has(w.toLowerCase())) && !sendsTo && !LABEL_DANGER.test(labelText(text))) return text.length;
  }
  return -1;
}

/**
 * "sol hot wallet rules (kev):", "ETH ops account policy:": a title line naming the wallet the rules below are for.
 * A token or chain written before "wallet" / "account" says which wallet it is (the Solana hot wallet), not which
 * assets it may touch, so the line is read as a label (chains and venues only), never as an asset list. Only a line
 * that ends at its colon, names a place that holds money and a rules word, and carries no limit word or figure.
 */
const TITLE_PLACE = /\b(?:wallet|account|acct|treasury|safe|multisig|sub-?account)\b/i;
const TITLE_WORD = /\b(?:rules?|polic(?:y|ies)|limits|config|settings|setup|guidelines|mandate)\b/i;
export function isWalletTitle(s: string): boolean {
  const m = /^\s*([^:\n]{1,80}):\s*$/.exec(s);
  if (!m) return false;
  const head = m[1].replace(/\([^()]{0,30}\)/g, " ");
  const danger = LABEL_DANGER.test(labelText(head).replace(/\brules?\b/gi, " "));
  return !danger && TITLE_PLACE.test(head) && TITLE_WORD.test(head) && head.trim().split(/\s+/).length <= 8;
}
