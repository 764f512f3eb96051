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

/** PostgreSQL text cannot hold U+0000; refuse it up front rather than fail in the database. */
function hasNul(v: unknown, depth = 0): boolean {
  if (depth > 200) return false;
  if (typeof v === "string") return v.includes("\u0000");
  if (Array.isArray(v)) return v.some((x) => hasNul(x, depth + 1));
  if (v && typeof v === "object") return Object.entries(v).some(([k, x]) => k.includes("\u0000") || hasNul(x, depth + 1));
  return false;
}

export function validate<S extends z.ZodType>(schema: S, value: unknown, mapIssue?: IssueMapper, notObjectError = "invalid_input"): z.infer<S> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ServiceError("invalid_input", notObjectError, "the request body must be a JSON object");
  }
  if (hasNul(value)) throw new ServiceError("invalid_input", "invalid_input", "strings must not contain the NUL character (U+0000)");
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
