import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { StoredVerification, VerificationResult, VerifyRequest } from "../verification/schemas";
import { HeartbeatRecord, HeartbeatRequest } from "../heartbeats/schemas";

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with. Capabilities
 * add their paths through `openApiContributors` so this file never needs to know them all.
 */
export const ErrorBody = z.object({ error: z.string(), message: z.string().optional() }).passthrough();

const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });
export const errors = (...codes: [number, string][]): RouteConfig["responses"] =>
  Object.fromEntries(codes.map(([status, description]) => [status, json(ErrorBody, description)]));
export const jsonResponse = json;
export const jsonBody = (schema: z.ZodType) => ({ body: { content: { "application/json": { schema } }, required: true } });

export const AUTH_ERRORS: [number, string][] = [[401, "missing API key (send x-api-key), or invalid or revoked API key"]];

export type OpenApiContributor = (r: OpenAPIRegistry) => void;
export const openApiContributors: OpenApiContributor[] = [];

const CreditsResponse = z.object({
  creditsRemaining: z.number().int(),
  priceUsdPerCredit: z.number(),
  topup: z.record(z.string(), z.unknown()).optional().describe("Top-up terms (SPEC 2.3), present when top-ups are enabled"),
});

function coreRoutes(r: OpenAPIRegistry) {
  r.registerComponent("securitySchemes", "apiKey", { type: "apiKey", in: "header", name: "x-api-key" });
  r.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });
  const security: Record<string, string[]>[] = [{ apiKey: [] }, { bearer: [] }];
  r.registerPath({
    method: "post",
    path: "/api/v1/intent",
    summary: "Verify an action against rules (1 credit, refunded on a failed run)",
    security,
    request: jsonBody(VerifyRequest),
    responses: {
      201: json(VerificationResult, "The verification; execute only on ALLOW"),
      ...errors([400, "invalid JSON body | intent is required | action is required | invalid_input"], ...AUTH_ERRORS, [402, "out_of_credits (with topup terms when enabled)"], [413, "payload_too_large"], [502, "verification_failed (credit refunded; retry)"]),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/intent/{id}",
    summary: "Read a stored verification by id or requestHash (free)",
    security,
    request: { params: z.object({ id: z.string().describe("Verification id (UUID) or requestHash") }) },
    responses: { 200: json(StoredVerification, "The stored verification"), ...errors(...AUTH_ERRORS, [404, "not found"]) },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/intent/{id}/transcript",
    summary: "The run's transcript and receipt, for offline verification (free)",
    security,
    request: { params: z.object({ id: z.string() }) },
    responses: { 200: json(z.record(z.string(), z.unknown()), "Transcript and receipt"), ...errors(...AUTH_ERRORS, [404, "not found"]) },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/credits",
    summary: "Credit balance and top-up terms (free)",
    security,
    responses: { 200: json(CreditsResponse, "Balance"), ...errors(...AUTH_ERRORS) },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/trader/heartbeat",
    summary: "Report a trader's liveness and headline numbers (free)",
    security,
    request: jsonBody(HeartbeatRequest),
    responses: { 200: json(z.object({ ok: z.literal(true) }), "Recorded"), ...errors([400, "invalid JSON body | invalid_input"], ...AUTH_ERRORS) },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/trader/heartbeats",
    summary: "The account's traders with a stale flag (free)",
    security,
    responses: { 200: json(z.object({ traders: z.array(HeartbeatRecord) }), "Traders"), ...errors(...AUTH_ERRORS) },
  });
}

/**
 * Names for code generators (`operationId`), stable across releases. A route not listed here still gets one
 * derived from its method and path, so a new route is never left without (test/http/openapi-quality.test.ts).
 */
const OPERATION_IDS: Record<string, string> = {
  "post /api/v1/intent": "verifyIntent",
  "get /api/v1/intent/{id}": "getVerification",
  "get /api/v1/intent/{id}/transcript": "getVerificationTranscript",
  "get /api/v1/credits": "getCredits",
  "post /api/v1/credits/topup": "topupCredits",
  "get /api/v1/credits/topup/guide": "getTopupGuide",
  "post /api/v1/trader/heartbeat": "reportHeartbeat",
  "get /api/v1/trader/heartbeats": "listHeartbeats",
  "get /api/v1/wallets": "listWallets",
  "post /api/v1/wallets": "createWallet",
  "get /api/v1/wallets/{id}": "getWallet",
  "patch /api/v1/wallets/{id}": "updateWallet",
  "get /api/v1/wallets/{id}/balances": "getWalletBalances",
  "post /api/v1/wallets/{id}/propose": "proposeTransaction",
  "post /api/v1/wallets/{id}/swap": "swap",
  "get /api/v1/escrow-transactions": "listEscrowTransactions",
  "get /api/v1/escrow-transactions/{txId}": "getEscrowTransaction",
};

