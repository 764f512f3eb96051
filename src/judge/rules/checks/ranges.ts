/**
 * Floors: "between 5 and 50 USDC" (with the cap at its top, checked by amounts.ts), "min payment: 5 USDC", and a
 * prediction order's lowest share price. A figure that cannot be computed is a missing fact; an amount below the
 * floor is a violation, however small (a minimum is never read as a maximum).
 */
import type { ActionView, Constraint, Finding } from "../types";
import { qty } from "../text";
import { inScope, measure } from "./amounts";

type Ctx = Record<string, unknown> | null;
const cap1 = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

export function checkFloor(c: Extract<Constraint, { kind: "floor" }>, view: ActionView, ctx: Ctx): Finding[] {
  if (!inScope(c.scope, view)) return [];
  const out: Finding[] = [];
  const limit = qty(c.limit.value, c.limit.unit);
  const items = measure(view, c.limit.unit, ctx);
  // An action in scope that is not measured in the floor's unit (a SOL send under a USDC minimum) is not held to it.
  for (const it of items) {
    if (it.value === null) out.push({ type: "unknown", message: `${cap1(it.what)} cannot be computed, so the ${limit} minimum ("${c.rule}") cannot be checked.` });
    else if (it.value < c.limit.value - 1e-9) out.push({ type: "violation", message: `${cap1(it.what)} is ${qty(it.value, c.limit.unit)}, below the ${limit} minimum ("${c.rule}").` });
  }
  return out;
}

export function checkPriceFloor(c: Extract<Constraint, { kind: "price_floor" }>, view: ActionView): Finding[] {
  const out: Finding[] = [];
  for (const o of view.orders) {
    if (o.marketType !== "prediction") continue;
    if (o.price === null) out.push({ type: "unknown", message: `The order carries no limit price, so "${c.rule}" cannot be checked.` });
    else if (o.price < c.min - 1e-9) out.push({ type: "violation", message: `The order's price of $${o.price} a share is below the $${c.min} floor ("${c.rule}").` });
  }
  return out;
}
