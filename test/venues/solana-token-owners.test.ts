import { describe, expect, it } from "vitest";
import { address, createNoopSigner } from "@solana/kit";
import { getTransferCheckedInstruction } from "@solana-program/token";
import { detectAction } from "../../src/venues/registry";
import { evaluateRules } from "../../src/judge/rules/engine";
import { PAYER, solanaTx } from "./helpers";

const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const SOURCE = "DxpFqiKixy1QH9GNyXJMeXv34ezJZU6KynvgbevH4hLX";
const SUPPLIER = "5E1mU2JuKdkAYpXP2dv4TsJ5cM1xCrGq6jVp8iiU7sMn";
const SUPPLIER_TA = "ATr6PLKgjGPLKhfxxdhuurU9yR4z4MeC79A5QjLWP7xX";
const STRANGER_TA = "9TvE8WWMhN2NZtPZ62VhuyixndB4Wkc4HCZnDLGCj5Rb";

const pay = (dest: string, base: bigint) =>
  solanaTx([getTransferCheckedInstruction({ source: address(SOURCE), mint: address(USDC), destination: address(dest), authority: createNoopSigner(address(PAYER)), amount: base, decimals: 6 })]);

describe("owner of a destination token account, from the owner's own lists", () => {
  it("a table keyed by wallet whose entry names the token account gives its owner", () => {
    const ctx = { suppliers: { [SUPPLIER]: { label: "Harbor Print", usdc_ata: SUPPLIER_TA } } };
    const f = detectAction({ transaction: pay(SUPPLIER_TA, 1_000_000n) }, "solana", ctx);
    expect(f?.transfers?.[0].to).toBe(SUPPLIER);
    expect(f?.warnings.join(" ")).not.toMatch(/owner is not known/);
  });

  it("a token account no entry names stays unresolved and is flagged", () => {
    const ctx = { suppliers: { [SUPPLIER]: { label: "Harbor Print", usdc_ata: SUPPLIER_TA } } };
    const f = detectAction({ transaction: pay(STRANGER_TA, 1_000_000n) }, "solana", ctx);
    expect(f?.transfers?.[0].to).toBe(STRANGER_TA);
    expect(f?.warnings.join(" ")).toMatch(/owner is not known/);
  });

  it("keys that are not wallet addresses do not make owners", () => {
    const ctx = { notes: { "harbor-print": { usdc_ata: SUPPLIER_TA } } };
    expect(detectAction({ transaction: pay(SUPPLIER_TA, 1_000_000n) }, "solana", ctx)?.transfers?.[0].to).toBe(SUPPLIER_TA);
  });

  it("rules: paying a listed supplier's account is allowed, an unlisted account is not", () => {
    const intent = "USDC payments only to the suppliers in context.suppliers, 50 USDC max each.";
    const ctx = { suppliers: { [SUPPLIER]: { label: "Harbor Print", usdc_ata: SUPPLIER_TA } } };
    const judge = (tx: string) => {
      const action = { transaction: tx };
      return evaluateRules({ intent, action, facts: detectAction(action, "solana", ctx), context: ctx, reference: null, note: null, preset: "generic" }).verdict;
    };
    expect(judge(pay(SUPPLIER_TA, 45_000_000n))).toBe("ALLOW");
    expect(judge(pay(SUPPLIER_TA, 50_000_001n))).toBe("BLOCK");
    expect(judge(pay(STRANGER_TA, 5_000_000n))).not.toBe("ALLOW");
  });
});