/** `get /api/v1/wallets/{id}/balances` -> `getWalletsByIdBalances`. */
export function derivedOperationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v1\//, "")
    .split("/")
    .filter(Boolean)
    .map((seg) => {
      const param = /^\{(.+)\}$/.exec(seg);
      const word = (param ? `by-${param[1]}` : seg).replace(/[^A-Za-z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ? ch.toUpperCase() : ""));
      return word.charAt(0).toUpperCase() + word.slice(1);
    });
  return method.toLowerCase() + words.join("");
}

/** One tag per capability, from the path. */
export function tagOf(path: string): string {
  if (path.startsWith("/api/v1/intent")) return "verification";
  if (path.startsWith("/api/v1/credits")) return "credits";
  if (path.startsWith("/api/v1/trader")) return "heartbeats";
  if (path.startsWith("/api/v1/escrow-transactions") || /\/propose$/.test(path)) return "proposals";
  if (/\/swap$/.test(path)) return "swaps";
  if (path.startsWith("/api/v1/wallets")) return "wallets";
  return path.split("/")[3] ?? "other";
}

const TAGS = [
  { name: "verification", description: "Ask the judge about an action; read receipts and transcripts" },
  { name: "credits", description: "Balance and x402 v2 top-ups" },
  { name: "heartbeats", description: "Trader liveness reports" },
  { name: "wallets", description: "Escrow wallets: create, read, balances" },
  { name: "proposals", description: "Transactions proposed from escrow wallets" },
  { name: "swaps", description: "Swaps from escrow wallets" },
];

const RETRY_AFTER = { "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer" as const } } };

/**
 * Every /api/v1 route sits behind the per-credential rate limit (429) and load shedding (503 `overloaded`),
 * both with `Retry-After` (src/http/app.ts); a 503 the route already documents gains the `overloaded` case.
 */
function addCommonResponses(route: RouteConfig): void {
  if (!route.path.startsWith("/api/v1/")) return;
  const responses = route.responses as Record<string, { description: string; headers?: unknown; content?: unknown }>;
  responses[429] ??= { ...json(ErrorBody, "rate_limited: too many requests for this credential; wait Retry-After seconds"), headers: RETRY_AFTER };
  const overloaded = "overloaded: the service is shedding load; nothing was done, retry after Retry-After seconds";
  const existing = responses[503];
  responses[503] = existing
    ? { ...existing, description: `${existing.description} | ${overloaded}`, headers: { ...(existing.headers as object), ...RETRY_AFTER } }
    : { ...json(ErrorBody, overloaded), headers: RETRY_AFTER };
}

function enrich(r: OpenAPIRegistry): void {
  const seen = new Set<string>();
  for (const def of r.definitions) {
    if (def.type !== "route") continue;
    const route = def.route;
    const id = route.operationId ?? OPERATION_IDS[`${route.method} ${route.path}`] ?? derivedOperationId(route.method, route.path);
    route.operationId = seen.has(id) ? derivedOperationId(route.method, route.path) : id;
    seen.add(route.operationId);
    route.tags ??= [tagOf(route.path)];
    addCommonResponses(route);
  }
}

let cached: { key: string; doc: unknown } | null = null;

export function buildOpenApiDocument(publicUrl: string): unknown {
  const key = `${publicUrl}#${openApiContributors.length}`;
  if (cached && cached.key === key) return cached.doc;
  const r = new OpenAPIRegistry();
  coreRoutes(r);
  for (const add of openApiContributors) add(r);
  enrich(r);
  const doc = new OpenApiGeneratorV31(r.definitions).generateDocument({
    openapi: "3.1.0",
    info: { title: "Arbiter API", version: "1.0.0", description: "Verification, credits and escrow wallets for AI agents." },
    servers: [{ url: publicUrl }],
    tags: TAGS,
  });
  cached = { key, doc };
  return doc;
}
