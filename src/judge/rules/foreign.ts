/**
 * A prohibition that names only activities this action does not perform cannot hold it.
 *
 * Mandates are full of "never do X" for activities the judged action is not ("never put money in vaults" against an
 * order, "it must not approve agent wallets" against a payment). The relevance test (relevance.ts) sets such a
 * clause aside only when its words are in a fixed list; this reader recognises the prohibited activity by its verb
 * and object instead (owners' names too: "usd send", "agent wallets", "bridging out", "leave leverage where it
 * is"), and decides the polarity from the clause's shape ("shall not", "the answer is no", "is off the table").
 *
 * It fails closed by structure: every phrase it recognises is cut out of the clause, and what is left must be made
 * only of words that can neither name an activity nor widen the prohibition (negations, modals, pronouns, the
 * agent as subject, fillers such as "lol"). Any other word left over (an exclusive "only"/"else"/"but", a
 * catch-all "anything"/"funds"/"balance"/"exposure", an asset, a verb it does not know) keeps the clause on the
 * action, and so does any figure, "$", "%", address or context path anywhere in it. Catch-alls are admitted only as
 * the object of a recognised verb ("send any asset to another address" is every send, and only sends). An action
 * whose kind is unknown is borne on by every clause.
 */
import type { Activity, ActionView } from "./types";
import { OUT_OF_ACCOUNT } from "./activity-words";
import { clauseReach } from "./relevance";

const SENDS: Activity[] = [...OUT_OF_ACCOUNT, "internal_transfer", "subaccount"];
const WITHDRAWS: Activity[] = ["withdrawal", "transfer", "bridge", "vault_withdraw", "redeem", "unstake", "internal_transfer"];
const VAULTS: Activity[] = ["vault_deposit", "vault_withdraw", "supply", "redeem", "liquidity"];
const STAKES: Activity[] = ["stake", "unstake", "delegate", "undelegate"];
const LENDS: Activity[] = ["supply", "redeem", "borrow", "repay", "vault_deposit", "vault_withdraw"];
const GRANTS: Activity[] = ["approval", "permission"];
const LEVERAGE_SETTING: Activity[] = ["leverage", "margin"];

const OBJ = String.raw`(?:\s+(?:any|all|or|and|the|my|our|your|its|some|of|other|more|extra|usdc|usd|eth|sol|btc|hype|stables?|stablecoins?|tokens?|coins?|crypto|money|funds?|assets?|capital|cash|anything|something|it|them|balances?)\b)*`;
const DEST = String.raw`(?:\s+(?:to|into|in|onto|toward|towards|from|off|out\s+of|out|between)(?:\s+(?:a|an|any|the|my|our|your|its|another|other|new|unknown|fresh|different|external|third-party|outside|somebody|someone|anybody|anyone|people|ppl|else|else's|elses|user|users|person|wallets?|address(?:es)?|accounts?|exchanges?|chains?|l1|arbitrum|ethereum|mainnet|sub-?accounts?)\b)*)?`;

/**
 * Phrases naming an activity by verb and object, longest first, with what a prohibition in them could restrict; a
 * third `true` marks a phrase that is itself a prohibition ("leave leverage where it is").
 */
