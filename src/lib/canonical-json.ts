/**
 * Canonical JSON (RFC 8785 style for the values we produce): object keys sorted by UTF-16 code units,
 * no whitespace, bigints as decimal strings, undefined members dropped. Receipts hash this form, so it
 * must be stable across processes and versions: never change it without versioning receipts.
 */
export function canonicalJson(value: unknown): string {
  return serialize(value);
}

// Object keys repeat from run to run (transcript kinds, fact names, venue fields): each is quoted once.
// Bounded, because keys also come from callers' JSON.
const quotedKeys = new Map<string, string>();
function quoteKey(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quotedKeys.size >= 4096) quotedKeys.clear();
    quotedKeys.set(k, q);
  }
  return q;
}

// Built by concatenation, without intermediate arrays: this runs for every transcript entry of every
// verification (docs/performance.md). A hole in an array reads as undefined, i.e. null.
function serialize(v: unknown): string {
  if (v === null) return "null";
  switch (typeof v) {
    case "string":
      return JSON.stringify(v);
    case "number":
      if (!Number.isFinite(v)) throw new TypeError("canonicalJson: non-finite number");
      return JSON.stringify(v);
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return JSON.stringify(v.toString());
    case "object": {
      if (Array.isArray(v)) {
        let out = "[";
        for (let i = 0; i < v.length; i++) {
          const x: unknown = v[i];
          out += (i === 0 ? "" : ",") + (x === undefined ? "null" : serialize(x));
        }
        return `${out}]`;
      }
      if (v instanceof Date) return JSON.stringify(v.toISOString());
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o).sort();
      let out = "{";
      for (const k of keys) {
        const x = o[k];
        if (x === undefined) continue;
        out += `${out.length === 1 ? "" : ","}${quoteKey(k)}:${serialize(x)}`;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`canonicalJson: unsupported type ${typeof v}`);
  }
}
