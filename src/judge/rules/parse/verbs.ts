/**
 * The activity verbs the permission and prohibition readers share: the shared vocabulary (activity-words.ts) plus
 * the verbs only these readers know, each with the activities it permits and the ones it forbids.
 */
import type { Activity } from "../types";
import { scan, type Clause } from "../text";
import { ACTIVITY_WORDS, OUT_OF_ACCOUNT, type ActivityWord } from "../activity-words";

/**
 * One side of a move that stays inside the owner's account: "perp balance", "the spot wallet", "our trading account"
 * (never staking, which `activity-words.ts` reads as staking and unstaking).
 */
const OWN_SIDE = String.raw`(?:(?:the|our|my|its|this)\s+)?(?:perps?|perpetuals?|spot|margin|trading|funding|master|main)\s+(?:balances?|accounts?|wallets?|sides?|books?)(?:\s+of\s+(?:the|this|our|my)\s+(?:same\s+)?account)?`;

export interface Verb {
  re: RegExp;
  pos: Activity[];
  neg: Activity[];
  /** Trade-like verbs with named items read as lists ("never trade SOL"); move-like ones forbid ("never send HYPE"). */
  listy: boolean;
  label: string;
  /** From the shared vocabulary: read only in prohibitions (activity-words.ts). */
  negOnly?: boolean;
  assetClass?: "nft";
  together?: boolean;
  typeRe?: string;
}

/**
 * The shared activity vocabulary (activity-words.ts) as verbs. A pattern or a kind the adapters do not tell apart
 * permits nothing by itself ("looping is fine" is no borrow permit), nor does a word read only in prohibitions.
 */
const fromWords = (ws: ActivityWord[]): Verb[] =>
  ws.map((w) => ({ ...w, pos: w.negOnly || w.together || w.typeRe ? [] : w.acts, neg: w.acts, listy: false }));