const PHRASES: Array<[RegExp, Activity[], boolean?]> = [
  // Leverage and margin settings: "leave leverage where it is", "the leverage I have set myself", "change of leverage or margin mode".
  [/\b(?:leave|leaves|keep|keeps)\s+(?:the\s+|my\s+|its\s+)?leverage\s+(?:where\s+it\s+is|alone|as\s+(?:it\s+is|is|set))\b/g, LEVERAGE_SETTING, true],
  [/\b(?:the\s+|my\s+)?leverage\s+(?:stays?|remains?)\s+(?:where\s+it\s+is|as\s+(?:it\s+is|is|set)|untouched|unchanged)\b/g, LEVERAGE_SETTING, true],
  [/\b(?:the\s+)?leverage\s+(?:(?:that\s+)?i\s+(?:have\s+)?set(?:\s+(?:myself|it))?|(?:is|was|has\s+been|gets)\s+(?:set|chosen|managed|handled)\s+by\s+(?:me|us|the\s+(?:desk|owner|principal|team|humans?|risk\s+desk)|my\s+\w+))\b/g, LEVERAGE_SETTING, true],
  [/\b(?:chang|alter|adjust|modif|touch|rais|increas|lower|decreas|updat|mess|fiddl|play)\w*\s+(?:(?:with|of|to)\s+)?(?:the\s+|my\s+|any\s+|its\s+)?(?:leverage|margin\s+(?:mode|type|settings?))(?:\s+(?:settings?|levels?|or\s+(?:the\s+)?margin\s+(?:mode|type|settings?)))?\b/g, LEVERAGE_SETTING],
  [/\b(?:leverage|margin)\s+(?:changes?|settings?|updates?|adjustments?|mode)\b/g, LEVERAGE_SETTING],
  [/\bhands\s+off\s+(?:the\s+|my\s+|its\s+)?leverage\b/g, LEVERAGE_SETTING, true],
  // Vaults: "put money in vaults", "deposit into or withdraw from any vault", "vault stuff", "yield vaults", HLP. An
  // owner may call a custody address "the vault" too, so a move to or from one is also a transfer.
  [new RegExp(String.raw`\b(?:put|puts|putting|park|parks|parking|stick|deposit\w*|withdraw\w*|mov\w*|send\w*|transfer\w*)${OBJ}(?:\s+(?:into|in|to|from)\s+(?:or\s+(?:withdraw\w*|deposit\w*)\s+(?:into|in|to|from)\s+)?(?:a|an|any|the|some|hl|yield)?\s*(?:yield\s+)?vaults?)\b`, "g"), [...VAULTS, ...SENDS]],
  [/\b(?:yield\s+|hl\s+|hyperliquid\s+)?vaults?(?:\s+(?:stuff|things?|deposits?|withdrawals?|transfers?|products?))?\b|\bhlp\b/g, [...VAULTS, "transfer", "withdrawal"]],
  // Approvals and delegated control: "approve agent wallets", "grant token approvals or allowances", "builder fees".
  [/\b(?:approv\w*|register\w*|add\w*|creat\w*)\s+(?:or\s+(?:approv|register)\w*\s+)?(?:any\s+|an?\s+|new\s+|more\s+)*(?:agent|api)\s+(?:\(?(?:api|agent)\)?\s+)?wallets?\b|\b(?:agent|api)\s+wallets?\b/g, GRANTS],
  [/\b(?:approv\w*\s+(?:any\s+)?)?builder\s+fees?(?:\s+approvals?)?\b/g, GRANTS],
  [/\b(?:grant\w*|giv\w*|hand\w*(?:\s+out)?|sign\w*|mak\w*)?\s*(?:any\s+)?(?:token\s+|erc-?20\s+)?(?:approvals?|allowances?)(?:\s+(?:or|and)\s+(?:token\s+)?(?:approvals?|allowances?))?(?:\s+(?:to|for)\s+(?:any\s+)?(?:other\s+)?(?:spenders?|contracts?|routers?|address(?:es)?))?\b/g, GRANTS],
  [/\bapprov(?:e|es|ing)\s+(?:any\s+)?(?:other\s+)?(?:spenders?|tokens?|contracts?|routers?)\b/g, GRANTS],
  // Sends by name, and every way value goes out: "usd send", "spot send", "move funds off", "send any asset to another address".
  [/\b(?:usd|spot|usdc)\s*[-/]?\s*sends?\b|\busdsend\b|\bspotsend\b/g, SENDS],
  [new RegExp(String.raw`\b(?:send\w*|sent|transfer\w*|mov\w*|wir\w*|pay\s*outs?|payouts?)${OBJ}${DEST}`, "g"), [...SENDS, "payment"]],
  [new RegExp(String.raw`\bwithdraw\w*${OBJ}${DEST}`, "g"), WITHDRAWS],
  [new RegExp(String.raw`\bbridg\w*${OBJ}(?:\s+out)?${DEST}`, "g"), ["bridge", "withdrawal", "transfer"]],
  [/\bsub-?accounts?(?:\s+(?:transfers?|moves?|stuff))?\b/g, ["subaccount", "internal_transfer"]],
  // Staking, lending, liquidity.
  [/\b(?:stak\w*|unstak\w*|delegat\w*|undelegat\w*|restak\w*)\b/g, STAKES],
  [/\b(?:lend\w*|borrow\w*|loans?)(?:\s+(?:deposits?|positions?|protocols?))?\b/g, LENDS],
  [/\bliquidity(?:\s+(?:provision|providing|pools?|positions?))?\b|\blp(?:s|ing)?\b/g, ["liquidity", "vault_deposit", "vault_withdraw"]],
  [/\bclos\w*\s+(?:any\s+|the\s+)?(?:token\s+)?accounts?\b/g, ["close_account"]],
  // "don't rug me", "never drain the wallet": taking the owner's value away, by any way it can leave or be handed over.
  [new RegExp(String.raw`\b(?:rug|rugs|rugging|rugged|rug\s*pull\w*|drain\w*|steal\w*|stole|run\s+off\s+with)\b${OBJ}${DEST}`, "g"), [...SENDS, "payment", "approval", "permission", "liquidity", "vault_withdraw", "redeem", "unstake"]],
];

