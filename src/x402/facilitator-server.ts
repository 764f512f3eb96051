/**
 * A small x402 facilitator HTTP server (the API `HTTPFacilitatorClient` speaks): `POST /verify`,
 * `POST /settle`, `GET /supported`, plus `GET /health`. Backed by any `Facilitator`, normally the in-process
 * one, so a deployment can run settlement in a separate process (its relayer key stays there) and the
 * tests can exercise remote mode.
 *
 * Status codes: 200 with the VerifyResponse / SettleResponse, also when the payment is invalid or the
 * settlement failed (as the reference facilitators do); 400 for a malformed request (body in the
 * response shape, so clients read it as an invalid payment); 401 without the configured bearer token;
 * 503 + Retry-After when the backing facilitator is unavailable (its RPC node is down); 500 otherwise.
 *
 * Run standalone: `RPC_URL=... RELAYER_KEY=0x... [PORT=4021] [HOST=127.0.0.1] [NETWORK=eip155:8453]
 * [FACILITATOR_AUTH_TOKEN=...] tsx src/x402/facilitator-server.ts`.
 */
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import type { Network } from "@x402/core/types";
import type { Hex } from "viem";
import { safeEqual } from "../lib/hashing";
import { createLocalFacilitator, isFacilitatorUnavailable, type Facilitator } from "./facilitator";

export interface FacilitatorHandlerOptions {
  /** Require `Authorization: Bearer <token>` on every route but /health. */
  authToken?: string;
  /** Mount prefix, e.g. "/facilitator" (default ""). */
  basePath?: string;
  /** Largest accepted request body (default 64 KiB). */
  maxBodyBytes?: number;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A web-standard handler (`(Request) => Response`), mountable in Hono: `app.all("/facilitator/*", c => h(c.req.raw))`. */
export function createFacilitatorHandler(facilitator: Facilitator, opts: FacilitatorHandlerOptions = {}): (req: Request) => Promise<Response> {
  const base = (opts.basePath ?? "").replace(/\/+$/, "");
  const maxBody = opts.maxBodyBytes ?? 64 * 1024;

  return async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname;
    const route = base && path.startsWith(base) ? path.slice(base.length) || "/" : path;

    if (route === "/health" && req.method === "GET") return json(200, { ok: true, kind: facilitator.kind });

    if (opts.authToken) {
      const auth = req.headers.get("authorization") ?? "";
      const token = auth.startsWith("Bearer ") ? auth.slice(7) : "";
      if (!token || !safeEqual(token, opts.authToken)) return json(401, { error: "unauthorized" });
    }

    try {
      if (route === "/supported") {
        if (req.method !== "GET") return json(405, { error: "method_not_allowed" }, { allow: "GET" });
        return json(200, await facilitator.supported());
      }
      if (route !== "/verify" && route !== "/settle") return json(404, { error: "not_found" });
      if (req.method !== "POST") return json(405, { error: "method_not_allowed" }, { allow: "POST" });

      const malformed = (message: string) =>
        route === "/verify"
          ? json(400, { isValid: false, invalidReason: "invalid_payload", invalidMessage: message })
          : json(400, { success: false, errorReason: "invalid_payload", errorMessage: message, transaction: "", network: "" });

      if (Number(req.headers.get("content-length") ?? 0) > maxBody) return malformed("request body too large");
      const text = await req.text();
      if (text.length > maxBody) return malformed("request body too large");
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return malformed("request body is not JSON");
      }
      if (!isObject(body) || !isObject(body.paymentPayload) || !isObject(body.paymentRequirements)) {
        return malformed("expected {x402Version, paymentPayload, paymentRequirements}");
      }
      const payload = body.paymentPayload as unknown as Parameters<Facilitator["verify"]>[0];
      const requirements = body.paymentRequirements as unknown as Parameters<Facilitator["verify"]>[1];
      return route === "/verify"
        ? json(200, await facilitator.verify(payload, requirements))
        : json(200, await facilitator.settle(payload, requirements));
    } catch (e) {
      if (isFacilitatorUnavailable(e)) {
        return json(503, { error: e.error, message: e.detail }, { "retry-after": String(e.retryAfterSeconds) });
      }
      console.error("facilitator server error", e);
      return json(500, { error: "internal_error" });
    }
  };
}

export interface FacilitatorServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Listen on `host:port` (port 0 = any free port). */
export function startFacilitatorServer(opts: {
  facilitator: Facilitator;
  port?: number;
  host?: string;
  authToken?: string;
}): Promise<FacilitatorServer> {
  const host = opts.host ?? "127.0.0.1";
  const handler = createFacilitatorHandler(opts.facilitator, { authToken: opts.authToken });
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: handler, port: opts.port ?? 0, hostname: host }, (info: AddressInfo) => {
      const port = info.port;
      resolve({
        url: `http://${host}:${port}`,
        port,
        close: () =>
          new Promise<void>((res) => {
            server.close(() => res());
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
    server.once("error", reject);
  });
}

async function main(): Promise<void> {
  const rpcUrl = process.env.RPC_URL;
  const relayer = process.env.RELAYER_KEY as Hex | undefined;
  if (!rpcUrl || !relayer) {
    console.error("RPC_URL and RELAYER_KEY are required");
    process.exit(2);
  }
  const facilitator = createLocalFacilitator({ rpcUrl, relayer, network: (process.env.NETWORK as Network | undefined) ?? undefined });
  const server = await startFacilitatorServer({
    facilitator,
    port: Number(process.env.PORT ?? 4021),
    host: process.env.HOST ?? "127.0.0.1",
    authToken: process.env.FACILITATOR_AUTH_TOKEN || undefined,
  });
  console.warn(`x402 facilitator listening on ${server.url} (relayer ${facilitator.relayerAddress})`);
  const shutdown = () => void server.close().then(() => process.exit(0));
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
