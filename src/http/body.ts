import type { Context } from "hono";
import type { z } from "zod";
import { ServiceError } from "../lib/errors";
import { describeUnstorable, findUnstorable } from "../lib/storable-json";
import { holdToLimit } from "./body-limit";

/** Maps the first validation issue to the SPEC error body: a sentence for some fields, else invalid_input. */
export type IssueMapper = (issue: z.core.$ZodIssue) => { error: string; message?: string } | null;

export function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.join(".") : "body";
  return `${where}: ${issue.message}`;
}

const notJson = () => new ServiceError("invalid_input", "invalid JSON body", "the request body is not valid JSON");

/** Reads a JSON body (the size limit is enforced by middleware before this). */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  try {
    return JSON.parse(text);
  } catch {
    throw notJson();
  }
}

/** The characters of a STRK20 proof `{facts, data}` (its base64 `data`); 0 for anything else. */
export const proofDataChars = (p: unknown): number => (p !== null && typeof p === "object" && typeof (p as { data?: unknown }).data === "string" ? (p as { data: string }).data.length : 0);

/**
 * Reads a JSON body on a route that may carry a STRK20 proof: everything but the proof (`proofChars` of the
 * parsed body) is held to `limit` first (413, as the middleware answers elsewhere), then unparsable text is 400.
 */
export async function readProofJson(c: Context, limit: number, proofChars: (body: unknown) => number): Promise<unknown> {
  const text = await c.req.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    holdToLimit(text, 0, limit);
    throw notJson();
  }
  holdToLimit(text, proofChars(body), limit);
  return body;
}

/** Why a JSON body cannot be accepted (naming where), or null: the shared rule of src/lib/storable-json.ts. */
export function unacceptableJson(root: unknown): string | null {
  const u = findUnstorable(root);
  return u && describeUnstorable(u, "body");
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
