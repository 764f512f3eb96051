/**
 * Venue selection and detection (SPEC 4.1). `resolveVenue` turns a caller's selector into an adapter id;
 * `detectAction` turns an object action into Facts, trying the selected adapter first and then detecting
 * by shape. Both run on every request: they are synchronous, cheap, and never throw.
 */
import type { Facts } from "./types";
import { ADAPTER_IDS, isAdapterId, MCP_VENUE_ENUM, type AdapterId } from "./ids";
import { ADAPTERS, DETECTION_ORDER } from "./adapters";

export { ADAPTER_IDS, MCP_VENUE_ENUM, ADAPTERS };
export type { AdapterId };

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

const ALIASES: Map<string, AdapterId> = (() => {
  const m = new Map<string, AdapterId>();
  for (const id of ADAPTER_IDS) for (const a of ADAPTERS[id].aliases) if (!m.has(norm(a))) m.set(norm(a), id);
  return m;
})();

/** Lower-case, strip punctuation, then match an id, an alias, or an unambiguous id prefix; else null. */
export function resolveVenue(selector: string | null | undefined): AdapterId | null {
  if (typeof selector !== "string" || selector.length > 100) return null;
  const s = norm(selector);
  if (!s) return null;
  if (isAdapterId(s)) return s;
  const alias = ALIASES.get(s);
  if (alias) return alias;
  if (s.length < 2) return null;
  const hits = ADAPTER_IDS.filter((id) => id.startsWith(s));
  return hits.length === 1 ? hits[0] : null;
}

function attempt(fn: () => Facts | null): Facts | null {
  try {
    return fn();
  } catch {
    return null;
  }
}

function safeContext(context: unknown): Record<string, unknown> | null {
  return typeof context === "object" && context !== null && !Array.isArray(context) ? (context as Record<string, unknown>) : null;
}

/**
 * Facts for an object action, or null when no adapter recognises it (the caller then judges it as JSON).
 * Strings are never classified. A selected venue that does not recognise the payload is noted in the
 * warnings of whatever shape detection finds, since a mislabelled action is itself worth a look.
 */
export function detectAction(action: unknown, venueId: AdapterId | null, context?: Record<string, unknown> | null): Facts | null {
  if (typeof action !== "object" || action === null) return null;
  const ctx = safeContext(context);
  const chosen = venueId && isAdapterId(venueId) ? ADAPTERS[venueId] : null;
  if (chosen) {
    const f = attempt(() => chosen.describe(action, ctx));
    if (f) return f;
  }
  for (const adapter of DETECTION_ORDER) {
    if (adapter === chosen) continue;
    const f = attempt(() => (adapter.matches(action, ctx) ? adapter.describe(action, ctx) : null));
    if (f) {
      if (chosen && f.venue !== chosen.id) f.warnings.push(`the selected venue "${chosen.id}" does not recognise this payload; detected as ${f.venue}`);
      return f;
    }
  }
  return null;
}
