/**
 * Field-level diff of a wallet's rules (mandate and limits), and the split of a change into what applies at
 * once and what must wait for the owner (issue 18, attack 1). Pure.
 *
 * A field loosens when the new value permits something the old one did not: a cap raised or removed, an
 * allowlist removed or given a new entry, the mandate replaced or cleared (the service cannot judge prose,
 * so any new mandate may permit more). It tightens when it permits strictly less: a cap lowered or added, an
 * allowlist added or entries removed. An allowlist that gains and loses entries does both: its tightening
 * part (the entries it keeps) applies at once, the whole new list waits (docs/decisions.md).
 */
import { LIMIT_NAMES, type LimitName, type Limits } from "./limits";

export type RuleField = "mandate" | LimitName | "whoMayLoosen";
export type Effect = "loosened" | "tightened" | "changed";

export interface FieldChange {
  field: RuleField;
  from: unknown;
  to: unknown;
  effect: Effect;
  /** Plain language, as the update reply and the dashboard show it. */
  text: string;
}

export interface Rules {
  mandate: string | null;
  limits: Limits;
}

/** What a pending change sets on approval: a field's new value, `null` to remove a limit or clear the mandate. */
export type RulesPatch = { mandate?: string | null } & { [K in LimitName]?: Limits[K] | null };

const isList = (k: LimitName): k is "tokenAllowlist" | "recipientAllowlist" => k === "tokenAllowlist" || k === "recipientAllowlist";

function capChange(k: "maxPerTxUsd" | "dailyCapUsd", a: number | undefined, b: number | undefined): FieldChange | null {
  if (a === b) return null;
  const what = k === "maxPerTxUsd" ? "per-transaction" : "daily";
  if (b === undefined) return { field: k, from: a, to: null, effect: "loosened", text: `${k} removed (was ${a} USD): no ${what} USD cap now` };
  if (a === undefined) return { field: k, from: null, to: b, effect: "tightened", text: `${k} set to ${b} USD` };
  return b > a
    ? { field: k, from: a, to: b, effect: "loosened", text: `${k} raised from ${a} to ${b} USD` }
    : { field: k, from: a, to: b, effect: "tightened", text: `${k} lowered from ${a} to ${b} USD` };
}

/** Both lists hold canonical forms (normaliseLimits), so equal strings are the same entry on any chain. */
function listChanges(k: "tokenAllowlist" | "recipientAllowlist", a: string[] | undefined, b: string[] | undefined): FieldChange[] {
  const any = k === "tokenAllowlist" ? "token" : "recipient";
  if (!a && !b) return [];
  if (a && !b) return [{ field: k, from: a, to: null, effect: "loosened", text: `${k} removed: any ${any} is allowed now` }];
  if (!a && b) return [{ field: k, from: null, to: b, effect: "tightened", text: `${k} set: only ${b.join(", ")}` }];
  const had = new Set(a);
  const has = new Set(b);
  const added = b!.filter((x) => !had.has(x));
  const removed = a!.filter((x) => !has.has(x));
  const out: FieldChange[] = [];
  if (added.length) out.push({ field: k, from: a, to: b, effect: "loosened", text: `${k} now also allows ${added.join(", ")}` });
  if (removed.length) out.push({ field: k, from: a, to: b, effect: "tightened", text: `${k} no longer allows ${removed.join(", ")}` });
  return out;
}

function mandateChange(a: string | null, b: string | null): FieldChange | null {
  if (a === b) return null;
  return b === null
    ? { field: "mandate", from: a, to: null, effect: "loosened", text: "mandate cleared: the judge has no rules to check, so proposals escalate to the owner" }
    : { field: "mandate", from: a, to: b, effect: "loosened", text: "mandate replaced: the judge now applies the new text, which may permit actions the old one did not" };
}

/** Every field-level change from `prev` to `next`, mandate first, then the limits in their usual order. */
export function diffRules(prev: Rules, next: Rules): FieldChange[] {
  const out: FieldChange[] = [];
  const m = mandateChange(prev.mandate, next.mandate);
  if (m) out.push(m);
  for (const k of LIMIT_NAMES) {
    if (isList(k)) out.push(...listChanges(k, prev.limits[k], next.limits[k]));
    else {
      const c = capChange(k, prev.limits[k], next.limits[k]);
      if (c) out.push(c);
    }
  }
  return out;
}

export interface Split {
  /** The rules to store now: every tightening field, and the kept entries of an allowlist that also gains some. */
  now: Rules;
  /** The loosening fields, to set on the owner's approval (empty when nothing loosens). */
  held: RulesPatch;
}

/**
 * Splits `prev -> next` for a wallet whose owner alone may loosen: each field that loosens keeps its current
 * value now and goes into `held` with its requested value.
 */
export function splitLoosening(prev: Rules, next: Rules): Split {
  const now: Rules = { mandate: next.mandate, limits: { ...next.limits } };
  const held: RulesPatch = {};
  if (prev.mandate !== next.mandate) {
    now.mandate = prev.mandate;
    held.mandate = next.mandate;
  }
  for (const k of LIMIT_NAMES) {
    const loosens = diffRules({ mandate: null, limits: { [k]: prev.limits[k] } }, { mandate: null, limits: { [k]: next.limits[k] } }).some((c) => c.effect === "loosened");
    if (!loosens) continue;
    (held as Record<string, unknown>)[k] = next.limits[k] ?? null;
    if (isList(k)) {
      const a = prev.limits[k];
      const b = new Set(next.limits[k] ?? []);
      // The entries both lists hold: dropping the others tightens, and applies at once (never to an empty list).
      const kept = a?.filter((x) => b.has(x)) ?? [];
      if (a && kept.length) now.limits[k] = kept;
      else if (a) now.limits[k] = a;
      else delete now.limits[k];
    } else if (prev.limits[k] === undefined) delete now.limits[k];
    else now.limits[k] = prev.limits[k];
  }
  return { now: { mandate: now.mandate, limits: ordered(now.limits) }, held };
}

/** Limits with their keys in the usual order (the stored JSON of equal limits is then the same text). */
export function ordered(l: Limits): Limits {
  const out: Limits = {};
  for (const k of LIMIT_NAMES) if (l[k] !== undefined) (out as Record<string, unknown>)[k] = l[k];
  return out;
}

export const isEmptyPatch = (p: RulesPatch): boolean => Object.keys(p).length === 0;

/** Applies a pending change on top of the rules as they are now: each field it names takes its requested value. */
export function applyPatch(current: Rules, patch: RulesPatch): Rules {
  const out: Rules = { mandate: current.mandate, limits: { ...current.limits } };
  if (patch.mandate !== undefined) out.mandate = patch.mandate;
  for (const k of LIMIT_NAMES) {
    const v = patch[k];
    if (v === undefined) continue;
    if (v === null) delete out.limits[k];
    else (out.limits as Record<string, unknown>)[k] = v;
  }
  return { mandate: out.mandate, limits: ordered(out.limits) };
}

/** The patch as the limits merge takes it (the mandate separately). */
export function limitsPatchOf(p: RulesPatch): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of LIMIT_NAMES) if (p[k] !== undefined) out[k] = p[k];
  return out;
}

export const loosenedOf = (cs: FieldChange[]) => cs.filter((c) => c.effect === "loosened").map((c) => c.text);
export const tightenedOf = (cs: FieldChange[]) => cs.filter((c) => c.effect === "tightened").map((c) => c.text);
