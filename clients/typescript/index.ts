/**
 * A typed client for the Arbiter HTTP API: openapi-fetch over the types openapi-typescript generated from the
 * service's OpenAPI document (schema.d.ts; regenerate with `npm run api:docs`).
 *
 *   import { createArbiterClient } from "./clients/typescript";
 *   const arbiter = createArbiterClient({ baseUrl: "http://127.0.0.1:8080", apiKey: process.env.ARBITER_KEY! });
 *   const { data, error } = await arbiter.POST("/api/v1/intent", { body: { intent: "...", action: "..." } });
 *   if (data?.verdict === "ALLOW") { ... }   // act only on ALLOW
 *
 * Every response is `{ data }` on 2xx or `{ error }` (the `{error, message?}` body) otherwise, typed per route.
 */
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./schema";

export type { components, operations, paths } from "./schema";

export interface ArbiterClientOptions {
  /** The service, e.g. http://127.0.0.1:8080 (no trailing /api/v1: paths carry it). */
  baseUrl: string;
  /** An API key (svc_sk_live_...), sent as x-api-key. Omit it for the public routes. */
  apiKey?: string;
  /** A fetch implementation (default: the global one), e.g. one wrapped by @x402/fetch for top-ups. */
  fetch?: typeof globalThis.fetch;
}

export type ArbiterClient = Client<paths>;

export function createArbiterClient(opts: ArbiterClientOptions): ArbiterClient {
  return createClient<paths>({
    baseUrl: opts.baseUrl.replace(/\/+$/, ""),
    headers: opts.apiKey ? { "x-api-key": opts.apiKey } : {},
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
}
