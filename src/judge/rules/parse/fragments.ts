/**
 * Labels, identifiers and list fragments that name things instead of limiting them:
 *
 * - identifiers: a document or wallet code ("EW-12", "FIN-OPS-014", "HDW-2026/ops-4"), a revision ("rev 3", "v3"),
 *   a document's number ("Resolution 2026-07", "Resolution 14/2026"), a unit's number ("desk 2", "bot #4") and a
 *   date ("Feb 2026", "2026-02-17"). Their figures are not quantities and their capitals are not token symbols;
 * - a clause that is only a list number ("1", "2)") or only a title made of such words ("POLICY DOC FIN-OPS-014 rev 3",
 *   "Treasury Resolution 2026-07 (passed by token vote)");
 * - statements about the rules themselves ("never change these rules", "This resolution may be amended only by a
 *   further vote"): nothing an agent does through a wallet can breach them.
 *
 * Invariant: nothing here consumes a word that could limit (a negation, "only", a cap word, a figure with a unit, a
 * known token, a venue or a chain), so a heading such as "# max 5k per order" stays a rule, and an identifier that
 * is a known token ("USDC-2") is left to the token readers.
 */
import { scan, type Clause } from "../text";
import { CHAINS, KNOWN_TOKENS, VENUES } from "../vocab";

const MONTH = String.raw`(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)`;

/** Prefixes of standards, not documents: "ERC-20 transfers" names what is moved. */
const STANDARD = /^(?:ERC|EIP|BEP|SPL|TRC|BRC|CAIP|SLIP|BIP|SIP)$/;

/** Nouns a number may identify: "desk 2", "bot #4", "sub-account 3". */
const UNIT_WORDS = "desk team book pod squad unit bot vault fund strategy subaccount sub-account room office cohort tranche batch region node cluster floor wallet account agent keeper worker instance shard lane";
/** Either capitalisation of each noun ("Desk 2", "desk 2"); the identifier pattern is case-sensitive for codes. */
const UNIT_NOUN = `(?:${UNIT_WORDS.split(" ").map((w) => `[${w[0].toUpperCase()}${w[0]}]${w.slice(1)}`).join("|")})`;
/** Document nouns whose number names the document: "Resolution 14/2026", "Policy 7", "Ref 2026-113". */
const DOC_NOUN = String.raw`(?:[Rr]esolution|[Pp]roposal|[Mm]otion|[Dd]irective|[Dd]ecision|[Pp]olicy|[Mm]emo|[Cc]ircular|[Rr]ef(?:erence)?|[Tt]icket|[Dd]ocument|[Dd]oc|[Mm]andate|[Cc]harter|[Ss]tandard|[Pp]rocedure|[Ii]nstruction|[Oo]rder\s+of\s+the\s+[A-Z]\w+)`;

const IDENT_RE = new RegExp(
  [
    // codes: capitals, a dash, a digit, and further segments
    String.raw`\b([A-Z]{2,8})(?:-[A-Z]{2,8})*-\d[0-9A-Za-z]*(?:[-/][0-9A-Za-z]+)*\b`,
    // revisions; a bare "v3" only in parentheses or after a document noun ("Aave v3", "Uniswap v2 router" name a protocol)
    String.raw`\b(?:rev(?:ision)?|ver(?:sion)?)\s*\d{1,3}(?:\.\d{1,3})*\b|(?<=\(\s*|\b(?:[Mm]andate|[Pp]olicy|[Rr]ules|[Dd]oc|[Dd]ocument|[Mm]emo|[Cc]onfig|[Ss]pec)\s+)v\d{1,3}(?:\.\d{1,3})*\b(?!\s*(?:[x%$]|\d))`,
    // a document's number
    String.raw`(?<=\b${DOC_NOUN}\.?\s+(?:[Nn]o\.?\s*|#\s*)?)\d{1,4}(?:[-/.]\d{1,4}){0,2}\b(?![.,]?\d|\s*(?:[%$x]|k\b|m\b))`,
    // a unit's number (checked against what follows in isUnitNumber)
    String.raw`(?<=\b${UNIT_NOUN}\s+(?:[Nn]o\.?\s*|#\s*)?)#?\d{1,4}\b(?![.,]\d)`,
    // dates
    String.raw`\b(?:\d{1,2}(?:st|nd|rd|th)?\s+)?${MONTH}\.?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?(?:19|20)\d{2}\b|\b(?:19|20)\d{2}-\d{2}-\d{2}\b`,
  ].join("|"),
  "g",
);

