/**
 * topup_credits (SPEC 4.12): buy credits over x402 inside MCP, through the same purchase verb as
 * POST /api/v1/credits/topup. No credit cost.
 *
 *   without _meta["x402/payment"]  -> isError, the x402 PaymentRequired in the text, structuredContent and
 *                                     _meta["x402/payment-required"], plus the HTTP endpoint and guide URL
 *   with a signed PaymentPayload   -> settle + credit; the SettleResponse in _meta["x402/payment-response"]
 */
import { z } from "zod";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { CreditLimits, PaymentInput } from "../../credits/topup";
import { defineTool, type McpToolDefinition } from "../types";
import { failure, ok, short } from "../results";

export const X402_PAYMENT_META = "x402/payment";
export const X402_PAYMENT_REQUIRED_META = "x402/payment-required";
export const X402_PAYMENT_RESPONSE_META = "x402/payment-response";

export function createTopupCreditsTool(limits: CreditLimits): McpToolDefinition {
  const Input = z.object({
    // `.catch` hands a bad value to the handler, which answers with the same invalid_credits as HTTP.
    credits: z
      .number()
      .int()
      .min(limits.minCredits)
      .max(limits.maxCredits)
      .catch((c) => c?.input as number)
      .describe(`Required. How many credits to buy, ${limits.minCredits} to ${limits.maxCredits}; 0.05 USD each, paid in USDC on Base.`),
  });

  return defineTool({
    name: "topup_credits",
    title: "Buy credits with USDC (x402)",
    description:
      `Buys Arbiter credits with USDC on Base over the x402 v2 payment protocol; costs no credits itself. Call it with credits (${limits.minCredits}-${limits.maxCredits}) ` +
      `and no payment to get the terms (an isError result carrying the x402 PaymentRequired in structuredContent and _meta["x402/payment-required"]). ` +
      `Sign them with an x402 client (EIP-3009 USDC authorization) and call again with the same credits and the PaymentPayload in _meta["x402/payment"]: ` +
      `the payment settles, the account is credited once per authorization, and the settlement comes back in _meta["x402/payment-response"].`,
    inputSchema: Input,
    annotations: { title: "Buy credits", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    scope: "mcp",
    requiresEscrow: false,
    async handler(args, ctx): Promise<CallToolResult> {
      const topup = ctx.services.topup;
      topup.assertEnabled();
      const quote = topup.quote({ credits: typeof args.credits === "number" ? String(args.credits) : "invalid" });
      const raw = ctx.meta?.[X402_PAYMENT_META];
      const payment: PaymentInput = raw === undefined || raw === null ? { kind: "none" } : { kind: "v2", payload: raw };
      const endpoint = topup.resourceUrl(quote);
      const guideUrl = topup.guideUrl();
      const outcome = await topup.purchase({ accountId: ctx.principal.accountId, withBalance: true, quote, resourceUrl: endpoint, payment, source: "mcp" });

      if (outcome.kind === "credited") {
        const r = outcome.receipt;
        const text = [
          r.replayed ? `Already credited: this payment added ${r.credited} credits ($${r.usd}) before; nothing was charged again.` : `Credited ${r.credited} credits for $${r.usd} USDC.`,
          `Credits remaining: ${r.creditsRemaining}`,
          `Settlement: ${short(r.txHash)} on Base, paid by ${r.payer}.`,
        ].join("\n");
        return { ...ok(text, { ...r }), _meta: { [X402_PAYMENT_RESPONSE_META]: outcome.settlement } };
      }

      const { paymentRequired } = outcome;
      const body = { ...outcome.body, message: overMcp(outcome.body.message) };
      const data = { ...paymentRequired, ...body, endpoint, guideUrl };
      const text = [
        `${body.error}: ${body.message}`,
        `Terms: ${quote.credits} credits for $${quote.usd}: ${paymentRequired.accepts[0].amount} atomic USDC (${paymentRequired.accepts[0].asset}) on ${paymentRequired.accepts[0].network} to ${paymentRequired.accepts[0].payTo}.`,
        `Pay by calling topup_credits again with the same credits and a signed x402 v2 PaymentPayload in _meta["${X402_PAYMENT_META}"].`,
        `Guide: ${guideUrl}`,
      ].join("\n");
      const result = failure(text, data, { json: true });
      return {
        ...result,
        _meta: { [X402_PAYMENT_REQUIRED_META]: paymentRequired, ...(outcome.settlement ? { [X402_PAYMENT_RESPONSE_META]: outcome.settlement } : {}) },
      };
    },
  });
}

/**
 * The top-up service words its messages for HTTP (headers); over MCP the same terms and payment travel in
 * `_meta`, so the header names are replaced by the `_meta` keys that carry them here.
 */
export function overMcp(message: string): string {
  return message
    .replace(/the PAYMENT-REQUIRED header/g, `_meta["${X402_PAYMENT_REQUIRED_META}"]`)
    .replace(/PAYMENT-REQUIRED/g, `_meta["${X402_PAYMENT_REQUIRED_META}"]`)
    .replace(/repeat this request with a PAYMENT-SIGNATURE header/g, `call topup_credits again with the signed payload in _meta["${X402_PAYMENT_META}"]`)
    .replace(/a PAYMENT-SIGNATURE header/g, `_meta["${X402_PAYMENT_META}"]`)
    .replace(/PAYMENT-SIGNATURE/g, `_meta["${X402_PAYMENT_META}"]`);
}
