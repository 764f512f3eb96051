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

let cached: { key: string; doc: unknown } | null = null;

export function buildOpenApiDocument(publicUrl: string): unknown {
  const key = `${publicUrl}#${openApiContributors.length}`;
  if (cached && cached.key === key) return cached.doc;
  const r = new OpenAPIRegistry();
  coreRoutes(r);
  for (const add of openApiContributors) add(r);
  const doc = new OpenApiGeneratorV31(r.definitions).generateDocument({
    openapi: "3.1.0",
    info: { title: "Arbiter API", version: "1.0.0", description: "Verification, credits and escrow wallets for AI agents." },
    servers: [{ url: publicUrl }],
  });
  cached = { key, doc };
  return doc;
}
