/**
 * A local x402 v2 resource server for the payment tests: a small Hono app on 127.0.0.1 that answers 402
 * with the terms (PAYMENT-REQUIRED header and the same PaymentRequired as JSON body), and on a
 * PAYMENT-SIGNATURE verifies and settles through the sandbox's in-process facilitator (src/x402), then
 * serves the content with PAYMENT-RESPONSE. Each path can be tuned: price, status after payment, refusal.
 */
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import type { Address } from "viem";
import {
  buildPaymentRequired,
  buildUsdcPaymentRequirements,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
  findMatchingRequirements,
  parsePaymentSignatureHeader,
  PAYMENT_REQUIRED_HEADER,
  PAYMENT_RESPONSE_HEADER,
  PAYMENT_SIGNATURE_HEADER,
  type Facilitator,
} from "../../src/x402";

export interface PaidRoute {
  /** Atomic USDC. */
  price: bigint;
  payTo: Address;
  /** Content served after payment. */
  content: string;
  /** Status after a settled payment (default 200). */
  statusAfter?: number;
  /** Answer 402 to the signed payment without settling it. */
  refuse?: boolean;
  maxTimeoutSeconds?: number;
  /** payTo exactly as the terms advertise it (e.g. a mistyped checksum); default: the checksummed payTo. */
  advertisedPayTo?: string;
}

export interface ResourceServer {
  url: string;
  routes: Map<string, PaidRoute>;
  /** Requests seen per path: [with payment, without]. */
  hits: Map<string, { paid: number; unpaid: number }>;
  close(): Promise<void>;
}

export async function startResourceServer(facilitator: Facilitator): Promise<ResourceServer> {
  const routes = new Map<string, PaidRoute>();
  const hits = new Map<string, { paid: number; unpaid: number }>();
  const app = new Hono();
  app.get("/redirect", (c) => c.redirect("http://169.254.169.254/latest/meta-data", 302));
  app.get("/free", (c) => c.text("free content"));
  app.all("/paid/:name", async (c) => {
    const route = routes.get(c.req.param("name"));
    if (!route) return c.json({ error: "not_found" }, 404);
    const h = hits.get(c.req.param("name")) ?? { paid: 0, unpaid: 0 };
    hits.set(c.req.param("name"), h);
    const built = buildUsdcPaymentRequirements({ amount: route.price, payTo: route.payTo, maxTimeoutSeconds: route.maxTimeoutSeconds ?? 120 });
    const requirements = route.advertisedPayTo ? { ...built, payTo: route.advertisedPayTo } : built;
    const required = (error: string) => buildPaymentRequired({ accepts: [requirements], resource: { url: c.req.url, description: "test resource", mimeType: "application/json" }, error });
    const ask = (error: string, extra: Record<string, string> = {}) => c.json(required(error), 402, { [PAYMENT_REQUIRED_HEADER]: encodePaymentRequiredHeader(required(error)), ...extra });
    const header = c.req.header(PAYMENT_SIGNATURE_HEADER);
    if (!header) {
      h.unpaid++;
      return ask("payment_required");
    }
    h.paid++;
    const payload = parsePaymentSignatureHeader(header);
    if (!payload) return ask("invalid_payment");
    const matched = findMatchingRequirements(payload, [requirements]);
    if (!matched) return ask("terms_mismatch");
    if (route.refuse) return ask("refused_by_test");
    const v = await facilitator.verify(payload, matched);
    if (!v.isValid) return ask(v.invalidReason ?? "invalid");
    const s = await facilitator.settle(payload, matched);
    if (!s.success) return ask(s.errorReason ?? "settle_failed", { [PAYMENT_RESPONSE_HEADER]: encodePaymentResponseHeader(s) });
    return c.body(route.content, (route.statusAfter ?? 200) as 200, { "content-type": "application/json", [PAYMENT_RESPONSE_HEADER]: encodePaymentResponseHeader(s) });
  });
  return new Promise((resolve) => {
    const server: ServerType = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        routes,
        hits,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
  });
}
