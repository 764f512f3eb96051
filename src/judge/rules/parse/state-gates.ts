/**
 * A permission that holds only while a figure in the context stays on one side of a bound: "may borrow USDC, only
 * while context.aave.health_factor is at least 1.8", "swaps allowed as long as context.vault.utilization stays
 * below 0.9". Read as its contrapositive, a prohibition of the permitted activities bound to the opposite
 * condition ("no borrowing while the health factor is below 1.8"), so checks/conditions.ts decides it: set aside
 * when the figure is on the allowed side, a violation when it is not, a question for a human when the context
 * lacks the figure. Only a figure the rules point at by path is read; "only while markets are calm" is not.
 */
import type { Activity, Condition } from "../types";
import { scan, type Clause } from "../text";
import { add, type ParseState } from "./state";

const GATE =
  /\b(?:(?:but\s+|and\s+)?only\s+)?(?:while|when|whenever|as\s+long\s+as|so\s+long\s+as|provided(?:\s+that)?|if)\s+(?:the\s+)?§c(\d+)\s+(?:is\s+|stays\s+|remains\s+|reads\s+|sits\s+)?(?:still\s+)?(at\s+least|not\s+below|no\s+less\s+than|above|over|more\s+than|greater\s+than|at\s+most|not\s+above|no\s+more\s+than|below|under|less\s+than|>=|≥|<=|≤|>|<)\s*(\d+(?:\.\d+)?)(?!\s*(?:%|[A-Za-z$]))/gi;

/** The opposite of the bound: the state in which the permission does not hold. */
const OPPOSITE: Record<string, Condition["op"]> = {
  "at least": "<", "not below": "<", "no less than": "<", ">=": "<", "≥": "<",
  above: "<=", over: "<=", "more than": "<=", "greater than": "<=", ">": "<=",
  "at most": ">", "not above": ">", "no more than": ">", "<=": ">", "≤": ">",
  below: ">=", under: ">=", "less than": ">=", "<": ">=",
};

const OP_WORDS: Record<Condition["op"], string> = { "<": "below", "<=": "at or below", ">": "above", ">=": "at or above" };

/** `permitted`: the activities the sentence's permission gave (the clause before this one). */
export function parseStateGate(c: Clause, st: ParseState, rule: string, permitted: Activity[]): void {
  if (permitted.length === 0 || !/§c\d/.test(c.text)) return;
  scan(c, GATE, (m) => {
    const path = c.refs.ctx[Number(m[1])];
    const op = OPPOSITE[m[2].toLowerCase().replace(/\s+/g, " ")];
    if (!path || !op) return false;
    // "only while" always gates; a bare "if/when" gates only a clause that carries no rule of its own.
    const rest = c.text.slice(0, m.index) + c.text.slice(m.index + m[0].length);
    if (!/\bonly\b/i.test(m[0]) && /[A-Za-z]{3,}/.test(rest.replace(/\b(?:and|but|also|then|,)\b/gi, ""))) return false;
    // The condition in which the prohibition binds, said as such ("context.x is below 1.8").
    const text = `while ${path} is ${OP_WORDS[op]} ${m[3]}`;
    add(st, { kind: "forbid", activities: permitted, label: `${permitted.join(" or ")} ${text}`, when: { subject: "context", path, op, value: Number(m[3]), text }, rule });
  });
  scan(c, /^\s*(?:and|but)\b|\b(?:and|but)\s*$|^\s*,|,\s*$/gi, () => undefined);
}
