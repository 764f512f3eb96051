/**
 * Which activity a sentence's caps and human lines belong to. Owners write one line per activity ("ETH sends: only
 * to the keepers, at most 0.1 ETH each", "Team payouts: ..., max $50 each, anything above $30 ask me first", "You can
 * withdraw USDC to my cold wallet, max $2k per withdrawal, and above $1k ask me") and the figure in it counts that
 * activity alone: a swap selling 1.5 ETH is not held to the 0.1 ETH a send may carry. A figure whose own words
 * already name what it counts ("per order", "per deposit") was settled by the amount reader; this pass binds the
 * ones it left on every action ("max $50 each") to the one activity their sentence is about.
 *
 * Fail closed: a sentence naming two activities, or none, or a catch-all ("any action", "anything", "no single
 * transaction", "in total") keeps its figures on every action. A heading ("Team payouts:") names what the whole
 * line is about, so a catch-all inside it ("anything above $30") stays within it. "Nothing over 10k leaves the
 * account" names every way value goes out, so it binds sends, withdrawals, payments and deposits, never an order.
 * Running totals (a day, a month) are left as they are: counting more than the owner meant only holds more.
 */
import { OUT_OF_ACCOUNT } from "../activity-words";
import type { Activity, Constraint } from "../types";

interface Family {
  name: string;
  re: RegExp;
  acts: Activity[];
}

/** Every way value goes out of the account, and moves between the account's own places. */
const MOVES: Activity[] = OUT_OF_ACCOUNT;

const FAMILIES: Family[] = [
  {
    name: "move",
    re: /\b(?:send|sends|sending|transfers?|transferring|top[- ]?ups?|topups?|top(?:ping)?\s+up|pay|pays|paying|payments?|payouts?|pay[- ]?outs?|disburse(?:s|d|ments?)?|tips?|tipping|withdraw|withdraws|withdrawals?|withdrawing|usdsend|spotsend|withdraw3)\b/gi,
    acts: MOVES,
  },
  // "Vault deposits", "supply to Aave": the lending and vault side, never an internal move between own accounts.
  { name: "deposit", re: /\b(?:deposit|deposits|depositing|supply|supplies|supplying)\b/gi, acts: ["supply", "vault_deposit"] },
  { name: "trade", re: /\b(?:swaps?|swapping|orders?|trades?|trading|bets?|betting)\b/gi, acts: ["order", "swap", "cancel"] },
  { name: "wrap", re: /\b(?:wraps?|wrapping|unwraps?|unwrapping)\b/gi, acts: ["wrap", "unwrap"] },
  { name: "borrow", re: /\b(?:borrows?|borrowing)\b/gi, acts: ["borrow"] },
  { name: "stake", re: /\b(?:stake|stakes|staking|delegat(?:e|es|ing|ions?))\b/gi, acts: ["stake", "delegate"] },
  { name: "bridge", re: /\b(?:bridges?|bridging)\b/gi, acts: ["bridge"] },
];

/** "Nothing over 10k leaves the account", "no more than $5k goes out of the wallet": what leaves, whatever it is. */
// "goes out" only with the place it leaves: "before it goes out" means before it is sent, of any kind.
const LEAVES_RE = /(?<!\bbefore\s+(?:it|they|this|that|anything)\s+)\b(?:leaves?|leaving)\b|\b(?:goes|go|going|gets?)\s+out\s+of\s+(?:the|this|my|our)\s+(?:account|wallet|acct|treasury|safe)\b/i;
const LEAVES: Activity[] = OUT_OF_ACCOUNT.filter((a) => a !== "internal_transfer");

/** Words that put a figure on every action, whatever the sentence is otherwise about. */
const CATCH_ALL =
  /\b(?:any|every|each|all|no|one|a|the|single|per)\s+(?:single\s+)?(?:actions?|transactions?|moves?|operations?|things?|activit(?:y|ies))\b|\b(?:anything|everything|whatever|overall|in\s+total|altogether|combined|all\s+in|across)\b/i;

