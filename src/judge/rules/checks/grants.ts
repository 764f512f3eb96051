/**
 * Checks moves against the grants of an intent (parse/grants.ts explains how they are built).
 *
 * Each move the action makes is judged on its own (a multicall paying a grantee and a reviewer has two moves).
 * The grants that can cover it are those whose activities include the action's and whose assets name the move's
 * asset. The move passes when it fits one of them completely: that grant's recipients and every one of its caps.
 * When none fits: a grant that could only not be checked (a list missing from the context, an unknown price) makes
 * it a question for a human; otherwise it is refused with the first candidate's reason. A move of an asset no grant
 * names is refused, or held for a human when the owner said "anything else: ask me". Global rules (deny lists,
 * prohibitions, period caps, chain scope) are checked elsewhere and still bind every move.
 */
import type { ActionView, Finding, GrantRule } from "../types";
import { canonSym } from "../context";
import { GRANT_MOVES } from "../parse/grants";
import { checkCap } from "./amounts";
import { checkList } from "./lists";

type Ctx = Record<string, unknown> | null;

function fits(g: GrantRule, view: ActionView, ctx: Ctx): Finding[] {
  const out: Finding[] = [];
  if (g.recipients.length || g.refs.length)
    out.push(...checkList({ kind: "allow", dim: "recipient", values: g.recipients, refs: g.refs, activities: [], rule: g.rule }, view, ctx));
  else if (g.openRecipients)
    out.push({ type: "unknown", message: `"${g.rule}" does not say to whom, while the other permissions do, so whether ${view.moves[0]?.to ?? "this recipient"} may be paid under it is unclear.` });
  for (const c of g.caps) out.push(...checkCap(c, view, ctx));
  return out;
}

export function checkGrants(grants: GrantRule[], view: ActionView, ctx: Ctx): Finding[] {
  const acts = view.activities.filter((a) => GRANT_MOVES.includes(a));
  const covering = grants.filter((g) => g.activities.some((a) => acts.includes(a)));
  const out: Finding[] = [];
  // Lists that named no activity bound every action; folded into grants they cannot say how they bind this one.
  const other = view.activities.filter((a) => !GRANT_MOVES.includes(a) && a !== "cancel");
  const universal = grants.find((g) => g.universal);
  if (other.length && universal && !covering.length)
    out.push({ type: "unknown", message: `The rules give their assets and recipients per permission ("${universal.rule}"); whether they allow ${view.summary} is unclear.` });
  if (covering.length === 0) return out;
  if (view.moves.length === 0) return [...out, { type: "unknown", message: `The action does not show what it moves, so which permission covers it cannot be told.` }];
  for (const m of view.moves) {
    const sub: ActionView = { ...view, moves: [m], swap: null, orders: [], recipients: m.to ? [m.to] : [], assets: m.asset ? [m.asset] : [] };
    const asset = canonSym(m.asset);
    if (!asset || asset === "UNKNOWN") {
      out.push({ type: "unknown", message: `The asset moved is not identified, so which permission covers it cannot be told.` });
      continue;
    }
    const cands = covering.filter((g) => g.assets.some((a) => canonSym(a) === asset));
    if (cands.length === 0) {
      const named = grants.map((g) => g.assets.join("/")).join(", ");
      out.push(
        covering[0].askOtherwise
          ? { type: "unknown", message: `No permission covers ${asset} (they name ${named}), and the owner asks to be consulted on anything else.` }
          : { type: "violation", message: `The asset ${asset} is not one any permission allows (they name ${named}: "${covering.map((g) => g.rule).join("; ")}").` },
      );
      continue;
    }
    const results = cands.map((g) => fits(g, sub, ctx));
    if (results.some((r) => r.length === 0)) continue;
    const soft = results.find((r) => r.every((f) => f.type !== "violation"));
    out.push(...(soft ?? results[0]));
  }
  return out;
}
