/**
 * Reading a resource's x402 v2 terms from its 402 answer, and choosing the one we can pay.
 *
 * Terms come from the `PAYMENT-REQUIRED` header (base64 JSON, authoritative in v2) and/or the JSON body.
 * When both carry terms, the option we pick must read the same in both (amount, asset, payTo), else the
 * answer is ambiguous and refused. The option: scheme `exact`, the wallet's network, an EIP-3009 transfer
 * (no Permit2), an EIP-712 domain (`extra.name`, `extra.version`), a positive integer amount, 0x asset and
 * payTo. Among several, a token of the chain's registry comes first.
 */
import { getAddress, type Address } from "viem";
import { z } from "zod";
import { CHECKSUM_MESSAGE, evmAddressSchema } from "../../chains/evm/address";
import type { PaymentRequirements, ResourceInfo } from "@x402/core/types";
import { decodePaymentRequiredHeader, PAYMENT_REQUIRED_HEADER } from "../requirements";
import type { GuardedResponse } from "../../net/ssrf-fetch";

const addr = evmAddressSchema();
const Option = z.object({
  scheme: z.string(),
  network: z.string(),
  amount: z.string().regex(/^[1-9]\d{0,77}$/),
  asset: addr,
  payTo: addr,
  maxTimeoutSeconds: z.number().int().positive(),
  extra: z.record(z.string(), z.unknown()).optional(),
});
const Terms = z.object({
  x402Version: z.literal(2),
  accepts: z.array(z.unknown()).max(50),
  resource: z.object({ url: z.string() }).passthrough().optional(),
  error: z.string().optional(),
});

export interface ResourceTerms {
  accepts: unknown[];
  resource: ResourceInfo | null;
  error: string | null;
}

export class TermsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TermsError";
  }
}

function fromHeader(res: GuardedResponse): ResourceTerms | null {
  const raw = res.headers[PAYMENT_REQUIRED_HEADER.toLowerCase()];
  if (!raw) return null;
  let decoded: unknown;
  try {
    decoded = decodePaymentRequiredHeader(raw.trim());
  } catch {
    throw new TermsError("the PAYMENT-REQUIRED header is not base64 JSON");
  }
  const t = Terms.safeParse(decoded);
  if (!t.success) throw new TermsError(`the PAYMENT-REQUIRED header is not x402 v2 terms (${t.error.issues[0].path.join(".") || "body"}: ${t.error.issues[0].message})`);
  return { accepts: t.data.accepts, resource: (t.data.resource as ResourceInfo | undefined) ?? null, error: t.data.error ?? null };
}

function fromBody(res: GuardedResponse): ResourceTerms | null {
  let json: unknown;
  try {
    json = JSON.parse(res.body.toString("utf8"));
  } catch {
    return null;
  }
  const t = Terms.safeParse(json);
  if (!t.success) return null;
  return { accepts: t.data.accepts, resource: (t.data.resource as ResourceInfo | undefined) ?? null, error: t.data.error ?? null };
}

export interface ChosenTerms {
  option: PaymentRequirements;
  resource: ResourceInfo | null;
  asset: Address;
  payTo: Address;
  amount: bigint;
}

export interface PickOptions {
  /** CAIP-2 network of the wallet, e.g. eip155:8453. */
  network: string;
  /** Registry tokens come first. */
  isKnownToken: (asset: string) => boolean;
}

const describe = (o: Record<string, unknown>) => `${String(o.scheme)} on ${String(o.network)}${o.extra && (o.extra as Record<string, unknown>).assetTransferMethod ? ` (${String((o.extra as Record<string, unknown>).assetTransferMethod)})` : ""}`;

function candidates(terms: ResourceTerms, opts: PickOptions): PaymentRequirements[] {
  const out: PaymentRequirements[] = [];
  for (const raw of terms.accepts) {
    const o = Option.safeParse(raw);
    if (!o.success) {
      // A mistyped address in the terms is refused outright: paying its lower-cased form pays a stranger.
      const bad = o.error.issues.find((i) => i.message === CHECKSUM_MESSAGE);
      if (bad) throw new TermsError(`the resource's ${bad.path.join(".")} ${String((raw as Record<string, unknown>)[String(bad.path[0])]).slice(0, 42)} ${CHECKSUM_MESSAGE}: refused`);
      continue;
    }
    const extra = o.data.extra ?? {};
    if (o.data.scheme !== "exact" || o.data.network !== opts.network) continue;
    if (extra.assetTransferMethod !== undefined && extra.assetTransferMethod !== "eip3009") continue;
    if (typeof extra.name !== "string" || typeof extra.version !== "string") continue;
    out.push(raw as PaymentRequirements);
  }
  return out.sort((a, b) => Number(opts.isKnownToken(b.asset)) - Number(opts.isKnownToken(a.asset)));
}

const same = (a: PaymentRequirements, b: PaymentRequirements) =>
  a.amount === b.amount && a.asset.toLowerCase() === b.asset.toLowerCase() && a.payTo.toLowerCase() === b.payTo.toLowerCase();

/** The option to pay from a 402 answer, or a TermsError saying why none fits. */
export function chooseTerms(res: GuardedResponse, opts: PickOptions): ChosenTerms {
  const header = fromHeader(res);
  const body = fromBody(res);
  const terms = header ?? body;
  if (!terms) throw new TermsError("the 402 answer carries no x402 v2 terms (no PAYMENT-REQUIRED header and no JSON body with x402Version 2 and accepts)");
  const list = candidates(terms, opts);
  if (!list.length) {
    const offered = terms.accepts.map((a) => (a && typeof a === "object" ? describe(a as Record<string, unknown>) : "?")).join(", ") || "nothing";
    throw new TermsError(`no payable option: this wallet pays the exact scheme with an EIP-3009 token on ${opts.network}; the resource offers ${offered}`);
  }
  const option = list[0];
  if (header && body) {
    const twin = candidates(body, opts).find((o) => o.scheme === option.scheme && o.network === option.network);
    if (twin && !same(twin, option)) throw new TermsError("the PAYMENT-REQUIRED header and the JSON body name different terms: refused as ambiguous");
  }
  return { option, resource: terms.resource, asset: getAddress(option.asset), payTo: getAddress(option.payTo), amount: BigInt(option.amount) };
}
