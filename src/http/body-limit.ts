import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit as streamingBodyLimit } from "hono/body-limit";
import { ServiceError } from "../lib/errors";

/** A 4 MB base64 STRK20 proof (SPEC 8) plus its facts, calldata and the JSON around them. */
export const STRK20_PROOF_BODY_BYTES = 5 * 1024 * 1024;

/** The paths whose requests may carry a STRK20 proof: POST /api/mcp and the propose route. */
export const proofBodyPath = (path: string): boolean => path === "/api/mcp" || /^\/api\/v1\/wallets\/[^/]+\/propose$/.test(path);

/**
 * The large limit is for the proof alone. A proof path reads its body up to STRK20_PROOF_BODY_BYTES (whether
 * a request carries a proof is known only once it is parsed); then everything in it but the proof's own
 * characters (`proofChars`, counted by the route where its proof may sit) must fit the ordinary limit, else
 * 413 as on every other route. So a request without a proof, or one padded beside its proof, is held to
 * BODY_LIMIT_BYTES; the bytes read meanwhile are counted by admission control's in-flight budget.
 */
export function holdToLimit(text: string, proofChars: number, limit: number): void {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: most bodies are decided without measuring.
  if ((text.length - proofChars) * 3 <= limit) return;
  if (Buffer.byteLength(text) - proofChars <= limit) return;
  throw new ServiceError(
    "payload_too_large",
    "payload_too_large",
    `request bodies are limited to ${limit} bytes; only a STRK20 proof may take a body past that (up to ${Math.max(limit, STRK20_PROOF_BODY_BYTES)} bytes with the proof)`,
  );
}

/**
 * The request body limit (413). A body announced by `content-length` is judged from the header alone, and a
 * request without a body passes straight through; only a chunked body is counted while it streams (hono's
 * middleware). Why not hono's middleware for everything: it reads `c.req.raw.body`, which makes
 * `@hono/node-server` build a full web `Request` (an `AbortController`, a `ReadableStream` over the socket)
 * for every request, GETs included. That was most of what separated an authenticated GET from a constant
 * route (docs/performance.md); the lightweight request reads `text()`/`json()` straight from the socket.
 */
export function bodyLimit(opts: { maxSize: number; onError: (c: Context) => Response | Promise<Response> }): MiddlewareHandler {
  const streaming = streamingBodyLimit(opts);
  return async (c, next) => {
    const chunked = c.req.header("transfer-encoding") !== undefined;
    const length = c.req.header("content-length");
    if (!chunked && length !== undefined) {
      // Node's parser has already refused a malformed or duplicated content-length (400) before we run.
      return Number(length) > opts.maxSize ? opts.onError(c) : next();
    }
    // Over HTTP/1.1 a request with neither header has no body. A request handed in directly (tests,
    // `app.request`) has no socket framing behind it, so its body is counted.
    const fromSocket = (c.env as { incoming?: unknown } | undefined)?.incoming !== undefined;
    if (!chunked && fromSocket) return next();
    return streaming(c, next);
  };
}
