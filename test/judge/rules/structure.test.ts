/**
 * Rules given as structure (src/judge/rules/structure/): bare titles over their lines, question-and-answer pairs,
 * ticked and crossed lines, blob switches, key = value lines, and tables, CSV blocks, JSON lists and YAML lists
 * whose rows are payment permissions. Every block has its unsafe side: a row's cap binds only that row's payee, a
 * move no row names is refused, a prohibiting title never permits, a column nobody can map holds the action.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { facts, orderFacts, transfer, verdict } from "./helpers";

const P1 = "0x4a00000000000000000000000000000000000001";
const P2 = "0x4a00000000000000000000000000000000000002";
const P3 = "0x4a00000000000000000000000000000000000003";
const OTHER = "0x4a000000000000000000000000000000000000ff";
const prices = { ETH: 3000, WETH: 3000, USDC: 1, DAI: 1 };
const pay = (asset: string, amount: number, to: string) => transfer({ asset, amount: String(amount), usd: amount * (prices[asset as keyof typeof prices] ?? 1), to });
const ctx = { prices };
const lev = (isCross: boolean, value: number) => facts({ actionFamily: "margin", actionType: "updateLeverage", leverage: { asset: "ETH", value, isCross }, assets: ["ETH"] });

describe("bare titles over their lines", () => {
  const I = `Perp bot for the options desk

Instruments
ETH and BTC perpetuals

Largest order
$6,000 notional

Margin
cross, at most 4x

Not allowed
withdrawals
transfers to other wallets`;

  it("each line is read under its title", () => {
    expect(verdict(I, orderFacts({ asset: "ETH", notionalUsd: 5000, price: 2500, size: 2 }))).toBe("ALLOW");
    expect(verdict(I, lev(true, 4))).toBe("ALLOW");
  });

  it("unsafe side: the title's figure and margin mode bind", () => {
    expect(verdict(I, orderFacts({ asset: "ETH", notionalUsd: 6500, price: 2600, size: 2.5 }))).toBe("BLOCK");
    expect(verdict(I, lev(false, 2))).toBe("BLOCK");
    expect(verdict(I, orderFacts({ asset: "SOL", notionalUsd: 500, price: 100, size: 5 }))).not.toBe("ALLOW");
  });

  it("unsafe side: the lines under a prohibiting title are prohibitions, never permissions", () => {
    const w = facts({ venue: "hyperliquid", actionFamily: "withdrawal", actionType: "withdraw3", transfers: [{ asset: "USDC", amount: "50", usd: 50, to: OTHER, kind: "withdraw3" }], assets: ["USDC"], recipients: [OTHER.toLowerCase()], notionalUsd: 50 });
    expect(verdict(I, w)).toBe("BLOCK");
    const forbids = parseIntent(I).constraints.filter((k) => k.kind === "forbid");
    expect(forbids.length).toBeGreaterThanOrEqual(2);
    expect(parseIntent(I).constraints.some((k) => k.kind === "permit" && k.activities.includes("withdrawal"))).toBe(false);
  });

  it("unsafe side: a prohibition whose words would permit ('anything but', 'other than') is not read as a permission", () => {
    const J = "Allowed: sending DAI to " + P1 + ".\n\nForbidden\nsending DAI to anyone other than the treasury";
    const parsed = parseIntent(J);
    expect(parsed.clauses.some((r) => r.reading === "not understood" && /other than/.test(r.clause))).toBe(true);
    expect(verdict("Prohibited: withdrawing to any address other than the cold wallet.", pay("USDC", 10, OTHER), ctx)).not.toBe("ALLOW");
  });

  it("'no spot trading' forbids spot orders and swaps, not perp orders", () => {
    const K = "BTC perps only. No spot trading.";
    expect(verdict(K, orderFacts({ asset: "BTC", notionalUsd: 1000 }))).toBe("ALLOW");
    expect(verdict(K, orderFacts({ asset: "BTC", market: "spot", notionalUsd: 1000 }))).toBe("BLOCK");
  });
});

describe("questions and answers", () => {
  const I = `Q: Which coins can it trade?
A: ETH perps, nothing else.
Q: Largest single order?
A: $1,500 notional.
Q: May the bot send USDC to other people?
A: No, never.`;

  it("a question gives its answer a subject", () => {
    expect(verdict(I, orderFacts({ asset: "ETH", notionalUsd: 1200, price: 3000, size: 0.4 }))).toBe("ALLOW");
    expect(verdict(I, orderFacts({ asset: "ETH", notionalUsd: 1800, price: 3000, size: 0.6 }))).toBe("BLOCK");
  });

  it("unsafe side: a question answered 'no' forbids what it asks, it never permits it", () => {
    expect(verdict(I, pay("USDC", 10, OTHER), ctx)).toBe("BLOCK");
    expect(parseIntent(I).constraints.some((k) => k.kind === "permit" && k.activities.includes("transfer"))).toBe(false);
  });

  it("a question and its answer on one line", () => {
    const J = "ETH perps only. Q: Can it withdraw? A: No.";
    expect(parseIntent(J).constraints.some((k) => k.kind === "forbid" && k.activities.includes("withdrawal"))).toBe(true);
  });
});

describe("a CSV sheet whose rows are the payments", () => {
  const I = `Payments wallet. Only what is on this sheet:
name,wallet,currency,max per payment,memo
Lumen Design,${P1},USDC,1200,monthly retainer
Orbit Audits,${P2},USDC,9000,per milestone
gas float,${P3},WETH,0.3,relayer top-ups
Nothing else.`;

  it("each row is its own grant", () => {
    const grants = parseIntent(I).constraints.filter((k) => k.kind === "grant");
    expect(grants).toHaveLength(3);
    expect(verdict(I, pay("USDC", 1000, P1), ctx)).toBe("ALLOW");
    expect(verdict(I, pay("USDC", 8000, P2), ctx)).toBe("ALLOW");
    expect(verdict(I, pay("WETH", 0.25, P3), ctx)).toBe("ALLOW");
  });

  it("unsafe side: a row's cap binds that row's payee only, the other row's larger cap never lends", () => {
    expect(verdict(I, pay("USDC", 8000, P1), ctx)).toBe("BLOCK");
  });

  it("unsafe side: a payee in another row's currency, or in no row, is refused", () => {
    expect(verdict(I, pay("USDC", 50, P3), ctx)).toBe("BLOCK");
    expect(verdict(I, pay("USDC", 50, OTHER), ctx)).toBe("BLOCK");
    expect(verdict(I, pay("DAI", 50, P1), ctx)).toBe("BLOCK");
  });

  it("unsafe side: a column nobody can map stays beside its row, not understood", () => {
    const J = `payee,address,token,max_per_tx,approver
a,${P1},USDC,500,cfo
b,${P2},USDC,700,cfo`;
    expect(verdict(J, pay("USDC", 100, P1), ctx)).toBe("ESCALATE");
  });

  it("a markdown table of payees reads the same way", () => {
    const J = `| recipient | token | cap per transfer | note |
|---|---|---|---|
| ${P1} | USDC | 300 | design |
| ${P2} | DAI | 400 | legal |

anything not in the table: no`;
    expect(verdict(J, pay("DAI", 350, P2), ctx)).toBe("ALLOW");
    expect(verdict(J, pay("USDC", 350, P1), ctx)).toBe("BLOCK");
    expect(verdict(J, pay("USDC", 350, P2), ctx)).toBe("BLOCK");
  });
});

describe("JSON and YAML lists of allowed moves", () => {
  it("a JSON list of objects is a table", () => {
    const I = `{"payouts": [{"token": "USDC", "to": "${P1}", "max_per_tx": 250}, {"token": "WETH", "to": "${P2}", "max_per_tx": 0.1}], "otherwise": "deny", "enabled": true, "version": 7}`;
    expect(verdict(I, pay("USDC", 200, P1), ctx)).toBe("ALLOW");
    expect(verdict(I, pay("USDC", 300, P1), ctx)).toBe("BLOCK");
    expect(verdict(I, pay("USDC", 100, P2), ctx)).toBe("BLOCK");
  });

  it("a YAML list under a key", () => {
    const I = `payouts:
  - asset: DAI
    destination: ${P1}
    limit: 2000
  - asset: WETH
    destination: ${P2}
    limit: 1
default: deny`;
    expect(verdict(I, pay("DAI", 1500, P1), ctx)).toBe("ALLOW");
    expect(verdict(I, pay("WETH", 0.5, P1), ctx)).toBe("BLOCK");
  });

  it("unsafe side: a switch under an activity key is not dropped as a label", () => {
    const I = `withdrawals:\n  enabled: true\nmax per order: $100`;
    // Session 22 (structure/sections.ts): the switch is read as what it says about its key, "Withdrawals are allowed."
    expect(parseIntent(I).clauses.some((r) => /enabled|withdrawals are allowed/i.test(r.clause))).toBe(true);
  });
});

describe("ticked and crossed lines, key = value lines", () => {
  it("a ticked line reads as written, a crossed line forbids, 'any other host' closes the list", () => {
    const I = `- [x] ✅ pay x402 invoices from quotes.feedhouse.example
- [x] ❌ more than $0.10 per call
- [x] ❌ any other host`;
    const parsed = parseIntent(I);
    expect(parsed.unknown).toEqual([]);
    expect(parsed.constraints.some((k) => k.kind === "only_listed")).toBe(true);
  });

  it("an empty box is not read as in force", () => {
    expect(parseIntent("- [ ] withdrawals to the cold wallet").clauses.every((r) => r.reading === "not understood")).toBe(true);
  });

  it("key = value lines read like key: value lines, and 'recipient = self' is the sending wallet", () => {
    const parsed = parseIntent("chain = arbitrum\nrecipient = self\nmax notional = $900");
    expect(parsed.unknown).toEqual([]);
    expect(parsed.constraints.some((k) => k.kind === "allow" && k.dim === "recipient" && k.refs?.includes("@sender"))).toBe(true);
  });
});

describe("recipients named and never resolved", () => {
  it("unsafe side: 'only to the treasury' with no treasury given is not understood", () => {
    const w = facts({ venue: "hyperliquid", actionFamily: "withdrawal", actionType: "withdraw3", transfers: [{ asset: "USDC", amount: "10", usd: 10, to: OTHER, kind: "withdraw3" }], assets: ["USDC"], recipients: [OTHER.toLowerCase()], notionalUsd: 10 });
    expect(verdict("Withdrawals only to the treasury.", w, ctx)).toBe("ESCALATE");
  });

  it("a noun tied once to a context path is that path later on", () => {
    const I = "Supply USDC for our vault (context.vault). Withdrawals only back to the vault itself.";
    expect(verdict(I, pay("USDC", 10, OTHER), { ...ctx, vault: P1 })).toBe("BLOCK");
  });
});
