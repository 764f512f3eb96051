/**
 * POST /api/v1/credits/topup (SPEC 4.4) and GET /api/v1/credits/topup/guide. Thin: resolve who is paid
 * for (API key, else ?account=<top-up code>), parse the amount, call the purchase verb once, map its
 * outcome to 200 + PAYMENT-RESPONSE or 402 + PAYMENT-REQUIRED. Errors are ServiceErrors mapped in errors.ts.
 *
 * Mounted before the /api/v1 API-key middleware: the top-up accepts a top-up code instead of a key, and
 * the guide is public.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { TOPUP_CODE_PREFIX } from "../../accounts/service";
import { ServiceError } from "../../lib/errors";
import type { PaymentInput, PurchaseOutcome } from "../../credits/topup";
import {
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
  parsePaymentSignatureHeader,
  PAYMENT_REQUIRED_HEADER,
  PAYMENT_RESPONSE_HEADER,
  PAYMENT_SIGNATURE_HEADER,
  X_PAYMENT_V1_HEADER,
} from "../../x402";
import { badKey, presentedKey } from "../auth";
import { ErrorBody, errors, jsonResponse, openApiContributors } from "../openapi";
import type { AppEnv, RouteDeps } from "../types";

const missingAccount = () =>
  new ServiceError("unauthenticated", "missing_account", "send an API key (x-api-key or Authorization: Bearer), or name the account with ?account=<top-up code>");
const invalidAccount = () => new ServiceError("not_found", "invalid_account", "no account has this top-up code (svc_topup_...)");

/** A browser asking for a page (Accept names text/html before any JSON). */
function wantsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const a = accept.toLowerCase();
  const html = a.indexOf("text/html");
  if (html < 0) return false;
  const json = a.indexOf("application/json");
  return json < 0 || html < json;
}

export function respondToPurchase(c: Context, outcome: PurchaseOutcome): Response {
  if (outcome.kind === "credited") {
    c.header(PAYMENT_RESPONSE_HEADER, encodePaymentResponseHeader(outcome.settlement));
    return c.json(outcome.receipt, 200);
  }
  c.header(PAYMENT_REQUIRED_HEADER, encodePaymentRequiredHeader(outcome.paymentRequired));
  if (outcome.settlement) c.header(PAYMENT_RESPONSE_HEADER, encodePaymentResponseHeader(outcome.settlement));
  return c.json(outcome.body, 402);
}

export function topupRoutes({ services }: RouteDeps) {
  const app = new Hono<AppEnv>();
  const { topup, accounts } = services;

  app.get("/credits/topup/guide", (c) => {
    if (wantsHtml(c.req.header("accept"))) return c.html(topup.guideHtml());
    return c.json(topup.guide(), 200);
  });

  app.post("/credits/topup", async (c) => {
    // Who is paid for: the key's account (the key wins over ?account=), else the top-up code's.
    const key = presentedKey(c);
    let accountId: string;
    let accountCode: string | undefined;
    if (key) {
      const principal = await accounts.authenticateApiKey(key);
      if (!principal) throw badKey();
      accountId = principal.accountId;
    } else {
      const code = c.req.query("account")?.trim();
      if (!code) throw missingAccount();
      const account = code.startsWith(TOPUP_CODE_PREFIX) && code.length <= 200 ? await accounts.findByTopupCode(code) : undefined;
      if (!account) throw invalidAccount();
      accountId = account.id;
      accountCode = code;
    }
    topup.assertEnabled();

    const quote = topup.quote({ usd: c.req.query("usd"), credits: c.req.query("credits") });
    const signature = c.req.header(PAYMENT_SIGNATURE_HEADER);
    const payment: PaymentInput = signature
      ? { kind: "v2", payload: parsePaymentSignatureHeader(signature) }
      : c.req.header(X_PAYMENT_V1_HEADER)
        ? { kind: "v1" }
        : { kind: "none" };
    const outcome = await topup.purchase({
      accountId,
      withBalance: accountCode === undefined,
      quote,
      resourceUrl: topup.resourceUrl(quote, accountCode),
      payment,
      source: "http",
    });
    return respondToPurchase(c, outcome);
  });
  return app;
}

/** A createApp mount: the routes above under /api/v1, ahead of the API-key middleware. */
export const topupMount = () => (app: Hono<AppEnv>, deps: RouteDeps) => {
  app.route("/api/v1", topupRoutes(deps));
};

// ------------------------------------------------------------------ OpenAPI

const TopupReceipt = z.object({
  credited: z.number().int().describe("Credits added"),
  usd: z.string().describe("USD paid, two decimals"),
  creditsRemaining: z.number().int().optional().describe("New balance; only when the request authenticated with an API key"),
  txHash: z.string().nullable().describe("Settlement transaction on Base"),
  payer: z.string().describe("Address that signed the payment"),
  replayed: z.boolean().describe("True when this authorization was already credited and the original result is returned"),
});
const PaymentRequiredBody = z.object({
  error: z.string(),
  message: z.string(),
  x402Version: z.literal(2),
  credits: z.number().int(),
  usd: z.string(),
  code: z.string().optional(),
});

function topupOpenApi(r: OpenAPIRegistry) {
  r.registerPath({
    method: "post",
    path: "/api/v1/credits/topup",
    summary: "Buy credits with USDC on Base over x402 v2 (API key, or ?account=<top-up code> without a key)",
    security: [{ apiKey: [] }, { bearer: [] }, {}],
    request: {
      query: z.object({
        usd: z.string().optional().describe("Whole US dollars, 1 to 2000 (20 credits per dollar). Not with credits."),
        credits: z.string().optional().describe("Credits, 20 to 10000 (TOPUP_MIN_CREDITS..TOPUP_MAX_CREDITS). Not with usd. Neither: the minimum."),
        account: z.string().optional().describe("Public top-up code (svc_topup_...); ignored when an API key is sent"),
      }),
      headers: z.object({ "PAYMENT-SIGNATURE": z.string().optional().describe("base64 x402 v2 PaymentPayload") }),
    },
    responses: {
      200: { ...jsonResponse(TopupReceipt, "Settled and credited (PAYMENT-RESPONSE header: base64 SettleResponse)"), headers: { "PAYMENT-RESPONSE": { schema: { type: "string" } } } },
      400: jsonResponse(ErrorBody, "invalid_credits | invalid_usd | invalid_amount (usd and credits both sent)"),
      401: jsonResponse(ErrorBody, "missing_account | invalid or revoked API key"),
      402: {
        ...jsonResponse(PaymentRequiredBody, "payment_required (code says why a payment was refused) | x402 v1 not supported | wallet_unsupported; PAYMENT-REQUIRED carries fresh terms"),
        headers: { "PAYMENT-REQUIRED": { schema: { type: "string" } }, "PAYMENT-RESPONSE": { schema: { type: "string" } } },
      },
      ...errors([404, "invalid_account"], [409, "payment_claimed"], [502, "facilitator_unavailable (Retry-After)"], [503, "topup_not_configured"]),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/credits/topup/guide",
    summary: "How to buy credits: terms, steps and a runnable @x402/fetch example (JSON; HTML for browsers). No authentication.",
    security: [],
    responses: {
      200: {
        description: "The guide",
        content: { "application/json": { schema: z.record(z.string(), z.unknown()) }, "text/html": { schema: z.string() } },
      },
      ...errors([503, "topup_not_configured"]),
    },
  });
}
openApiContributors.push(topupOpenApi);
