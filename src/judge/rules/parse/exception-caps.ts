/**
 * An exception that brings its own limit: "No other withdrawals or sends, except a rent top-up of at most 0.01 SOL to
 * the accounts in context.rent_accounts", "no transfers except to the treasury, max 5,000 USDC there".
 *
 * Read as: the cap binds only moves to the exception's recipients (never every action, which had blocked the grants
 * the intent permits elsewhere), and "no other" sends widen the recipients the intent already allows by the
 * exception's list rather than standing beside them as a second, contradicting list.
 *
 * Invariants: only when every figure of the clause sits after the exception word and the exception names its
 * recipients (a list or addresses); the cap is never dropped, only scoped, so a move to those recipients above it is
 * still a violation; moves to anyone else remain bound by the intent's own recipient lists.
 */
import type { Activity, Constraint } from "../types";
import { scan, type Clause } from "../text";
import type { ParseState } from "./state";

const EXCEPT_WORD = /\b(?:except(?:\s+for)?|other than|apart from|besides|with the exception of|save for)\b/i;
const MOVES: Activity[] = ["transfer", "payment", "withdrawal"];
type ListC = Extract<Constraint, { kind: "allow" | "deny" }>;
type Cap = Extract<Constraint, { kind: "cap" }>;

export function settleExceptionCap(c: Clause, st: ParseState, from: number): void {
  const m = EXCEPT_WORD.exec(c.text);
  if (!m || /\d/.test(c.text.slice(0, m.index).replace(/§[a-z]\d+/g, ""))) return;
  const produced = st.constraints.slice(from);
  const list = produced.find((k): k is ListC => k.kind === "allow" && k.dim === "recipient" && (k.values.length > 0 || (k.refs?.length ?? 0) > 0));
  const caps = produced.filter((k): k is Cap => k.kind === "cap" && k.period === "action" && !k.limitOf);
  if (!list || caps.length === 0) return;
  for (const cap of caps) {
    cap.to = { values: [...list.values], refs: list.refs ? [...list.refs] : undefined };
    cap.scope = "transfer";
  }
  // "No other sends, except ...": the recipients the intent already allows for moves, widened by the exception's list.
  const other = /^\s*(?:and\s+)?(?:no|never|nothing|not any)\s+(other)\b/i.exec(c.text);
  if (!other) return;
  const earlier = st.constraints
    .slice(0, from)
    .find((k): k is ListC => k.kind === "allow" && k.dim === "recipient" && !k.forAssets?.length && k.activities.some((a) => MOVES.includes(a)));
  if (earlier) {
    // Same activities: merged into the earlier list by unionAllowlists once the intent is read.
    list.activities = [...earlier.activities];
    for (const k of produced) if (k.kind === "permit") k.activities = k.activities.filter((a) => earlier.activities.includes(a));
  }
  scan(c, /(?<=^\s*(?:and\s+)?(?:no|never|nothing|not any)\s+)other\b/i, () => undefined);
}

/**
 * "Withdraw is not allowed, not even to the treasury", "SOL transfers: not allowed, not even to our cold wallet": the
 * fragment says the prohibition before it has no exception for that recipient. A whole-activity prohibition (`forbid`,
 * which binds every recipient) already says so, so the fragment is read as a restatement; after anything narrower (a
 * denylist of recipients) it stays unread.
 */
const NOT_EVEN =
  /^\s*(?:and\s+|but\s+)?(?:not|nor|never|no)\s+even\s+(?:to|for|into|towards?)\s+(?:the\s+|our\s+|my\s+|your\s+|their\s+|its\s+)?(?:own\s+)?(?:(?:§[ac]\d+|treasury|cold\s+wallet|hot\s+wallet|owner|safe|vault|exchange|deposit\s+address|master\s+account|main\s+account|sub-?accounts?|wallet|address|account|me|us|you|them)\s*)+(?:\(\s*§[ac]\d+\s*\))?\s*[.!]?\s*$/i;

export function restatesNoException(text: string, sentence: Constraint[]): boolean {
  return NOT_EVEN.test(text) && sentence.some((k) => k.kind === "forbid" && !k.direction && k.activities.some((a) => a === "transfer" || a === "withdrawal" || a === "payment"));
}
