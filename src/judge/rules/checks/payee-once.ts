/**
 * Once per payee per period (parse/payee-once.ts): a payment to someone the context's paid-list already names is a
 * second payment in the period. The list may name payees by address or by the name their entry has in the rules'
 * recipient lists ({"Priya": {address}}, [{name, address}]), so both are compared. A missing list is a missing fact.
 */
import type { ActionView, Constraint, Finding } from "../types";
import { atPath, normAddr, isRec } from "../context";

type Ctx = Record<string, unknown> | null;
type PayeeOnce = Extract<Constraint, { kind: "payee_once" }>;

const key = (s: string): string => (/^0x[0-9a-f]+$/i.test(s.trim()) ? normAddr(s) : s.trim().toLowerCase());

/** Every string the paid list holds: items, keys whose value is not false, names and addresses of entries. */
function paidKeys(v: unknown, depth = 0): string[] {
  if (depth > 3) return [];
  if (typeof v === "string") return [key(v)];
  if (Array.isArray(v)) return v.flatMap((x) => paidKeys(x, depth + 1));
  if (isRec(v))
    return Object.entries(v).flatMap(([k, x]) => (x === false || x === 0 || x === null ? [] : [key(k), ...(typeof x === "string" || isRec(x) || Array.isArray(x) ? paidKeys(x, depth + 1) : [])]));
  return [];
}

/** The names an address goes by in the recipient lists: the key of its entry, and its name or label fields. */
function namesOf(addr: string, lists: unknown[]): string[] {
  const out: string[] = [key(addr)];
  const holds = (x: unknown): boolean => typeof x === "string" ? key(x) === key(addr) : isRec(x) && Object.values(x).some((v) => typeof v === "string" && key(v) === key(addr));
  const visit = (v: unknown, depth: number): void => {
    if (depth > 3) return;
    if (Array.isArray(v)) for (const x of v) visit(x, depth + 1);
    else if (isRec(v))
      for (const [k, x] of Object.entries(v)) {
        if (holds(x)) {
          out.push(key(k));
          if (isRec(x)) for (const f of ["name", "label", "handle", "payee"]) if (typeof x[f] === "string") out.push(key(x[f] as string));
        } else visit(x, depth + 1);
      }
  };
  for (const l of lists) {
    if (Array.isArray(l)) for (const x of l) if (isRec(x) && holds(x)) for (const f of ["name", "label", "handle", "payee"]) if (typeof x[f] === "string") out.push(key(x[f] as string));
    visit(l, 0);
  }
  return out;
}

export function checkPayeeOnce(c: PayeeOnce, view: ActionView, ctx: Ctx, recipientRefs: readonly string[]): Finding[] {
  const tos = view.moves.map((m) => m.to).filter((t): t is string => !!t);
  if (c.decl || tos.length === 0 || c.refs.length === 0) return [];
  const missing = c.refs.filter((r) => atPath(ctx, r) === undefined);
  if (missing.length) return [{ type: "unknown", message: `The rule "${c.rule}" refers to ${missing.join(", ")}, which the context does not provide.` }];
  const paid = new Set(c.refs.flatMap((r) => paidKeys(atPath(ctx, r))));
  const lists = recipientRefs.map((r) => atPath(ctx, r)).filter((v) => v !== undefined);
  const out: Finding[] = [];
  for (const to of new Set(tos)) {
    const hit = namesOf(to, lists).find((n) => paid.has(n));
    if (hit) out.push({ type: "violation", message: `${to} (${hit}) has already been paid this ${c.period} (${c.refs.join(", ")}), and "${c.rule}".` });
  }
  return out;
}
