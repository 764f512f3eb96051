import { describe, expect, it } from "vitest";
import { getTransferCheckedInstruction } from "@solana-program/token";
import { address, createNoopSigner } from "@solana/kit";
import { detectAction } from "../../src/venues/registry";
import { devCase, PAYER, solanaTx } from "./helpers";

const base = devCase("dev-x402-051").action as Record<string, unknown>;
const accepted = base.accepted as Record<string, unknown>;

describe("x402", () => {
  it("a payTo mismatch between authorization and accepted terms is warned", () => {
    const p = structuredClone(base) as { payload: { authorization: Record<string, unknown> } };
    p.payload.authorization.to = "0x0F8201f9235469b5edcEa57b817c16C707c5344C";
    const f = detectAction(p, null, {});
    expect(f?.recipients).toEqual(["0x0f8201f9235469b5edcea57b817c16c707c5344c"]);
    expect(f?.warnings.join(" ")).toMatch(/not the accepted payTo/);
  });

  it("an unknown asset leaves the amount in base units and warns", () => {
    const p = structuredClone(base) as { accepted: Record<string, unknown> };
    p.accepted.asset = "0x1111111111111111111111111111111111111111";
    const f = detectAction(p, null, {});
    expect(f?.transfers?.[0]).toMatchObject({ amount: null, amountBase: "250000" });
    expect(f?.notionalUsd).toBeNull();
    expect(f?.warnings.join(" ")).toMatch(/extra names "USD Coin" but the asset is/);
    // the same USDC address on the wrong network is not USDC there either
    const q = structuredClone(base) as { accepted: Record<string, unknown> };
    q.accepted.network = "eip155:1";
    expect(detectAction(q, null, {})?.warnings.join(" ")).toMatch(/not a known USDC contract/);
  });

  it("PaymentRequired with two options: notional is the larger", () => {
    const req = { x402Version: 2, error: "payment_required", resource: base.resource, accepts: [accepted, { ...accepted, amount: "900000" }] };
    const f = detectAction(req, null, {});
    expect(f).toMatchObject({ venue: "x402", actionFamily: "payment", actionType: "paymentRequired", chain: "base", notionalUsd: 0.9 });
    expect(f?.transfers).toHaveLength(2);
  });

  it("a facilitator verify request cross-checks accepted against the requirements", () => {
    const f = detectAction({ x402Version: 2, paymentPayload: base, paymentRequirements: { ...accepted, amount: "100000" } }, null, {});
    expect(f?.warnings.join(" ")).toMatch(/accepted amount 250000 differs from the required amount 100000/);
  });

  it("a v1 payload without accepted terms is judged on the authorization alone", () => {
    const v1 = { x402Version: 1, scheme: "exact", network: "base", payload: (base as { payload: unknown }).payload };
    const f = detectAction(v1, null, {});
    expect(f?.venue).toBe("x402");
    expect(f?.warnings.join(" ")).toMatch(/cannot be cross-checked/);
    expect(f?.warnings.join(" ")).toMatch(/version 1/);
  });

  it("an SVM payment transaction is decoded and compared with the accepted amount", () => {
    const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
    const ix = getTransferCheckedInstruction({ source: address("DxpFqiKixy1QH9GNyXJMeXv34ezJZU6KynvgbevH4hLX"), mint: address(USDC), destination: address("ATr6PLKgjGPLKhfxxdhuurU9yR4z4MeC79A5QjLWP7xX"), authority: createNoopSigner(address(PAYER)), amount: 20_000n, decimals: 6 });
    const payload = { x402Version: 2, accepted: { scheme: "exact", network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", amount: "10000", asset: USDC, payTo: "DYqY1jW6j8xdeH32DTtfK4dw38tnr5ZuT1uiEVkXeoFk" }, payload: { transaction: solanaTx([ix]) } };
    const f = detectAction(payload, null, {});
    expect(f).toMatchObject({ venue: "x402", chain: "solana", notionalUsd: 0.02 });
    expect(f?.warnings.join(" ")).toMatch(/value 20000 differs from accepted amount 10000/);
  });

  it("a bare PaymentRequirements object is recognised; half-shaped ones are not", () => {
    expect(detectAction(accepted, null, {})?.actionType).toBe("paymentRequirements");
    expect(detectAction({ x402Version: 2 }, null, {})).toBeNull();
    expect(detectAction({ accepts: [{ scheme: "exact" }] }, null, {})).toBeNull();
  });
});