/** Words after a unit's number that make it a quantity: "wallet 2 ETH", "bot 3 times", "desk 2%". */
const UNIT_AFTER = /^(?:usd|usdc|usdt|dollars?|bucks|percent|pct|bps|times|shares|contracts|coins?|tokens?|units?|lots?|orders?|trades?|payments?|transfers?|each|per|a)$/i;

function isIdentifier(m: RegExpExecArray, text: string): boolean {
  const code = m[1];
  if (code !== undefined) return !STANDARD.test(code) && !KNOWN_TOKENS.has(code.toLowerCase());
  const unit = /^#?\d/.test(m[0]) && new RegExp(`\\b${UNIT_NOUN}\\s+(?:[Nn]o\\.?\\s*|#\\s*)?$`).test(text.slice(0, m.index));
  if (!unit) return true;
  // "max per wallet 500": after "per"/"each" the noun is what a figure is counted by, and the figure is the cap.
  if (new RegExp(`\\b(?:per|each|every|a|an)\\s+${UNIT_NOUN}\\s+(?:[Nn]o\\.?\\s*|#\\s*)?$`).test(text.slice(0, m.index))) return false;
  // A unit's number is an identifier unless an amount's unit follows it ("wallet 2 ETH", "bot 3 times", "desk 2%").
  const after = text.slice(m.index + m[0].length);
  if (/^\s*(?:[%$x]|k\b|m\b|bn\b)/i.test(after)) return false;
  const next = /^\s+([A-Za-z][A-Za-z0-9]*)/.exec(after)?.[1];
  return !next || !(UNIT_AFTER.test(next) || KNOWN_TOKENS.has(next.toLowerCase()) || (next === next.toUpperCase() && next.length >= 2));
}

/** Consume the identifiers of a clause before any reader sees them. */
export function consumeIdentifiers(c: Clause): void {
  scan(c, IDENT_RE, (m) => isIdentifier(m, c.text));
}

/** The text with its identifiers blanked: what is left decides whether a clause that produced nothing limits. */
export function withoutIdentifiers(text: string): string {
  const re = new RegExp(IDENT_RE.source, "g");
  return text.replace(re, (...args) => {
    const m = args.slice(0, -2) as unknown as RegExpExecArray;
    m.index = args[args.length - 2] as number;
    return isIdentifier(m, text) ? " ".repeat(m[0].length) : m[0];
  });
}

