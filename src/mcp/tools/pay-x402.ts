/**
 * `escrow_pay_x402` (SPEC 4.12): pay an x402 v2 resource from an escrow wallet. A proposal like the others
 * (simulation declared from the invoice, limits, judge, one credit when the judge runs); on execution the
 * reply carries up to 8,000 characters of the resource's answer. Built with the payment service it calls
 * (registered in deps.ts when escrow wallets are configured).
 */
import { z } from "zod";
import { ServiceError } from "../../lib/errors";
import { NOTE_MAX } from "../../proposals/schemas";
import type { PayResult, X402PayService } from "../../x402/pay/service";
import { defineTool, type McpToolDefinition } from "../types";
import { ok } from "../results";
import { proposalText } from "./proposals";

const PayInput = z.object({
  wallet: z.string().min(1).max(100).describe("The wallet's id (wal_...) or its name. An EVM wallet whose key the service holds."),
  url: z.string().min(1).max(2048).describe("The x402 resource, https. The service requests it itself; redirects and private or loopback hosts are refused."),
  method: z.enum(["GET", "POST"]).optional().describe("HTTP method, default GET (POST sends an empty body)."),
  maxAmount: z
    .string()
    .max(100)
    .optional()
    .describe("Most you will pay, in whole tokens (e.g. \"0.10\" USDC). An invoice above it is refused before anything is recorded."),
  note: z.string().optional().describe(`Optional context for the judge. Untrusted: it never grants permission. Cut at ${NOTE_MAX} characters.`),
});

interface PaymentView {
  url: string;
  amountHuman: string | null;
  symbol: string | null;
  payTo: string;
  responseStatus: number | null;
  response: string | null;
  responseTruncated: boolean;
  validBefore: string | null;
  pending?: string;
}

/** The proposal text (SPEC 4.12 lines), then what the payment and the resource came to. */
export function paymentText(r: PayResult): string {
  const pay = r.payment as PaymentView | undefined;
  const lines = [proposalText(r)];
  if (!pay) return lines[0];
  lines.push(`x402 payment of ${pay.amountHuman ?? "?"} ${pay.symbol ?? ""} to ${pay.payTo} for ${pay.url}`.replace(/\s+/g, " "));
  if (r.status === "executed") {
    lines.push(`Paid. The resource answered HTTP ${pay.responseStatus ?? "?"}${pay.responseTruncated ? " (response cut at 8,000 characters)" : ""}:`);
    lines.push(pay.response ?? "(empty)");
  } else if (r.status === "executing" && pay.pending) {
    lines.push(`Not settled yet: ${pay.pending}`);
    if (pay.response) lines.push(`The resource answered HTTP ${pay.responseStatus}:`, pay.response);
  }
  return lines.join("\n");
}

export function createPayX402Tool(payments: X402PayService): McpToolDefinition {
  return defineTool({
    name: "escrow_pay_x402",
    title: "Pay an x402 resource from an escrow wallet",
    description:
      "Proposal: the service requests the URL, reads the x402 v2 terms of its 402 answer (exact scheme, the wallet's chain) and proposes exactly that payment: checked against the wallet's limits (free refusal) and judged against its mandate (one credit). An autonomous wallet pays an ALLOW at once and the reply carries up to 8,000 characters of the resource's answer; a safe wallet holds it for the owner, and the payment is made when the owner confirms. EVM wallets whose key the service holds only.",
    inputSchema: PayInput,
    annotations: { title: "Escrow x402 payment", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    scope: "wallet",
    requiresEscrow: true,
    async handler(a, ctx) {
      let r: PayResult;
      try {
        r = await payments.pay(ctx.principal, { wallet: a.wallet, url: a.url, method: a.method, maxAmount: a.maxAmount, note: a.note });
      } catch (err) {
        if (err instanceof ServiceError && err.kind !== "not_found" && err.kind !== "unauthenticated" && err.error !== "propose_failed") {
          throw new ServiceError(err.kind, "propose_failed", err.detail ?? err.error, { extra: err.extra });
        }
        throw err;
      }
      return ok(paymentText(r), r as unknown as Record<string, unknown>);
    },
  });
}
