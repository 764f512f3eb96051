/**
 * A payee per host: the payment for a resource on host H must go to the address the rules (or the context map the
 * rules name) give for H. An address listed for another host is refused; a host with no payee listed, or a
 * payment whose host or payee is not shown, is a missing fact.
 */
import type { ActionView, Constraint, Finding } from "../types";
import { addressesIn, atPath, normAddr, isRec } from "../context";

type Ctx = Record<string, unknown> | null;
type HostPayee = Extract<Constraint, { kind: "host_payee" }>;

export const hostOf = (s: string): string => s.trim().toLowerCase().replace(/^https?:\/\//, "").replace(/[/:].*$/, "").replace(/\.$/, "");

const HOSTNAME = /^(?:https?:\/\/)?[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:[/:].*)?$/i;
const hostField = (x: Record<string, unknown>): string | undefined => [x.host, x.domain, x.hostname, x.url].find((v) => typeof v === "string") as string | undefined;

/**
 * A context table that pairs hosts with payees: a map keyed by host names ({"api.x.example": "0x.."}) or a list of
 * entries that each name a host ([{host, pay_to}]). Such a table says which address goes with which host.
 */
export function isHostTable(val: unknown): boolean {
  if (Array.isArray(val)) return val.some((x) => isRec(x) && hostField(x) !== undefined);
  return isRec(val) && Object.keys(val).some((k) => HOSTNAME.test(k) && !/^0x/i.test(k));
}

/** The entry of a host in a context map ({host: {payTo}} or {host: "0x.."}) or list ([{host, payTo}]). */
export function entryFor(host: string, val: unknown): unknown {
  if (isRec(val)) {
    for (const [k, x] of Object.entries(val)) if (hostOf(k) === host) return x;
    return undefined;
  }
  if (Array.isArray(val))
    for (const x of val) {
      if (!isRec(x)) continue;
      const named = hostField(x);
      if (named && hostOf(named) === host) return x;
    }
  return undefined;
}

/** Addresses an entry names as the payee: a dedicated field when there is one, else every address in it. */
export function payeesIn(entry: unknown): string[] {
  if (isRec(entry)) {
    for (const k of ["payTo", "pay_to", "payto", "payee", "payees", "address", "wallet", "recipient"]) {
      const found = addressesIn(entry[k]);
      if (found.length) return found;
    }
  }
  return addressesIn(entry);
}

export function checkHostPayee(c: HostPayee, view: ActionView, ctx: Ctx): Finding[] {
  if (!view.activities.includes("payment")) return [];
  const tos = [...new Set([...view.moves.map((m) => m.to).filter((t): t is string => !!t), ...(view.moves.length ? [] : view.recipients)])];
  if (view.hosts.length === 0) return [{ type: "unknown", message: `The payment does not show which host it is for, so "${c.rule}" cannot be checked.` }];
  if (tos.length === 0) return [{ type: "unknown", message: `The payment does not show whom it pays, so "${c.rule}" cannot be checked.` }];
  const out: Finding[] = [];
  for (const host of view.hosts.map(hostOf)) {
    const allowed = new Set<string>();
    for (const [h, a] of c.pairs) if (hostOf(h) === host) allowed.add(normAddr(a));
    const missingRefs: string[] = [];
    for (const ref of c.refs) {
      const val = atPath(ctx, ref);
      if (val === undefined) missingRefs.push(ref);
      else for (const a of payeesIn(entryFor(host, val))) allowed.add(normAddr(a));
    }
    if (allowed.size === 0) {
      const why = missingRefs.length ? `the context does not provide ${missingRefs.join(", ")}` : `no payee is listed for ${host}`;
      out.push({ type: "unknown", message: `${why.charAt(0).toUpperCase()}${why.slice(1)}, so "${c.rule}" cannot be checked.` });
      continue;
    }
    const wrong = tos.filter((t) => !allowed.has(normAddr(t)));
    if (wrong.length) out.push({ type: "violation", message: `The payment for ${host} goes to ${wrong[0]}, which is not the payee listed for ${host} ("${c.rule}").` });
  }
  return out;
}
