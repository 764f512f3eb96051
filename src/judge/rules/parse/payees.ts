/**
 * A payee per host (x402): "quotes.example, which bills to 0xA.., and news.example, which bills to 0xB..", "pay only
 * to the payTo listed for that host" (with the hosts in a context map of host -> payTo). Two lists side by side (the
 * hosts, the addresses) would let one listed host be paid at another's address; the pairs say which goes with which.
 */
import type { Constraint } from "../types";
import { consume, scan, type Clause } from "../text";
import { add, type ParseState } from "./state";

type HostPayee = Extract<Constraint, { kind: "host_payee" }>;

/** Words tying a host to the address it is paid at, between the two placeholders. */
const LINK =
  /§h(\d+)\s*(?:,\s*)?(?:(?:which|that|who)\s+)?(?:(?:bills?|billing|invoices?|charges?|is\s+paid|gets\s+paid|paid|pays?|pay-?to|payee(?:\s+is)?|receiving\s+address)\s*(?:to|at|into|:|=|is)?|:|=|->|→|\(\s*(?:(?:pay-?to|payee|bills?|billing|paid)\s*(?:to|at)?\s*[:=]?)?)\s*(?:(?:the\s+)?(?:address|wallet)\s+)?§a(\d+)\s*\)?/gi;

/**
 * "the payTo listed for that host", "each host's own payee", "the address given for each host"; and where the host
 * is the list itself: "the address they registered there", "the payTo must be exactly the address registered there
 * for that host".
 */
const PER_HOST =
  /\b(?:(?:the\s+)?pay-?to\s+(?:must|has\s+to|should|shall|needs?\s+to)\s+(?:be|equal|match)\s+(?:exactly\s+)?)?(?:(?:the|its|their)\s+)?(?:pay-?to|payee|address|wallet|recipient)s?\s+(?:(?:that|which)\s+)?(?:(?:they|it|the\s+(?:host|vendor|seller|service|provider)s?)\s+)?(?:(?:have|has)\s+)?(?:listed|given|named|recorded|registered|configured)\s+(?:there|in\s+(?:it|that\s+(?:list|map|table))|on\s+(?:it|that\s+list))(?:\s+(?:for|against|under)\s+(?:that|each|the|its|this|every)\s+(?:host|domain|service|api|provider|endpoint|vendor))?\b|\b(?:(?:the|its|their)\s+)?(?:pay-?to|payee|address|wallet|recipient)s?\s+(?:listed|given|named|recorded|set|registered|configured)?\s*(?:for|against|under|beside|next to)\s+(?:that|each|the|its|this|every)\s+(?:host|domain|service|api|provider|endpoint)\b|\b(?:each|every|that|the)\s+(?:host|domain|service|provider)['’]s\s+(?:own\s+)?(?:pay-?to|payee|address|wallet)\b/gi;

export function parseHostPayees(c: Clause, st: ParseState, rule: string): void {
  const pairs: Array<[string, string]> = [];
  scan(c, LINK, (m) => {
    const host = c.refs.hosts[Number(m[1])];
    const addr = c.refs.addresses[Number(m[2])];
    if (!host || !addr) return false;
    pairs.push([host, addr]);
    // The placeholders stay for the host and recipient lists; only the words tying them are read here.
    const inner = m[0];
    const hostEnd = m.index + inner.indexOf("§h") + `§h${m[1]}`.length;
    const addrStart = m.index + inner.lastIndexOf("§a");
    consume(c, hostEnd, addrStart);
    const closeAt = inner.lastIndexOf(")");
    if (closeAt > inner.lastIndexOf("§a")) consume(c, m.index + closeAt, m.index + closeAt + 1);
    return false;
  });
  if (pairs.length) add(st, { kind: "host_payee", pairs, refs: [], rule });
  scan(c, PER_HOST, () => {
    add(st, { kind: "host_payee", pairs: [], refs: [], perHost: true, rule });
  });
}

/**
 * "if a service asks to be paid somewhere else, don't pay it": the payee rule restated as a condition. It adds
 * nothing when a payee rule exists, and it must not become a ban on every payment when split from its "if".
 */
export const RESTATED_PAYEE =
  /^\s*(?:and\s+|so\s+)?(?:if|when|whenever|should)\s+(?:a|the|any|some)\s+(?:service|host|seller|vendor|provider|site|api|endpoint|merchant|server|payee)\s+(?:asks?|wants?|requests?|tries|says)\s+(?:(?:for\s+)?(?:you\s+)?(?:to\s+)?(?:be\s+)?(?:paid|payment|pay(?:ing)?)\s+)(?:somewhere\s+else|elsewhere|to\s+(?:another|a\s+different|some\s+other|a\s+new|an?\s+unlisted)\s+(?:address|wallet|payee|account))\s*,?\s*(?:then\s+)?(?:don['’]?t|do\s+not|never|refuse\s+to)\s+pay(?:\s+(?:it|them|that))?\s*[.!]?\s*$/i;

/**
 * After the whole intent is read: a "for that host" rule takes its map from the host list the rules point at
 * (context.hosts of host -> payTo); with neither pairs nor a host map the rule is not understood.
 */
export function settleHostPayees(st: ParseState): void {
  // The host list the rules point at; failing that, a recipient list (a table keyed by host is both).
  const refsOf = (dim: string) => [...new Set(st.constraints.flatMap((k) => (k.kind === "allow" && k.dim === dim ? (k.refs ?? []) : [])))];
  const hostRefs = refsOf("host").length ? refsOf("host") : refsOf("recipient");
  const all = st.constraints.filter((k): k is HostPayee => k.kind === "host_payee");
  const written = all.flatMap((k) => k.pairs);
  for (const hp of all) {
    if (!hp.perHost || hp.pairs.length) continue;
    // "Payments go only to the address listed for each host": the pairs written elsewhere, else the host map.
    if (written.length) hp.pairs = [...written];
    else hp.refs = hostRefs;
    if (hp.pairs.length === 0 && hp.refs.length === 0) st.unknown.push(`Not understood: "${hp.rule}" (no payee is given for each host).`);
  }
}

/** A payee rule exists that binds payments to listed addresses (a restated "don't pay elsewhere" adds nothing). */
export function hasPayeeRule(st: ParseState): boolean {
  return st.constraints.some((k) => k.kind === "host_payee" || (k.kind === "allow" && k.dim === "recipient" && (k.values.length > 0 || (k.refs?.length ?? 0) > 0)));
}
