import type { Context } from "hono";
import type { z } from "zod";
import { ServiceError } from "../lib/errors";

/** Maps the first validation issue to the SPEC error body: a sentence for some fields, else invalid_input. */
export type IssueMapper = (issue: z.core.$ZodIssue) => { error: string; message?: string } | null;

export function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.join(".") : "body";
  return `${where}: ${issue.message}`;
}

/** Reads a JSON body (the size limit is enforced by middleware before this). */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError("invalid_input", "invalid JSON body", "the request body is not valid JSON");
  }
}

/** Deeper JSON than this is refused: no real action nests this far, and recursion over it must stay bounded. */
export const MAX_JSON_DEPTH = 64;

/**
 * Why a JSON value cannot be accepted, or null. PostgreSQL cannot store U+0000 in text or jsonb, nor a lone
 * UTF-16 surrogate in jsonb, so both are refused up front (400) rather than failing in the database (500).
 * JSON literals too large for a double parse to Infinity, which neither JSON nor receipts can carry.
 * Iterative, so hostile nesting cannot exhaust the stack.
 */
export function unacceptableJson(root: unknown): string | null {
  const storable = (s: string): boolean => !s.includes("\u0000") && s.isWellFormed();
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return "numbers must be finite (a literal such as 1e400 overflows)";
    } else if (typeof v === "string") {
      if (!storable(v)) return "strings must be valid Unicode without NUL characters (U+0000) or lone surrogates";
    } else if (v && typeof v === "object") {
      if (depth >= MAX_JSON_DEPTH) return `JSON nested deeper than ${MAX_JSON_DEPTH} levels`;
      if (Array.isArray(v)) for (const x of v) stack.push([x, depth + 1]);
      else
        for (const [k, x] of Object.entries(v)) {
          if (!storable(k)) return "strings must be valid Unicode without NUL characters (U+0000) or lone surrogates";
          stack.push([x, depth + 1]);
        }
    }
  }
  return null;
}

export function validate<S extends z.ZodType>(schema: S, value: unknown, mapIssue?: IssueMapper, notObjectError = "invalid_input"): z.infer<S> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ServiceError("invalid_input", notObjectError, "the request body must be a JSON object");
  }
  const unacceptable = unacceptableJson(value);
  if (unacceptable) throw new ServiceError("invalid_input", "invalid_input", unacceptable);
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const mapped = mapIssue?.(issue);
  if (mapped) throw new ServiceError("invalid_input", mapped.error, mapped.message);
  throw new ServiceError("invalid_input", "invalid_input", describeIssue(issue));
}

export async function parseBody<S extends z.ZodType>(c: Context, schema: S, mapIssue?: IssueMapper): Promise<z.infer<S>> {
  return validate(schema, await readJson(c), mapIssue);
}
