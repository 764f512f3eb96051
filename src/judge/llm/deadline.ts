/**
 * JUDGE_TIMEOUT_MS is a deadline for the whole model call: connecting, the answer's headers, its body,
 * and a retry if one is configured. The SDKs' own `timeout` bounds each attempt until the headers arrive
 * only; a body that trickles in late would hold the run (and the caller's credit) past the point where
 * another process's recovery may refund it. The signal aborts the request and its body read; the race
 * settles the call at the deadline whatever the SDK does with the abort.
 */
import { JudgeUnavailableError } from "../types";

export async function withDeadline<T>(provider: string, ms: number, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new JudgeUnavailableError(`${provider} judge timed out (no complete answer within ${ms} ms)`);
      controller.abort(err);
      reject(err);
    }, ms);
  });
  try {
    return await Promise.race([call(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}