const OWN_VERBS: Verb[] = [
  { re: /\b(?:add(?:ing)?|remov(?:e|ing)|manag(?:e|ing)|adjust(?:ing)?|top(?:ping)? up|increas(?:e|ing)|decreas(?:e|ing))\s+(?:or\s+(?:remove|reduce|decrease|withdraw)\s+)?(?:isolated\s+|cross\s+)?margin\b|\bmargin\s+(?:changes?|adjustments?|top[- ]ups?)\b/gi, pos: ["margin"], neg: ["margin"], listy: false, label: "margin changes" },
  // "between the main account and our sub-accounts", "to a sub-account": where money moves, not creating sub-accounts.
  { re: /\b(?:account\s+)?permissions?\b|\b(?:(?:add|adding|adds|create|creating|register|registering|set\s+up|setting\s+up)\s+(?:(?:any|new|more|an?|extra|other)\s+)*)?(?:api|agent)(?:\s*\/\s*(?:api|agent))?\s+(?:wallets?|keys?)\b|\b(?:add|adding|adds|create|creating|register|registering|set\s+up|setting\s+up)\s+(?:(?:any|new|more|an?|extra|other)\s+)*(?:api\s+)?agents?\b|(?<=\b(?:no|never)\s+(?:(?:new|more|other|extra)\s+)?)agents?\b|\bagents?\b(?=[^.]*\bapprov)|\bbuilder[- ]?fees?\b|(?<!\bbetween\b[^.;]{0,80})(?<!\b(?:to|from|into|out\s+of)\s+(?:(?:the|our|its|my|a|any|each|one\s+of\s+(?:the|our))\s+)*)\bsub[- ]?accounts?\b|\bapprove\s*agents?\b|(?<=\b(?:hand|give|giving|share|sharing|pass)\w*\b[^.;,()]{0,30})\b(?:api\s+|signing\s+|trading\s+)?keys\b/gi, pos: ["permission", "subaccount"], neg: ["permission", "subaccount"], listy: false, label: "permission changes" },
  // "never close a token account", "token accounts must not be closed": SPL CloseAccount.
  { re: /\bclos(?:e|es|ed|ing)\b(?:\s+(?:(?:any|a|an|the|our|its|their|this|these|those)\s+)?(?:(?:spl|usdc|usdt|sol|associated|empty)\s+)*(?:token\s+)?accounts?\b|(?=\s+or\s+[\w-]+\s+(?:(?:any|a|an|the|our|its|their|this|these|those)\s+)?(?:(?:spl|usdc|usdt|sol|associated|empty)\s+)*(?:token\s+)?accounts?\b))|\b(?:(?:spl|associated)\s+)?token\s+accounts?\b(?=[^.;]{0,40}?\bclosed\b)|(?<=\btoken\s+accounts?\b[^.;]{0,40}?)\bclosed\b/gi, pos: ["close_account"], neg: ["close_account"], listy: false, label: "closing token accounts" },
  // "re-assign a token account", "their ownership or authorities must not be transferred": SPL SetAuthority, who controls an account.
  { re: /\bre-?assign\w*(?:\s+(?:(?:any|a|an|the|our|its|their|this|these|those)\s+)?(?:(?:spl|usdc|usdt|sol|associated|empty)\s+)*(?:token\s+)?accounts?\b)?|\b(?:hand(?:ing)?\s+over|transfer\w*|chang\w*|giv\w*\s+away)\s+(?:the\s+|its\s+|their\s+|any\s+)?(?:ownership|authorit(?:y|ies))\b|\b(?:ownership|authorit(?:y|ies))\b(?:\s+(?:or|and)\s+(?:ownership|authorit(?:y|ies)))?(?!\s+to\b)|(?<=\b(?:ownership|authorit(?:y|ies))\b[^.;,]{0,30}?)\b(?:transferr?\w*|changed|handed\s+over)/gi, pos: ["permission"], neg: ["permission"], listy: false, label: "changing who controls an account" },
  // "No approve or increase_allowance calls": a contract's entrypoint names are the same permission change.
  { re: /\b(?:token\s+)?(?:approv(?:e|es|al|als|ing)|allowances?|increase_?allowance|increaseAllowance)\b(?:\s+(?:to\s+)?(?:any|a|new|other|unknown)\s+spenders?)?(?:\s+calls?\b)?/gi, pos: ["approval"], neg: ["approval"], listy: false, label: "token approvals" },
  { re: /\bleverage\s+(?:changes?|adjustments?|updates?|increases?)\b|\bchang(?:e|es|ing)\s+(?:the\s+)?leverage\b/gi, pos: ["leverage"], neg: ["leverage"], listy: false, label: "leverage changes" },
  { re: /\b(?:undelegat\w*|unstak\w*)(?:\s+(?:(?:the|our|any|its|their|some)\s+)?(?:stake|staked\s+\w+))?|\bout\s+of\s+(?:staking|stake|the\s+validators?)\b|\bdeactivat\w*(?:\s+(?:stake|staking|stake accounts?))?/gi, pos: ["undelegate", "unstake"], neg: ["undelegate", "unstake"], listy: false, label: "undelegating or unstaking" },
  // "withdraw stake", "withdrawals from stake accounts", "stake withdrawals": taking SOL out of staking, where "stake" is what is withdrawn, not an act of staking.
  { re: /\bwithdraw\w*\s+(?:(?:lamports|sol|funds)\s+)?(?:from\s+)?(?:(?:the|our|any|its|their)\s+)?(?:(?:\w+['’]s|native)\s+)?(?:stake|staking|staked\s+sol)\b(?:\s+accounts?)?|\bstake(?:\s+accounts?)?\s+withdraw\w*/gi, pos: ["unstake"], neg: ["unstake"], listy: false, label: "withdrawing stake" },
  // "The delegate agent", "our delegate wallet": a role, not the act of delegating.
  { re: /\bdelegat(?=(\w*))\1(?!\s+(?:agent|bot|wallet|address|key|account|trader|signer|operator|manager)s?\b)/gi, pos: ["delegate"], neg: ["delegate"], listy: false, label: "delegating" },
  { re: /\bstak(?:e|es|ed|ing)\b|\b(?:move|moving|transfer|transferring|deposit|depositing)\b(?=[^,;.]{0,30}\b(?:into|to)\s+staking\b)/gi, pos: ["stake", "delegate"], neg: ["stake", "delegate"], listy: false, label: "staking" },
  { re: /\bunwrap\w*/gi, pos: ["unwrap"], neg: ["unwrap"], listy: false, label: "unwrapping" },
  // "wrap eth to weth and back", "wrapping both ways": the reverse is named too.
  { re: /\bwrap(?:s|ping|ped)?\b(?=[^.;]{0,40}?\b(?:and\s+back(?:\s+again)?|and\s+vice\s+versa|both\s+ways|in\s+both\s+directions)\b)/gi, pos: ["wrap", "unwrap"], neg: ["wrap", "unwrap"], listy: false, label: "wrapping and unwrapping" },
  { re: /\bwrap(?:s|ping|ped)?\b/gi, pos: ["wrap"], neg: ["wrap"], listy: false, label: "wrapping" },
  { re: /\bbridg\w*/gi, pos: ["bridge"], neg: ["bridge"], listy: false, label: "bridging" },
  { re: /\bborrow\w*|\btak(?:e|ing) (?:out )?(?:a )?loans?\b|\b(?:open|take on) debt\b/gi, pos: ["borrow"], neg: ["borrow"], listy: false, label: "borrowing" },
  { re: /\brepay\w*/gi, pos: ["repay"], neg: ["repay"], listy: false, label: "repaying" },
  { re: /\bwithdraw\w*/gi, pos: ["withdrawal", "redeem", "vault_withdraw"], neg: ["withdrawal", "redeem", "vault_withdraw", "unstake"], listy: false, label: "withdrawals" },
  { re: /\b(?:supply|supplies|supplying|lend|lending|lends)\b/gi, pos: ["supply"], neg: ["supply"], listy: false, label: "supplying" },
  // "refunds rent deposits", "security deposits": money held for someone, not a deposit into a pool.
  { re: /(?<!\b(?:rent|security)\s+)\bdeposit(?:s|ing)?\b(?!\s+address)(?:\s+into\s+(?:vaults?|a vault))?|\bvault(?:s| deposits?)\b/gi, pos: ["supply", "vault_deposit"], neg: ["vault_deposit", "supply", "stake"], listy: false, label: "deposits" },
  // "move USDC between the master account and the sub-accounts": a move between the owner's own accounts.
  { re: new RegExp(String.raw`\b(?:mov(?:e|es|ing)|transfer(?:s|ring)?|shift(?:s|ing)?|shuffl(?:e|es|ing)|rebalanc(?:e|es|ing))\b(?=[^.;]{0,40}?\bbetween\b[^.;]{0,60}\b(?:sub-?accounts?|master|main account|own accounts|vaults?|spot and perp|perp and spot)\b|[^.;]{0,40}?\bbetween\s+${OWN_SIDE}\s+and\s+${OWN_SIDE}\b)`, "gi"), pos: ["internal_transfer"], neg: ["internal_transfer"], listy: false, label: "moves between own accounts" },
  // "Don't move ETH": moving a named token (upper-case symbol) is moving funds.
  // "No usdSend, no spot sends" (text.ts spells the venue's action names out): a send to another address on the
  // venue, by name. It says nothing of withdrawals or of moves between the account's own sub-accounts.
  { re: /\b(?:usd|spot)(?:\s*\/\s*(?:usd|spot))?\s+sends?\b/gi, pos: ["transfer", "payment"], neg: ["transfer", "payment"], listy: false, label: "sends" },
  { re: /\b[Mm]ov(?:e|es|ing)\s+(?:any\s+|our\s+|the\s+)?(?=[A-Z][A-Za-z0-9]{1,9}\b(?!\s+(?:from|between)\b))/g, pos: ["transfer", "payment"], neg: OUT_OF_ACCOUNT, listy: false, label: "moving funds" },
  { re: /\b(?:move|moving|moves)\s+(?:any\s+)?(?:(?:company|treasury|client|customer|team|dao|project|our|the|my)(?:['’]s)?\s+)?(?:funds|money|assets|tokens|capital|balances?|it|usdc|collateral)\b(?:\s+(?:out|off)\s+(?:of\s+)?(?:this|the|our|my)?\s*(?:trading\s+)?(?:account|exchange|venue|wallet|platform))?|\b(?:funds|money)\s+(?:out|off)\b(?:\s+(?:of\s+)?(?:this|the|our|my)?\s*(?:trading\s+)?(?:account|exchange|venue|wallet|platform|sub-?account))?|\btransfer(?:s|ring|red)?\b|\bsend(?:s|ing)?\b(?!\s+(?:the\s+)?(?:output|proceeds|swapped|received|resulting))|\b(?:funds|money|tokens|usdc|it|they)\s+(?:be\s+|are\s+|is\s+)?sent\b|\bremit\w*|\bdisburs\w*|\bmovements?\s+of\s+(?:any\s+)?(?:[A-Za-z][A-Za-z0-9]{1,9})\s+(?:out|off)\b(?:\s+of\b)?/gi, pos: ["transfer", "payment"], neg: OUT_OF_ACCOUNT, listy: false, label: "moving funds" },
  { re: /\b(?:pay(?:s|ing|ments?)?|paid)\b(?:\s+out)?|\bpayouts?\b|\breimburs\w*|\brefund(?:s|ed|ing)?\b(?:\s+(?:the\s+)?(?:rent|security)\s+deposits?\b)?|\bsettle\s+invoices\b|\btop(?:s|ped|ping)?[- ]?ups?\b(?!\s+(?:of\s+)?(?:the\s+)?(?:isolated\s+|cross\s+)?margin)/gi, pos: ["transfer", "payment"], neg: ["payment", "transfer"], listy: false, label: "payments" },
  { re: /\bswap(?:s|ping|ped)?\b|\bconvert(?:s|ing|ed)?\b|\bexchang(?:e|es|ing)\b(?!\s+deposit)|\brebalanc\w*/gi, pos: ["swap"], neg: ["swap"], listy: true, label: "swaps" },
  // "participate only in markets on ...": taking part in markets is betting on them.
  { re: /\bbet(?:s|ting)?\b|\bwager\w*|\bparticipat\w*(?=\s+(?:only\s+|exclusively\s+|solely\s+)?in\s+(?:(?:the|these|those)\s+)?(?:[\w-]+\s+){0,3}markets?\b)/gi, pos: ["order", "cancel"], neg: ["order"], listy: true, label: "betting" },
  // Buying or selling a token may happen as an order or as a swap, depending on the venue.
  { re: /\bbuy(?:s|ing)?\b|\bsell(?:s|ing)?\b|\bpurchas\w*/gi, pos: ["order", "cancel", "swap"], neg: ["order", "swap"], listy: true, label: "trading" },
  { re: /\btrad(?:e|es|ed|ing)\b|\bplace\s+orders?\b|\b(?:open|take|hold|put on|build)\s+(?:(?:long|short|new|small|directional)\s+)?(?:positions?|trades?)\b|\bgo long\b|\bscalp\w*|\bmarket[- ]mak(?!ers?\b)\w*|\bquot(?:e|es|ing)\b|\bclos(?:e|es|ing)\b(?=\s+(?:\w+\s+){0,3}(?:positions?|longs?|shorts?|trades?))/gi, pos: ["order", "cancel", "swap"], neg: ["order", "swap"], listy: true, label: "trading" },
  { re: /\bcancel\w*\s+orders?\b|\bcancel\w*/gi, pos: ["cancel"], neg: ["cancel"], listy: false, label: "cancelling orders" },
  { re: /\b(?:operate|operating|act|acting|interact|interacting|use|using|work|transact|transacting|manag(?:e|es|ing)|handl(?:e|es|ing)|runs?|running)\b/gi, pos: [], neg: [], listy: true, label: "anything" },
];

export const VERBS: Verb[] = [...fromWords(ACTIVITY_WORDS.filter((w) => !w.late)), ...OWN_VERBS, ...fromWords(ACTIVITY_WORDS.filter((w) => w.late))];

/** The verbs a clause names; outside a prohibition, words read only in prohibitions are left unread. */
export function findVerbs(c: Clause, negative = true): Verb[] {
  const out: Verb[] = [];
  for (const v of VERBS) if (negative || !v.negOnly) scan(c, v.re, () => void out.push(v));
  return out;
}
