/** Pure parts of x402 payments: reading the 402 terms, comparing them, the stored response text. */
import { describe, expect, it } from "vitest";
import { buildPaymentRequired, buildUsdcPaymentRequirements, encodePaymentRequiredHeader, PAYMENT_REQUIRED_HEADER } from "../../src/x402";
import { chooseTerms, TermsError } from "../../src/x402/pay/terms";
import { RESPONSE_TEXT_MAX, responseText, termsDiffer, type X402Payload } from "../../src/x402/pay/kind";
import type { GuardedResponse } from "../../src/net/ssrf-fetch";

const PAY_TO = "0x1111111111111111111111111111111111111111";
const OTHER = "0x2222222222222222222222222222222222222222";
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const opts = { network: "eip155:8453", isKnownToken: (a: string) => a.toLowerCase() === USDC.toLowerCase() };

const reqs = (over: Record<string, unknown> = {}) => ({ ...buildUsdcPaymentRequirements({ amount: 50_000n, payTo: PAY_TO }), ...over });
const doc = (accepts: unknown[]) => buildPaymentRequired({ accepts: accepts as never, resource: { url: "https://r.example/x", description: "d", mimeType: "application/json" } });
const answer = (header: unknown[] | null, body: unknown[] | null | string): GuardedResponse => ({
  status: 402,
  headers: header ? { [PAYMENT_REQUIRED_HEADER.toLowerCase()]: encodePaymentRequiredHeader(doc(header)) } : {},
  body: Buffer.from(typeof body === "string" ? body : body ? JSON.stringify(doc(body)) : "{}"),
  truncated: false,
  redirectTo: null,
  remoteAddress: null,
});

describe("chooseTerms", () => {
  it("reads the header, or the JSON body when there is no header", () => {
    expect(chooseTerms(answer([reqs()], null), opts)).toMatchObject({ amount: 50_000n, payTo: PAY_TO, asset: USDC });
    expect(chooseTerms(answer(null, [reqs()]), opts)).toMatchObject({ amount: 50_000n, resource: { url: "https://r.example/x" } });
    expect(chooseTerms(answer([reqs()], [reqs()]), opts).amount).toBe(50_000n);
  });

  it("refuses a header and a body that name different terms", () => {
    expect(() => chooseTerms(answer([reqs()], [reqs({ payTo: OTHER })]), opts)).toThrow(/header and the JSON body name different terms/);
    expect(() => chooseTerms(answer([reqs()], [reqs({ amount: "60000" })]), opts)).toThrow(TermsError);
  });

  it("picks exact on the wallet's network with an EIP-3009 domain, preferring registry tokens", () => {
    const foreign = reqs({ asset: "0x3333333333333333333333333333333333333333" });
    const picked = chooseTerms(answer([reqs({ network: "eip155:1" }), reqs({ scheme: "upto" }), reqs({ extra: { assetTransferMethod: "permit2", name: "USD Coin", version: "2" } }), reqs({ extra: {} }), foreign, reqs()], null), opts);
    expect(picked.option).toMatchObject({ scheme: "exact", network: "eip155:8453", asset: USDC });
    expect(() => chooseTerms(answer([reqs({ network: "solana:mainnet" }), reqs({ scheme: "upto" })], null), opts)).toThrow(/no payable option: .* the resource offers exact on solana:mainnet, upto on eip155:8453/);
  });

  it("refuses answers without v2 terms, malformed headers and bad amounts", () => {
    expect(() => chooseTerms(answer(null, "not json"), opts)).toThrow(/carries no x402 v2 terms/);
    const bad: GuardedResponse = { ...answer(null, null), headers: { "payment-required": "%%%" } };
    expect(() => chooseTerms(bad, opts)).toThrow(/PAYMENT-REQUIRED header/);
    expect(() => chooseTerms(answer([reqs({ amount: "0" }), reqs({ amount: "1.5" }), reqs({ amount: "-1" })], null), opts)).toThrow(/no payable option/);
  });
});

describe("termsDiffer and responseText", () => {
  const p: X402Payload = { v: 1, kind: "x402_payment", chainId: 8453, from: PAY_TO, url: "https://r.example/x", method: "GET", network: "eip155:8453", scheme: "exact", asset: USDC, amount: "50000", payTo: PAY_TO };
  it("names every difference", () => {
    expect(termsDiffer(p, { amount: 50_000n, asset: USDC.toLowerCase(), payTo: PAY_TO, network: "eip155:8453" })).toBeNull();
    expect(termsDiffer(p, { amount: 60_000n, asset: USDC, payTo: OTHER, network: "eip155:8453" })).toBe(`amount 60000 instead of 50000, payTo ${OTHER} instead of ${PAY_TO}`);
  });
  it("keeps 8,000 storable characters", () => {
    expect(responseText(Buffer.from("a\u0000b"))).toEqual({ text: "ab", cut: false });
    const long = responseText(Buffer.from("x".repeat(RESPONSE_TEXT_MAX + 5)));
    expect(long.text.length).toBe(RESPONSE_TEXT_MAX);
    expect(long.cut).toBe(true);
    expect(responseText(Buffer.from([0xff, 0xfe, 0x41])).text).toBe("\ufffd\ufffdA");
  });
});
