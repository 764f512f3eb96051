/**
 * A rule that binds only under a condition (parse/conditions.ts): checked as usual when the condition holds, set
 * aside when it does not, and when it cannot be told (no such figure in the context, no entry for the action's
 * asset, an order without a price) whatever the rule would have found becomes a question for a human. The unsafe
 * side is a met condition treated as unmet, so a figure with two readings ("0.03%" against a context number that
 * may be a fraction or a percentage) decides only when both readings agree.
 */
import type { ActionView, Condition, Finding } from "../types";
import { addressesIn, atPath, canonSym, normAddr, num, isRec } from "../context";

type Ctx = Record<string, unknown> | null;

function compare(x: number, w: Condition): boolean {
  switch (w.op) {
    case ">":
      return x > w.value;
    case ">=":
      return x >= w.value;
    case "<":
      return x < w.value;
    case "<=":
      return x <= w.value;
  }
}

/** Both readings of a percentage figure ("0.045" as 0.045% or as 4.5%) when the key does not say which. */
function holdsFor(x: number, w: Condition): boolean | null {
  if (!w.pct) return compare(x, w);
  const a = compare(x, w);
  return a === compare(x * 100, w) ? a : null;
}

/** Host names in a list: strings, array items and object keys that look like a domain. */
function hostsIn(v: unknown): string[] {
  const all = typeof v === "string" ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : isRec(v) ? [...Object.keys(v), ...Object.values(v).filter((x): x is string => typeof x === "string")] : [];
  return all.filter((x) => /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/i.test(x));
}


function entryFor(map: Record<string, unknown>, asset: string): number | null {
  const want = canonSym(asset);
  for (const [k, v] of Object.entries(map)) if (canonSym(k) === want) return num(isRec(v) ? (v.value ?? v.rate ?? v.pct ?? null) : v);
  return null;
}

/** Whether the condition holds for this action: true, false, or null when it cannot be told. */
export function conditionHolds(w: Condition, view: ActionView, ctx: Ctx): boolean | null {
  const results: Array<boolean | null> = [];
  if (w.subject === "unread") return null;
  if (w.subject === "member") {
    const list = w.path ? atPath(ctx, w.path) : undefined;
    if (list === undefined || list === null) return null;
    const entries = [...addressesIn(list), ...hostsIn(list)].map((x) => x.toLowerCase());
    const listed = (x: string): boolean => entries.some((e) => e === x.toLowerCase() || normAddr(e) === normAddr(x));
    // Each counterparty is one recipient, known by its address or (one payee, as in x402) by the host it serves.
    const parties: string[][] = view.recipients.length ? view.recipients.map((r) => (view.recipients.length === 1 ? [r, ...view.hosts] : [r])) : view.hosts.map((h) => [h]);
    if (parties.length === 0) return null;
    const on = parties.map((ids) => ids.some(listed));
    return w.negated ? on.some((x) => !x) : on.some((x) => x);
  }
  if (w.subject === "price") {
    if (view.orders.length === 0) return null;
    for (const o of view.orders) results.push(o.price === null ? null : holdsFor(o.price, w));
  } else {
    const v = w.path ? atPath(ctx, w.path) : undefined;
    const n = num(v);
    if (n !== null) results.push(holdsFor(n, w));
    else if (isRec(v)) {
      const assets = [...new Set([...view.orders.map((o) => o.asset), ...view.assets].filter((a): a is string => Boolean(a)))];
      if (assets.length === 0) return null;
      for (const a of assets) {
        const x = entryFor(v, a);
        results.push(x === null ? null : holdsFor(x, w));
      }
    } else return null;
  }
  // One order or asset meeting the condition is enough for the rule to bind.
  if (results.some((r) => r === true)) return true;
  return results.some((r) => r === null) ? null : false;
}

/** Applies the condition to the findings its rule produced (out[from..]) in place. */
export function gateFindings(out: Finding[], from: number, w: Condition, rule: string, view: ActionView, ctx: Ctx): void {
  if (out.length === from) return;
  const holds = conditionHolds(w, view, ctx);
  if (holds === true) return;
  if (holds === false) {
    out.length = from;
    return;
  }
  for (let i = from; i < out.length; i++) {
    const f = out[i];
    if (f.type === "unknown") continue;
    if (w.subject === "unread") {
      out[i] = { type: "unknown", message: `"${rule}" binds only under a condition that could not be read ("${w.text}"), so whether it stops this action is for a human (${f.message.replace(/\.$/, "")}).` };
      continue;
    }
    out[i] = { type: "unknown", message: `"${rule}" binds only ${w.text.replace(/^(?:if|when|whenever|while|as long as|so long as|in case)\b/i, (k) => k.toLowerCase())}, and that cannot be told from the action and the context (${f.message.replace(/\.$/, "")}).` };
  }
}