const LIMIT_WORD =
  /\b(?:only|solely|exclusively|never|no|not|none|nothing|nobody|except|unless|without|max(?:imum)?|min(?:imum)?|at most|at least|up to|must|shall|should|may|can|cannot|limit(?:s|ed)?|cap(?:s|ped)?|budget|ceiling|allowed|permitted|forbidden|prohibited|banned|above|below|under|over|per|each|require[sd]?|needs?|if|when|until|after|before)\b|n['’]t\b|[$%]|§[aqhcn]\d/i;

/** Adoption phrases in a title: "(passed by token vote)", "adopted by the council". */
const ADOPTED = /\(?\s*(?:passed|adopted|ratified|approved|enacted|signed)\s+(?:by|on|via|through|at|in)\s+(?:(?:the|a|an|on-?chain|off-?chain|token|member|members['’]?|holder|council|board|dao|snapshot|multisig|majority|unanimous|simple|quorum)\s+){0,4}(?:vote|votes|council|board|dao|snapshot|multisig|members|holders|committee|governance)\s*\)?/gi;

/**
 * "§1 Network", "§4 Ceiling", "Section 2 Settlement asset": a numbered heading with a short title and nothing else.
 * Its title names the section's subject; a word that could itself be a rule (a negation, "only", a token, a venue, a
 * chain, a figure) keeps it with the readers ("§5 No withdrawals").
 */
const SECTION_HEADING = /^\s*(?:§\s*\d{1,3}(?:\.\d{1,3})*[a-z]?|(?:section|article|clause|part|item)\s+\d{1,3}(?:\.\d{1,3})*[a-z]?)\s*[.:)-]?\s*([A-Za-z][\w'’&\s-]{0,60})?\s*$/i;
const HEADING_DANGER = /\b(?:no|not|never|none|nothing|only|solely|exclusively|except|unless|without|forbidden|prohibited|banned)\b|n['’]t\b/i;
const isNamed = (w: string): boolean => {
  const lw = w.toLowerCase();
  return lw in VENUES || lw in CHAINS || KNOWN_TOKENS.has(lw);
};

const TITLE_WORDS = new Set(
  (
    "policy policies doc document memo memorandum resolution proposal motion directive circular charter mandate standard procedure " +
    "rules guidelines sop runbook playbook spec config terms instructions brief ref reference version rev revision no nr number id " +
    "of the for and by on in at to from a an"
  ).split(" "),
);

/**
 * A clause that is only a list number, or only a title: document nouns, capitalised names that are not tokens,
 * venues or chains, identifiers and an adoption phrase. Nothing in it can limit or permit.
 */
export function isLabelFragment(text: string): boolean {
  const t = withoutIdentifiers(text).replace(ADOPTED, " ");
  if (/^\s*\(?\d{1,2}[.)]?\s*$/.test(text)) return true;
  const section = SECTION_HEADING.exec(text);
  if (section) {
    const title = section[1] ?? "";
    const words = title.match(/[A-Za-z][\w'’&-]*/g) ?? [];
    return words.length <= 5 && !/\d|[$%]|§[aqhcn]\d/.test(title) && !HEADING_DANGER.test(title) && words.every((w) => !isNamed(w));
  }
  if (LIMIT_WORD.test(t) || /\d/.test(t)) return false;
  const words = t.match(/[A-Za-z][\w'’&-]*/g) ?? [];
  if (words.length === 0) return withoutIdentifiers(text).trim() !== text.trim();
  let docNoun = false;
  for (const w of words) {
    const lw = w.toLowerCase().replace(/['’]s$/, "");
    if (lw in VENUES || lw in CHAINS || KNOWN_TOKENS.has(lw)) return false;
    if (TITLE_WORDS.has(lw)) {
      if (!/^(?:of|the|for|and|by|on|in|at|to|from|a|an)$/.test(lw)) docNoun = true;
      continue;
    }
    // A name: capitalised or written in capitals.
    if (!/^[A-Z]/.test(w)) return false;
  }
  return docNoun;
}

/**
 * Statements about the rules themselves: "never change these rules", "This resolution may be amended only by a
 * further token vote", "these limits can only be changed by the board". Only when nothing else is in the clause.
 */
const ABOUT_RULES =
  /^\s*(?:and\s+)?(?:(?:please\s+)?(?:never|do not|don't|dont)\s+(?:change|amend|modify|edit|alter|override|rewrite|relax|update|ignore|delete|remove)\s+(?:these|this|the|our|my|any\s+of\s+(?:these|the))\s+(?:rules|mandate|policy|limits|instructions|resolution|document|charter|settings|standard)\b|(?:these|this|the|our)\s+(?:rules|mandate|policy|limits|instructions|resolution|document|charter|standard|procedure|memo)\s+(?:may|can|shall|will|must|are|is)?\s*(?:only\s+)?(?:be\s+)?(?:amended|changed|modified|updated|revoked|repealed|replaced|superseded|reviewed|revised)\b)/i;

/** "This instruction supersedes SI 9/2025", "These rules replace Policy 4 (rev 2)": which document they replace. */
const SUPERSEDES =
  /^\s*(?:(?:this|these|the\s+present)\s+(?:[\w-]+\s+){0,2}?(?:instructions?|rules|mandate|policy|resolution|document|charter|standard|memo|directive|schedule)\s+(?:hereby\s+)?(?:supersedes?|replaces?|revokes?|repeals?)\s+(?:the\s+|all\s+|any\s+)?(?:(?:previous|prior|earlier|old|existing)\s+)?(?:[A-Za-z]{1,12}\.?\s*){0,3}(?:(?:no\.?\s*|#\s*)?\d{1,4}(?:[/.-]\d{1,4}){0,2})?(?:\s*\((?:rev\.?|v)\s*\d+\))?)\s*[.]?\s*$/i;

/** The rest of such a sentence may say who changes the rules and when, never a figure, an address or a token. */
export const isAboutTheRules = (text: string): boolean => {
  if (SUPERSEDES.test(text)) return true;
  const m = ABOUT_RULES.exec(text);
  if (!m) return false;
  const rest = text.slice(m[0].length);
  return !/[\d$%]|§[aqhcn]\d/.test(rest) && !(rest.match(/\b[A-Za-z][A-Za-z0-9]{1,9}\b/g) ?? []).some(isNamed);
};

/** "Whereas the guild's account holds STRK for contributor rewards": a recital gives the background of a resolution. */
export const isRecital = (text: string): boolean => /^\s*whereas\b/i.test(text) && !LIMIT_WORD.test(text.replace(/^\s*whereas\b/i, ""));
