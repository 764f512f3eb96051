/**
 * A health-factor floor, checked on the actions that can lower it: a borrow (anywhere) and a withdrawal from a
 * lending venue. The factor after the action comes from the context's figures only (never guessed):
 * - a borrow with a current health factor and debt: HF x debt / (debt + borrow), since the collateral is unchanged;
 *   with no debt yet, collateral x liquidation threshold / borrow;
 * - a withdrawal of collateral: (collateral - withdrawal) x liquidation threshold / debt.
 * Supplying and repaying only raise it. Any missing figure: the floor cannot be checked (ESCALATE).
 */
import type { ActionView, Constraint, Finding } from "../types";
import { atPath, describedPath, num } from "../context";
import { measure } from "./amounts";

type Ctx = Record<string, unknown> | null;

const figure = (ctx: Ctx, word: string): number | null => {
  const path = describedPath(ctx, `~${word}`);
  return path === null ? null : num(atPath(ctx, path));
};

export function checkHealthFloor(c: Extract<Constraint, { kind: "health_floor" }>, view: ActionView, ctx: Ctx): Finding[] {
  const borrow = view.activities.includes("borrow");
  // Taking supplied collateral out of a lending market ("redeem": Aave's and Morpho's withdraw).
  const withdraw = view.activities.includes("redeem");
  if (!borrow && !withdraw) return [];
  const unknown = (why: string): Finding[] => [{ type: "unknown", message: `${why}, so the health factor after this action ("${c.rule}") cannot be computed.` }];
  const items = measure(view, "USD", ctx);
  if (items.length === 0 || items.some((i) => i.value === null)) return unknown("The action's dollar amount is not known");
  const amount = items.reduce((s, i) => s + (i.value ?? 0), 0);
  const debt = figure(ctx, "debt");
  const hf = figure(ctx, "health");
  const collateral = figure(ctx, "collateral");
  const lt = figure(ctx, "threshold");
  let after: number | null = null;
  if (borrow && hf !== null && debt !== null && debt > 0) after = (hf * debt) / (debt + amount);
  else if (borrow && collateral !== null && lt !== null) after = (collateral * lt) / ((debt ?? 0) + amount);
  else if (withdraw && collateral !== null && lt !== null && debt !== null) after = debt > 0 ? ((collateral - amount) * lt) / debt : Infinity;
  if (after === null) return unknown("The context does not give the position's health factor and debt (or collateral and liquidation threshold)");
  const below = c.strict ? after <= c.min : after < c.min - 1e-9;
  return below ? [{ type: "violation", message: `The health factor after this action would be about ${after.toFixed(2)}, below the ${c.min} floor ("${c.rule}").` }] : [];
}
