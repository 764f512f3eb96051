import { JudgeUnavailableError } from "../types";

/** Maps any SDK/transport failure to JudgeUnavailableError (the caller refunds and answers 502). Never includes the API key. */
export function toUnavailable(provider: string, err: unknown): JudgeUnavailableError {
  if (err instanceof JudgeUnavailableError) return err;
  const e = err as { status?: unknown; name?: unknown; message?: unknown };
  const status = typeof e?.status === "number" ? ` HTTP ${e.status}` : "";
  const name = typeof e?.name === "string" ? e.name : "Error";
  const timeout = /timeout|timed out/i.test(`${name} ${String(e?.message ?? "")}`);
  const what = timeout ? "timed out" : status ? `failed with${status}` : `failed (${name})`;
  return new JudgeUnavailableError(`${provider} judge ${what}`, { cause: err });
}