/** "Team payouts:", "ETH sends:", "sol topups ->": a short line head naming what the line is about. */
const HEADING_RE = /^\s*(?:[-*•]\s*)?([A-Za-z][\w$ /'-]{0,40}?)\s*(?::|->|=>|—|–)\s+\S/;

function familiesIn(text: string): Family[] {
  return FAMILIES.filter((f) => {
    f.re.lastIndex = 0;
    return f.re.test(text);
  });
}

/** The activities a sentence is about, or null when it names none, several, or reaches every action. */
export function sentenceActivities(sentence: string): Activity[] | null {
  const head = HEADING_RE.exec(sentence);
  const headFamilies = head ? familiesIn(head[1]) : [];
  const body = head ? sentence.slice(head[0].length - 1) : sentence;
  if (headFamilies.length === 1) {
    // The heading decides, unless the body brings in another activity ("payouts: ... and swaps too").
    const others = familiesIn(body).filter((f) => f !== headFamilies[0]);
    return others.length === 0 ? headFamilies[0].acts : null;
  }
  if (headFamilies.length > 1) return null;
  const named = familiesIn(sentence);
  if (LEAVES_RE.test(sentence)) return named.length === 0 || named.every((f) => f.name === "move") ? LEAVES : null;
  if (named.length !== 1 || CATCH_ALL.test(sentence)) return null;
  return named[0].acts;
}

/**
 * Binds the per-action caps and human lines of one sentence (constraints from `from` on) that name no activity of
 * their own to the one activity the sentence is about.
 */
export function bindToSentenceActivity(sentence: string, cs: Constraint[], from: number): void {
  const own = cs.slice(from).filter((k) => (k.kind === "cap" && k.period === "action" && k.scope === "any" && !k.activities && k.grantId === undefined && !k.to) || (k.kind === "escalate_above" && k.scope === "any" && !k.activities));
  // "Contractor payouts: USDC to 0x.., max $300 each": the line's asset, recipient and chain lists are the payouts'.
  // Only under a short heading that is nothing but the activity ("Team payouts:", "ETH sends:"): a longer head may
  // be the wallet's title run into the line ("mainnet ops wallet (chain 1) wrap ETH ...") and scope everything.
  const head = HEADING_RE.exec(sentence);
  const shortHead = !!head && head[1].trim().split(/\s+/).length <= 3 && familiesIn(head[1]).length === 1 && !/\b(?:wallet|account|acct|desk|bot|treasury|safe|chain|mainnet|network)\b/i.test(head[1]);
  const lists = shortHead ? cs.slice(from).filter((k) => k.kind === "allow" && k.activities.length === 0 && LIST_DIMS.includes(k.dim) && k.grantId === undefined) : [];
  if (own.length === 0 && lists.length === 0) return;
  const acts = sentenceActivities(sentence);
  if (!acts) return;
  // The sentence's own permission says what it is about ("refunds rent deposits in SOL, up to 0.05 SOL per refund"
  // permits paying, whatever "deposits" names): an activity word it does not permit is an object, not the activity.
  const permitted = cs.slice(from).flatMap((k) => (k.kind === "permit" ? k.activities : []));
  if (permitted.length && !acts.some((a) => permitted.includes(a))) return;
  for (const k of own) if (k.kind === "cap" || k.kind === "escalate_above") k.activities = [...acts];
  if (lists.length === 0) return;
  // A list of who may be paid, bound to no activity, presupposed paying them (checks/scope.ts); bound to the moves
  // now, it keeps that permission in so many words, and no other.
  const paysBefore = lists.some((k) => k.kind === "allow" && k.dim === "recipient") && permitted.length === 0;
  for (const k of lists) if (k.kind === "allow") k.activities = [...acts];
  if (paysBefore && acts.includes("payment")) cs.push({ kind: "permit", activities: ["transfer", "payment"], rule: lists[0].rule });
}

/** Chains are left: a chain named anywhere is usually the whole wallet's. */
const LIST_DIMS = ["asset", "recipient"];
