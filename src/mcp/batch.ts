/**
 * JSON-RPC batches against the rate limit (issue 18, item 4). One POST may carry a batch of JSON-RPC
 * messages; each one counts a token of the credential's budget, so 100 calls in one POST cost what 100 POSTs
 * cost. A batch carries at most MCP_MAX_BATCH messages. When the budget covers only part of a batch, its first
 * messages are served and each request past the budget is answered with a JSON-RPC error (RATE_LIMITED_CODE,
 * `data.error` `rate_limited`, `data.retryAfterSeconds`) and the HTTP response carries `Retry-After`; when it
 * covers none, the answer is HTTP 429 with those errors. Refused notifications get no answer (JSON-RPC).
 */

/** Most JSON-RPC messages in one POST (docs/mcp.md); a longer batch is refused whole, before any call runs. */
export const MCP_MAX_BATCH = 100;

/** A server-defined JSON-RPC error code (-32000..-32099) for "over the rate limit"; 29 echoes HTTP 429. */
export const RATE_LIMITED_CODE = -32029;

type Message = Record<string, unknown>;

/** The number of messages a parsed body carries: a batch's length, else one. */
export function messageCount(parsed: unknown): number {
  return Array.isArray(parsed) ? Math.max(1, parsed.length) : 1;
}

/** The ids of the requests among `messages` (a notification has no id and gets no answer). */
function requestIds(messages: unknown[]): (string | number | null)[] {
  return messages
    .filter((m): m is Message => typeof m === "object" && m !== null && !Array.isArray(m) && "id" in m && "method" in m)
    .map((m) => (typeof m.id === "string" || typeof m.id === "number" ? m.id : null));
}

function rateLimitedError(id: string | number | null, message: string, retryAfterSeconds: number) {
  return { jsonrpc: "2.0", id, error: { code: RATE_LIMITED_CODE, message: `rate_limited: ${message}`, data: { error: "rate_limited", retryAfterSeconds } } };
}

const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/** The body was more than MCP_MAX_BATCH messages: 400 with a JSON-RPC "Invalid Request", nothing ran. */
export function batchTooLarge(count: number): Response {
  return json(
    { jsonrpc: "2.0", id: null, error: { code: -32600, message: `Invalid Request: a batch carries at most ${MCP_MAX_BATCH} JSON-RPC messages; this one carried ${count}. Split it into several requests.` } },
    400,
  );
}

/** Nothing of the body fits the budget: 429 with Retry-After and one JSON-RPC error per request. */
export function allRefused(parsed: unknown, message: string, retryAfterSeconds: number): Response {
  const headers = { "Retry-After": String(retryAfterSeconds) };
  if (!Array.isArray(parsed)) {
    const id = requestIds([parsed])[0] ?? null;
    return json(rateLimitedError(id, message, retryAfterSeconds), 429, headers);
  }
  const ids = requestIds(parsed);
  const errors = (ids.length ? ids : [null]).map((id) => rateLimitedError(id, message, retryAfterSeconds));
  return json(errors, 429, headers);
}

/**
 * Adds the errors for the refused tail of a batch to the SDK's answer for its served head. The SDK answers a
 * batch with a JSON array (a single object when one response), 202 when nothing needed an answer, or an
 * error status for a malformed request (passed through: nothing in it ran).
 */
export async function withRefusedTail(served: Response, refused: unknown[], message: string, retryAfterSeconds: number): Promise<Response> {
  const headers = { "Retry-After": String(retryAfterSeconds) };
  const errors = requestIds(refused).map((id) => rateLimitedError(id, message, retryAfterSeconds));
  if (served.status === 202) return errors.length ? json(errors, 200, headers) : new Response(null, { status: 202, headers });
  if (served.status !== 200 || !served.headers.get("content-type")?.includes("application/json")) return served;
  const body = (await served.json()) as unknown;
  return json([...(Array.isArray(body) ? body : [body]), ...errors], 200, headers);
}
