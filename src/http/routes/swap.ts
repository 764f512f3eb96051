/**
 * POST /api/v1/wallets/{id}/swap (SPEC 4.10): quote, build the batch, propose it. Errors (SPEC 7) are all
 * `swap_failed`: 400 (unknown token, bad amount or slippage, wallet on another chain, a refused quote),
 * 502 (quote service unreachable, or the judge failed: credit refunded), 503 (swaps not configured), 500;
 * plus 402 (out of credits), 404 (no such wallet) and 409 (archived wallet) as for propose.
 */
import { Hono } from "hono";
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { requireApiKey } from "../auth";
import { errorResponse } from "../errors";
import { AUTH_ERRORS, errors, jsonBody, jsonResponse, openApiContributors } from "../openapi";
import type { AppEnv, RouteDeps } from "../types";
import { parseSwapRequest, SwapRequest, type SwapService } from "../../swaps/service";
import { swapRefused } from "../../swaps/types";

export function swapRoutes({ services, logger }: RouteDeps, swaps: SwapService) {
  const app = new Hono<AppEnv>();
  const auth = requireApiKey(services.accounts);
  // The wallet routes mounted on the same prefix may have authenticated the request already.
  app.use("/wallets/:id/swap", (c, next) => (c.get("principal") ? next() : auth(c, next)));

  app.post("/wallets/:id/swap", async (c) => {
    try {
      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        throw swapRefused("invalid JSON body");
      }
      const req = parseSwapRequest(body);
      return c.json(await swaps.swap(c.get("principal"), c.req.param("id"), req, "api"), 200);
    } catch (err) {
      return errorResponse(c, err, logger, "swap_failed");
    }
  });
  return app;
}

const Token = z.object({ address: z.string().describe("Token contract, or native for ETH"), decimals: z.number().int(), symbol: z.string() });
export const SwapSummarySchema = z.object({
  routing: z.string().describe("The quote provider: 0x or sandbox-pool"),
  sell: Token,
  buy: Token,
  amountIn: z.string().describe("Base units"),
  amountOut: z.string().describe("Quoted output, base units"),
  minimumOut: z.string().describe("Minimum output written into the signed swap: amountOut x (1 - slippageBps/10000), rounded down"),
  amountInHuman: z.string(),
  amountOutHuman: z.string(),
  minimumOutHuman: z.string(),
  priceImpactPct: z.number().nullable(),
  slippagePct: z.number(),
  gasFeeUSD: z.number().nullable(),
  routeString: z.string(),
  approvalNeeded: z.boolean().describe("True when the batch starts with an approval of exactly the sell amount"),
  approvalSpender: z.string().nullable(),
});

function swapOpenApi(r: OpenAPIRegistry) {
  r.registerPath({
    method: "post",
    path: "/api/v1/wallets/{id}/swap",
    summary: "Swap on a Base wallet: quoted, built as one atomic batch (exact approval + swap with its minimum output), then proposed like any proposal",
    security: [{ apiKey: [] }, { bearer: [] }],
    request: { params: z.object({ id: z.string().describe("Wallet id (wal_...) or name") }), ...jsonBody(SwapRequest) },
    responses: {
      200: jsonResponse(z.object({ swap: SwapSummarySchema }).passthrough(), "The proposal result (as propose) plus swap"),
      ...errors(
        [400, "swap_failed (unknown token, bad amount or slippage, wallet on another chain, a quote the service refused)"],
        ...AUTH_ERRORS,
        [402, "swap_failed (out of credits; the proposal is recorded as blocked)"],
        [404, "not_found"],
        [409, "swap_failed (wallet archived)"],
        [500, "swap_failed"],
        [502, "swap_failed (quote service unreachable, or judge failed: credit refunded)"],
        [503, "swap_failed (swaps not configured on this deployment)"],
      ),
    },
  });
}
openApiContributors.push(swapOpenApi);
