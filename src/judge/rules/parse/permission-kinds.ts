/**
 * Which permission a clause speaks of. "It shall not approve any agent wallet" forbids agent approvals, not every
 * permission change (it had blocked the builder-fee approval the same resolution allows); "never approve builder
 * fees" forbids builder-fee approvals only. A clause that names both, or "permissions" in general, or sub-accounts,
 * keeps the whole ban.
 *
 * Also the fee-rate limit of a builder-fee approval: "at a max fee rate of at most 0.05%".
 *
 * Invariant: narrowing applies only to a `forbid` whose clause names exactly one kind; the check then skips only
 * actions whose approvals are all of another *known* kind, so an action the adapter does not label stays forbidden.
 */
import type { Constraint } from "../types";
import { scan, type Clause } from "../text";
import { add, type ParseState } from "./state";

const AGENT = /\b(?:api|agent)(?:\s*\/\s*(?:api|agent))?\s+(?:wallets?|keys?)\b|\bagents?\b|\bapi\s+keys?\b/i;
const BUILDER = /\bbuilder(?:[- ]?(?:fees?|codes?))?\b/i;
const GENERAL = /\bpermissions?\b|\bsub[- ]?accounts?\b|\b(?:token\s+)?approvals\b|\ballowances?\b|\bkeys\b(?!\s*\))/i;

export function permissionKindOf(text: string): "agent" | "builderFee" | null {
  if (GENERAL.test(text.replace(/\bapi\s+keys?\b|\bagent\s+keys?\b/gi, " "))) return null;
  const agent = AGENT.test(text);
  const builder = BUILDER.test(text);
  if (agent && !builder) return "agent";
  if (builder && !agent) return "builderFee";
  return null;
}

/** Narrows the permission bans this clause produced to the one kind it names. */
export function narrowPermissionBans(c: Clause, st: ParseState, from: number): void {
  const kind = permissionKindOf(c.text);
  if (!kind) return;
  for (const k of st.constraints.slice(from)) {
    if (k.kind !== "forbid" || !k.activities.includes("permission")) continue;
    k.permissionKind = kind;
    k.activities = k.activities.filter((a) => a !== "subaccount" && a !== "approval");
    k.label = kind === "agent" ? "approving agent wallets" : "approving builder fees";
  }
}

const FEE_RATE = /\b(?:(?:at|with)\s+(?:a\s+)?)?(?:max(?:imum)?\s+)?fee(?:\s+rate)?\s+(?:of\s+)?(?:at most|up to|no more than|not (?:more|above) than|max(?:imum)?|capped at|≤)\s+(\d+(?:\.\d+)?)\s*%/gi;

/** "at a max fee rate of at most 0.05%" in a builder-fee clause. */
export function parseFeeRate(c: Clause, st: ParseState, rule: string): void {
  if (!BUILDER.test(c.text)) return;
  scan(c, FEE_RATE, (m) => add(st, { kind: "fee_rate_cap", maxPct: Number(m[1]), rule } as Constraint));
}