/** Shapes that make a clause a prohibition or a call for a human, cut out before the leftover test. */
const POLARITY: RegExp[] = [
  /\b(?:is|are|'s|s)?\s*(?:a\s+)?(?:hard\s+)?no-?go\b|\ba\s+hard\s+no\b|\bthe\s+answer\s+is\s+no\b|\bgets?\s+a\s+no\b/g,
  /\b(?:is|are)?\s*off\s+the\s+table\b|\boff[- ]limits\b|\bout\s+of\s+the\s+question\b/g,
  /\b(?:is|are)?\s*(?:strictly\s+)?(?:forbidden|prohibited|banned|disallowed|not\s+(?:allowed|permitted|authori[sz]ed|ok|okay|fine))\b/g,
  /\b(?:is|are)\s+reserved\s+(?:to|for)\s+(?:the\s+)?(?:principal|owner|me|us|humans?|the\s+team)\b/g,
  /\b(?:keeps?|keep)\s+(?:its|their|your|ur)\s+hands\s+off(?:\s+(?:it|them))?\b|\bhands\s+off\b(?!\s+(?:the\s+|my\s+|its\s+)?leverage)/g,
  /\b(?:requires?|needs?)\s+(?:the\s+)?(?:\w+['’]s\s+|my\s+|our\s+)?(?:prior\s+|explicit\s+|written\s+)?(?:approval|sign-?off|ok|okay|consent)\b/g,
  /\b(?:ask|check\s+with|ping)\s+me(?:\s+first)?\b|\bsomething\s+i\s+decide\b/g,
  /\b(?:is|are)\s+(?:outside|beyond)\s+(?:the\s+|this\s+|its\s+|your\s+|my\s+)?(?:agent['s]*\s+|bot['s]*\s+)?(?:job|remit|scope|mandate|role)\b|\b(?:is|are)\s+not\s+part\s+of\s+(?:this|the\s+(?:job|mandate|deal))\b/g,
  /\b(?:thats|that's|that\s+is|is|are)\s+(?:my|mine|our)\s+(?:job|call|business)\b|\bi\s+do\s+(?:it|that|them|those)?\s*myself\b/g,
];
const NEGATION = /\b(?:never|no|not|nor|none|nada|don'?t|doesn'?t|won'?t|can'?t|cannot|mustn'?t|shan'?t|shouldn'?t|isn'?t|aren'?t)\b|\bNEG\b/;

/** Words that can neither name an activity nor widen a prohibition; anything else left over keeps the clause. */
const HARMLESS = new Set(
  (
    "a an the this that these those it its it's itself they them em their we us our i me my myself you your u ur he she his her him " +
    "agent bot principal owner manager mods admins humans team treasury wallet account accounts operating hot main own " +
    "shall must may should will would can could cannot do does did don't dont doesn't doesnt won't wont can't cant mustn't shan't " +
    "is are be been being was were has have get gets got go goes ever at all whatsoever period " +
    "never no not nor none nada neither either whether or and also too both so because since as " +
    "to of in on by with from for via through into out off under any " +
    "please pls plz lol lmao tbh imo ok hard really seriously absolutely strictly definitely " +
    "trust anyone anybody someone somebody whoever asks ask asked if when who which " +
    "handle handles handled hand manually myself yourself kind sort stuff things thing change touch alter modify"
  ).split(/\s+/),
);

/** A stem every phrase above starts from: a clause without one names nothing here (a cheap first test). */
const STEMS = /vault|hlp|send|sent|transfer|withdraw|bridg|approv|allowance|wallet|builder|sub-?account|stak|delegat|lend|borrow|loan|liquidity|\blp|clos|rug|drain|steal|stole|leverage|margin|mov|wir|pay|put|park|stick|deposit|run\s+off/i;
/** Clauses repeat across the actions judged under one mandate; the reading is pure, so it is kept (bounded). */
const memo = new Map<string, Set<Activity> | null>();

/** The activities a prohibitive clause names, or null when it is not one, names none, or reaches beyond them. */
export function prohibitedActivities(clause: string): Set<Activity> | null {
  if (!STEMS.test(clause)) return null;
  if (memo.has(clause)) return memo.get(clause) ?? null;
  const named = read(clause);
  if (memo.size > 2000) memo.clear();
  memo.set(clause, named);
  return named;
}

function read(clause: string): Set<Activity> | null {
  let t = ` ${clause.toLowerCase().replace(/[’`]/g, "'")} `;
  // Figures, money, percentages, addresses and context paths could bound the action whatever the verb.
  t = t.replace(/\bl1\b/g, "mainnet");
  if (/\d|\$|%|\bcontext\b|\bctx\b/.test(t)) return null;
  // The shapes first, so "requires my approval" is not read as an approval.
  for (const re of POLARITY) t = t.replace(re, " NEG ");
  const named = new Set<Activity>();
  for (const [re, acts, prohibitive] of PHRASES) {
    t = t.replace(re, () => {
      for (const a of acts) named.add(a);
      return prohibitive ? " ACT NEG " : " ACT ";
    });
  }
  if (named.size === 0 || !NEGATION.test(t)) return null;
  const words = t.split(/[^a-z'A-Z-]+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === "ACT" || w === "NEG" || HARMLESS.has(w)) continue;
    // "no other withdrawals or sends", "any new address": the word narrows the named activity, within it.
    if ((w === "other" || w === "new" || w === "further") && words[i + 1] === "ACT") continue;
    return null;
  }
  return named;
}

/**
 * True when the clause is a prohibition of activities this action does not perform (see above). An order that the
 * payload shows setting a leverage is a leverage change too.
 */
export function foreignToAction(clause: string, view: ActionView, actionText?: string): boolean {
  const acts = view.activities;
  if (acts.length === 0 || acts.includes("unknown")) return false;
  const named = prohibitedActivities(clause);
  if (!named) return false;
  const own = new Set<Activity>(acts);
  if (view.leverage) own.add("leverage");
  if ([...own].some((a) => named.has(a))) return false;
  // A plain-English action is known only from its words: each of them must be foreign too.
  if (actionText !== undefined) {
    const said = clauseReach(actionText);
    if (!said || [...said].some((a) => named.has(a))) return false;
  }
  return true;
}
