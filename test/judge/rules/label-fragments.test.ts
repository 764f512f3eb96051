/**
 * Headings, titles, identifiers, list numbers, recitals, sign-offs and remarks about the rules: they name or
 * frame a mandate and limit nothing. Unsafe sides: a heading that states a limit stays a rule, a figure with a unit
 * after a unit noun stays a figure, a known token written like a code stays a token, and a section heading whose
 * title is itself a rule ("§3 No withdrawals") still forbids.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { withoutIdentifiers } from "../../../src/judge/rules/parse/fragments";
import { facts, orderFacts, transfer, verdict } from "./helpers";

const V1 = "0x5555555555555555555555555555555555555555";
const STRANGER = "0x6666666666666666666666666666666666666666";
const onBase = { chain: "base", chainId: 8453 };
const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);
const btc = (usd: number) => orderFacts({ asset: "BTC", price: 90000, size: usd / 90000, notionalUsd: usd });

describe("identifiers are names, not tokens or figures", () => {
  const I = "Wallet TR-07 (Northwind Offsite)\nTR-07 pays the vendors in context.vendors, USDC only, at most 2,000 USDC per payment.\nRef: NW-2026/fin-3";
  const ctx = { vendors: { [V1]: "Lumen Catering" } };

  it("reads no asset out of a code and no figure out of its number", () => {
    const k = parseIntent(I).constraints;
    expect(k.some((x) => x.kind === "allow" && x.dim === "asset" && x.values.some((v) => v === "TR" || v === "NW"))).toBe(false);
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, transfer({ amount: "1500", usd: 1500, to: V1 }, onBase), ctx)).toBe("ALLOW");
  });

  it("the rules around the code still bind", () => {
    expect(verdict(I, transfer({ amount: "2500", usd: 2500, to: V1 }, onBase), ctx)).toBe("BLOCK");
    expect(verdict(I, transfer({ amount: "100", usd: 100, to: STRANGER }, onBase), ctx)).toBe("BLOCK");
  });

  it("a standard or a known token in code form is left to the readers", () => {
    expect(withoutIdentifiers("no ERC-20 transfers")).toBe("no ERC-20 transfers");
    expect(withoutIdentifiers("USDC-2 only")).toBe("USDC-2 only");
    expect(parseIntent("No ERC-20 transfers.").constraints).toContainEqual(expect.objectContaining({ kind: "forbid" }));
  });

  it("a unit's number is a name unless an amount's unit follows it", () => {
    expect(withoutIdentifiers("scalper for desk 4").trim()).toBe("scalper for desk");
    expect(withoutIdentifiers("send wallet 2 ETH")).toContain("2");
    expect(withoutIdentifiers("max per wallet 500")).toContain("500");
    expect(withoutIdentifiers("bot 3 times a day")).toContain("3");
  });
});

describe("headings and list numbers", () => {
  it("a heading with a desk number is a label; the bullets under it are the rules", () => {
    const I = "# scalper - desk 4\n- BTC perps only\n- max $3k per order";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, btc(2000))).toBe("ALLOW");
    expect(verdict(I, btc(4000))).toBe("BLOCK");
  });

  it("a heading that states a limit is a rule", () => {
    const I = "# max $3k per order\nscalper for desk 4, BTC perps";
    expect(verdict(I, btc(4000))).toBe("BLOCK");
    expect(verdict(I, btc(2000))).toBe("ALLOW");
  });

  it("bare list numbers on their own lines are not clauses", () => {
    const I = "1\nBTC perps only\n2\nmax $1k per order";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, btc(500))).toBe("ALLOW");
    expect(verdict(I, btc(1500))).toBe("BLOCK");
  });

  it("a numbered section heading is a label unless its title is a rule", () => {
    // Session 23 (structure/outline.ts): the heading heads the line under it instead of being a reading of its own.
    expect(readings("§2 Settlement asset.\nBTC perps only.")).toEqual(["constraint"]);
    const I = "§3 No withdrawals.\nBTC perps only.";
    expect(verdict(I, facts({ actionFamily: "withdrawal", actionType: "withdraw3", transfers: [{ asset: "USDC", amount: "10", usd: 10, to: STRANGER }] }))).toBe("BLOCK");
  });
});

describe("titles, recitals, sign-offs and remarks about the rules", () => {
  const RULES = "BTC perps only, max $1k per order.";

  it("titles with ids, revisions and how they were adopted are background", () => {
    for (const title of ["MANDATE OPS-DESK-009 rev. 2", "Council Resolution 31/2026 (adopted by member vote)", "Guild Directive 2026-11"]) {
      expect(readings(`${title}\n${RULES}`)[0]).toBe("descriptive");
      expect(verdict(`${title}\n${RULES}`, btc(500))).toBe("ALLOW");
    }
  });

  it("a title that carries a limit is not swallowed", () => {
    expect(verdict(`Resolution 9: max $500 per order\n${RULES}`, btc(800))).toBe("BLOCK");
  });

  it("a recital is background unless it limits", () => {
    expect(readings(`Whereas the DAO keeps its reserves in BTC;\n${RULES}`)[0]).toBe("descriptive");
    expect(readings(`Whereas the DAO may only hold BTC;\n${RULES}`)[0]).not.toBe("descriptive");
  });

  it("a sign-off with a date is background; one with a limit is not", () => {
    expect(verdict(`${RULES}\n— risk desk, March 2026`, btc(500))).toBe("ALLOW");
    expect(verdict(`${RULES}\n— risk desk, max $300`, btc(500))).not.toBe("ALLOW");
  });

  it("remarks about changing the rules limit no wallet action", () => {
    for (const r of ["Do not edit this mandate.", "These rules may only be changed by the owner.", "This policy is reviewed by the Treasury Committee every quarter."]) {
      expect(readings(`${RULES}\n${r}`)).not.toContain("not understood");
      expect(verdict(`${RULES}\n${r}`, btc(500))).toBe("ALLOW");
    }
  });

  it("a rule about something the agent can change is not a remark about the rules", () => {
    expect(parseIntent("Never change the leverage.").constraints).toContainEqual(expect.objectContaining({ kind: "forbid" }));
    const k = parseIntent(`${RULES}\nThese rules may be changed only by the owner, and never above 2 ETH.`).constraints;
    expect(k).toContainEqual(expect.objectContaining({ kind: "cap", limit: { value: 2, unit: "ETH" } }));
  });
});
