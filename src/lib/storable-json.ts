/**
 * The one rule for text the database cannot store, shared by every transport (HTTP bodies in
 * src/http/body.ts, MCP tool arguments in src/mcp/server.ts): PostgreSQL refuses U+0000 in text and jsonb
 * (SQLSTATE 22021) and a lone UTF-16 surrogate in jsonb, so both are refused up front as the caller's input,
 * naming where they are, instead of failing in a query as an internal error. JSON literals too large for a
 * double parse to Infinity, which neither JSON nor receipts can carry. Deeper nesting than MAX_JSON_DEPTH is
 * refused too. Iterative, so hostile nesting cannot exhaust the stack.
 */

/** Deeper JSON than this is refused: no real action nests this far, and recursion over it must stay bounded. */
export const MAX_JSON_DEPTH = 64;

export interface Unstorable {
  /** Where the value is, from the root (object keys and array indexes); empty for the root itself. */
  path: (string | number)[];
  reason: string;
}

const TEXT = "must be valid Unicode without NUL characters (U+0000) or lone surrogates";

const storable = (s: string): boolean => !s.includes("\u0000") && s.isWellFormed();

/** The first value under `root` the database cannot store, with its path, or null. */
export function findUnstorable(root: unknown): Unstorable | null {
  const stack: [unknown, (string | number)[]][] = [[root, []]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return { path, reason: "numbers must be finite (a literal such as 1e400 overflows)" };
    } else if (typeof v === "string") {
      if (!storable(v)) return { path, reason: `text ${TEXT}` };
    } else if (v && typeof v === "object") {
      if (path.length >= MAX_JSON_DEPTH) return { path: path.slice(0, 3), reason: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` };
      if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], [...path, i]]);
      else
        for (const [k, x] of Object.entries(v).reverse()) {
          if (!storable(k)) return { path, reason: `keys ${TEXT}` };
          stack.push([x, [...path, k]]);
        }
    }
  }
  return null;
}

/** `where: reason`, as every validation message reads (`root` names the top level). */
export function describeUnstorable(u: Unstorable, root: string): string {
  return `${u.path.length ? u.path.join(".") : root}: ${u.reason}`;
}
