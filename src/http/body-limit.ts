import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit as streamingBodyLimit } from "hono/body-limit";

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
