/**
 * Canonical JSON (RFC 8785 style for the values we produce): object keys sorted by UTF-16 code units,
 * no whitespace, bigints as decimal strings, undefined members dropped. Receipts hash this form, so it
 * must be stable across processes and versions: never change it without versioning receipts.
 */
export function canonicalJson(value: unknown): string {
  return serialize(value);
}

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
      if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? "null" : serialize(x))).join(",")}]`;
      if (v instanceof Date) return JSON.stringify(v.toISOString());
      const keys = Object.keys(v as object)
        .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${serialize((v as Record<string, unknown>)[k])}`).join(",")}}`;
    }
    default:
      throw new TypeError(`canonicalJson: unsupported type ${typeof v}`);
  }
}
