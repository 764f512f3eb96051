/**
 * Clauses that point elsewhere in the same intent ("pay only the suppliers below:" followed by bullets; "Sunday
 * payouts are ok" when payouts are permitted anyway; "we don't limit the time of day"), and cautions the context
 * attaches to a counterparty ("payments on hold").
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import type { TransferFact } from "../../../src/venues/types";
import { transfer as evmTransfer, verdict } from "./helpers";

const transfer = (t: Partial<TransferFact>) => evmTransfer(t, { chain: "base", chainId: 8453 });

const A = "0x1212121212121212121212121212121212121212";
const B = "0x3434343434343434343434343434343434343434";
const C = "0x5656565656565656565656565656565656565656";
const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);

describe("a recipient noun whose list follows as bullets", () => {
  const I = `Base escrow for the studio build.\nSend USDC only to the suppliers below, 450 USDC max per transfer:\n* Kiln & Co ${A}\n* Halden Timber ${B}\nSunday payouts are ok; we don't limit the time of day. Nobody else gets paid.`;

  it("reads every clause and allows a listed supplier within the cap", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, transfer({ asset: "USDC", amount: "450", usd: 450, to: B }))).toBe("ALLOW");
  });

  it("still refuses an unlisted address and an amount over the cap", () => {
    expect(verdict(I, transfer({ asset: "USDC", amount: "10", usd: 10, to: C }))).toBe("BLOCK");
    expect(verdict(I, transfer({ asset: "USDC", amount: "451", usd: 451, to: A }))).toBe("BLOCK");
  });

  it("without any list in the intent the noun stays unread", () => {
    expect(readings("Send USDC only to the suppliers below, 450 USDC max per transfer:")).toContain("not understood");
  });
});

describe("a time word on a permission", () => {
  it("is read past only when the same activity is permitted without it", () => {
    expect(readings(`Pay USDC to ${A}. Sunday payouts are ok.`)).not.toContain("not understood");
  });

  it("a time word with 'only' is a limit the engine cannot check", () => {
    expect(readings(`Pay USDC to ${A}. Payouts on Fridays only.`)).toContain("not understood");
  });
});

describe("context cautions about a counterparty", () => {
  const I = `Pay USDC only to ${A} or ${B}, at most 500 USDC per payment.`;
  it("a note that payments to the recipient are on hold escalates; a plain note does not", () => {
    const held = { supplier_notes: { [B]: "Payments on hold until the damaged shipment is credited." } };
    expect(verdict(I, transfer({ asset: "USDC", amount: "100", usd: 100, to: B }), held)).toBe("ESCALATE");
    expect(verdict(I, transfer({ asset: "USDC", amount: "100", usd: 100, to: A }), held)).toBe("ALLOW");
    expect(verdict(I, transfer({ asset: "USDC", amount: "100", usd: 100, to: B }), { supplier_notes: { [B]: "Net 30, invoices monthly." } })).toBe("ALLOW");
  });
});
