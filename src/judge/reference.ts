/**
 * SPEC 4.1 `context.reference`: an object `{source?: string, excerpt: string}` with a non-empty (after trim)
 * string `excerpt` is taken out of CONTEXT and shown to the judge as a fenced, untrusted REFERENCE block.
 *  - excerpt: trimmed, fence markers removed, cut at 4,000 characters with "[...]" appended when cut.
 *  - source:  trimmed, fence markers removed, cut at 300 characters (nothing appended). Absent or empty -> omitted.
 *  - Any other shape (not a plain object, array, missing/non-string/blank excerpt, source present but not a string,
 *    including null) stays in CONTEXT unchanged as ordinary data.
 * Details decided here:
 *  - "fence markers" = runs of three or more backticks or tildes; they are deleted, then the text is trimmed again.
 *  - "characters" = Unicode code points (a cut never splits a surrogate pair).
 *  - Keys other than `source` and `excerpt` on an otherwise valid reference are dropped (not shown anywhere).
 */
import type { Reference } from "./types";

export const EXCERPT_MAX = 4000;
export const SOURCE_MAX = 300;
export const CUT_MARK = "[...]";

const FENCE_RUN = /`{3,}|~{3,}/g;

export function stripFenceMarkers(s: string): string {
  return s.replace(FENCE_RUN, "");
}

function cut(s: string, max: number): { text: string; cut: boolean } {
  // A string never holds more code points than UTF-16 units: most need no splitting at all.
  if (s.length <= max) return { text: s, cut: false };
  const cps = Array.from(s);
  if (cps.length <= max) return { text: s, cut: false };
  return { text: cps.slice(0, max).join(""), cut: true };
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Returns the sanitized reference, or null when `ref` is not of the separable shape. */
export function parseReference(ref: unknown): Reference | null {
  if (!isPlainObject(ref)) return null;
  const { excerpt, source } = ref;
  if (typeof excerpt !== "string" || excerpt.trim() === "") return null;
  if (source !== undefined && typeof source !== "string") return null;

  const ex = cut(stripFenceMarkers(excerpt.trim()).trim(), EXCERPT_MAX);
  const out: Reference = { excerpt: ex.cut ? `${ex.text}${CUT_MARK}` : ex.text };
  if (typeof source === "string") {
    const src = cut(stripFenceMarkers(source.trim()).trim(), SOURCE_MAX).text;
    if (src !== "") out.source = src;
  }
  return out;
}

/**
 * Splits `context.reference` out of the caller's context. `context` that is not a plain object yields
 * `{context: null, reference: null}`; the caller validates shapes before this (SPEC 4.1: context is an object).
 */
export function splitReference(context: unknown): { context: Record<string, unknown> | null; reference: Reference | null } {
  if (!isPlainObject(context)) return { context: null, reference: null };
  if (!Object.prototype.hasOwnProperty.call(context, "reference")) return { context: { ...context }, reference: null };
  const reference = parseReference(context.reference);
  if (!reference) return { context: { ...context }, reference: null };
  const rest: Record<string, unknown> = { ...context };
  delete rest.reference;
  return { context: rest, reference };
}
