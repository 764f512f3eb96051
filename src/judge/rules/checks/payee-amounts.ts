/**
 * An amount per payee from the payee's entry in a context list (parse/payee-amounts.ts): each move is measured
 * against the figure beside its recipient. The entry is found by the address (as a key, or as a value of the entry);
 * its figure is the one number in it, or the one whose key names an amount. A payee without an entry, an entry with
 * no figure or with two candidates, or a figure in another token than the one moved, is a missing fact: the rule is
 * never taken as met by a figure it was not shown.
 */
import type { ActionView, Constraint, Finding } from "../types";
import { atPath, canonSym, normAddr, num, isRec } from "../context";
import { USD_STABLES } from "../vocab";

type Ctx = Record<string, unknown> | null;
type PayeeAmount = Extract<Constraint, { kind: "payee_amount" }>;

const sameAddr = (a: unknown, b: string): boolean => typeof a === "string" && /^(?:0x[0-9a-f]+|[1-9A-HJ-NP-Za-km-z]{32,44})$/i.test(a.trim()) && normAddr(a) === normAddr(b);

/** Keys that hold something other than the payee's amount: dates, ids, counts, shares, token metadata. */
const NOT_AMOUNT = /(?:^|_)(?:ids?|index|date|time|since|until|from|decimals|chain|nonce|count|bps|pct|percent|share|day|month|year|week|version)(?:_|$)/i;
const AMOUNT_KEY = /amount|salary|pay|fee|usd|usdc|usdt|dai|approved|sum|stipend|wage|grant|allocation|budget|rate|invoice|value/i;

/** Every entry of the list that belongs to `addr`: keyed by it, or naming it among its own values. */
function entriesOf(addr: string, val: unknown, depth = 0): unknown[] {
  if (depth > 3) return [];
  const out: unknown[] = [];
  if (Array.isArray(val)) for (const x of val) out.push(...(isRec(x) && Object.values(x).some((v) => sameAddr(v, addr)) ? [x] : entriesOf(addr, x, depth + 1)));
  else if (isRec(val))
    for (const [k, x] of Object.entries(val)) {
      if (sameAddr(k, addr)) out.push(x);
      else if (isRec(x) && Object.values(x).some((v) => sameAddr(v, addr))) out.push(x);
      else if (typeof x === "object" && x !== null) out.push(...entriesOf(addr, x, depth + 1));
    }
  return out;
}

/** The entry's figure and the unit its key names (null: none named), or null when there is not exactly one. */
function figureOf(entry: unknown): { value: number; unit: string | null } | null {
  const n = num(entry);
  if (n !== null) return { value: n, unit: null };
  if (!isRec(entry)) return null;
  const nums = Object.entries(entry).filter(([k, v]) => num(v) !== null && !NOT_AMOUNT.test(k));
  const pick = nums.length === 1 ? nums : nums.filter(([k]) => AMOUNT_KEY.test(k));
  if (pick.length !== 1) return null;
  const [key, v] = pick[0];
  const unit = /(?:^|_)(usd|usdc|usdt|dai|eth|weth|sol|btc|strk|hype|[a-z]{3,5})$/i.exec(key.replace(/^(?:amount|approved|salary|fee|monthly|budget|pay)$/i, ""));
  return { value: num(v) as number, unit: unit && unit[1].toLowerCase() !== "amount" ? unit[1].toUpperCase() : null };
}

/** "awarded_usdc minus paid_usdc": both fields must be numbers in the entry; the unit is the first one's. */
function differenceOf(entry: unknown, d: { plus: string; minus: string }): { value: number; unit: string | null } | null {
  if (!isRec(entry)) return null;
  const field = (k: string): number | null => num(Object.entries(entry).find(([key]) => key.toLowerCase() === k.toLowerCase())?.[1]);
  const a = field(d.plus);
  const b = field(d.minus);
  if (a === null || b === null) return null;
  const unit = /(?:^|_)(usd|usdc|usdt|dai|eth|weth|sol|btc|strk|hype)$/i.exec(d.plus);
  return { value: a - b, unit: unit ? unit[1].toUpperCase() : null };
}

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

export function checkPayeeAmount(c: PayeeAmount, view: ActionView, ctx: Ctx): Finding[] {
  const moves = view.moves.filter((m) => m.to !== null);
  if (moves.length === 0) return [];
  const missing = c.refs.filter((r) => atPath(ctx, r) === undefined);
  if (missing.length) return [{ type: "unknown", message: `The rule "${c.rule}" refers to ${missing.join(", ")}, which the context does not provide.` }];
  const out: Finding[] = [];
  for (const m of moves) {
    const entries = c.refs.flatMap((r) => entriesOf(m.to as string, atPath(ctx, r)));
    if (entries.length === 0) continue; // not a listed payee: the recipient list decides that.
    const figs = entries.map((e) => (c.diff ? differenceOf(e, c.diff) : figureOf(e)));
    const fig = figs[0];
    if (!fig || figs.some((f) => !f || !close(f.value, fig.value))) {
      out.push({ type: "unknown", message: `The list entry for ${m.to} does not give one amount, so "${c.rule}" cannot be checked.` });
      continue;
    }
    const asset = canonSym(m.asset);
    const inUsd = fig.unit === "USD";
    if (fig.unit && !inUsd && asset && fig.unit !== asset) {
      out.push({ type: "unknown", message: `The amount listed for ${m.to} is in ${fig.unit}, but the payment is in ${asset}; "${c.rule}" cannot be checked.` });
      continue;
    }
    const paid = inUsd ? (asset && USD_STABLES.has(asset) ? m.amount : m.usd) : m.amount;
    if (paid === null) {
      out.push({ type: "unknown", message: `The amount of the payment to ${m.to} is not shown, so "${c.rule}" cannot be checked.` });
      continue;
    }
    const shown = `${fig.value}${fig.unit ? ` ${fig.unit}` : ""}${c.diff ? ` (${c.diff.plus} minus ${c.diff.minus})` : ""}`;
    if (c.mode === "exact" && !close(paid, fig.value)) out.push({ type: "violation", message: `The payment of ${paid} ${m.asset ?? ""} to ${m.to} is not the ${shown} listed for that payee ("${c.rule}").` });
    if (c.mode === "max" && paid > fig.value && !close(paid, fig.value)) out.push({ type: "violation", message: `The payment of ${paid} ${m.asset ?? ""} to ${m.to} is more than the ${shown} listed for that payee ("${c.rule}").` });
  }
  return out;
}
