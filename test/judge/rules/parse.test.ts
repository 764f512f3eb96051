import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import type { Constraint } from "../../../src/judge/rules/types";

const kinds = (intent: string, kind: Constraint["kind"]) => parseIntent(intent).constraints.filter((c) => c.kind === kind);
const caps = (intent: string) => kinds(intent, "cap") as Extract<Constraint, { kind: "cap" }>[];
const understood = (intent: string) => parseIntent(intent).unknown;

describe("per-action caps", () => {
  it.each([
    ["Max notional $2,000 per order.", 2000, "USD", "order"],
    ["Orders can't exceed $2k notional.", 2000, "USD", "order"],
    ["No single trade above $2,000.", 2000, "USD", "order"],
    ["Each order's notional must stay under $1,500.", 1500, "USD", "order"],
    ["Keep each bet under $100.", 100, "USD", "order"],
    ["Up to $500 notional per order.", 500, "USD", "order"],
    ["$500 max per order.", 500, "USD", "order"],
    ["Per-trade notional cap of 1,000 USD.", 1000, "USD", "order"],
    ["Never risk more than $200 on a single order.", 200, "USD", "order"],
    ["Max 5,000 USDC per payment.", 5000, "USDC", "transfer"],
    ["At most 2,000 STRK per transfer.", 2000, "STRK", "transfer"],
    ["Max $1,000 equivalent per transaction.", 1000, "USD", "any"],
    ["Max $500 per swap.", 500, "USD", "swap"],
    ["Max size 0.05 BTC per order.", 0.05, "BTC", "order"],
    ["Limit: 0.5 ETH per transfer.", 0.5, "ETH", "transfer"],
    ["Size ≤ $2,500 per order.", 2500, "USD", "order"],
    ["Trade sizes no larger than 1.5m USD.", 1_500_000, "USD", "order"],
  ])("%s", (intent, value, unit, scope) => {
    const c = caps(intent);
    expect(c).toHaveLength(1);
    expect(c[0]).toMatchObject({ limit: { value, unit }, period: "action", scope });
    expect(understood(intent)).toEqual([]);
  });

  it("reads 'under' as strict and 'at most' as inclusive", () => {
    expect(caps("Each order must be under $2,500 notional.")[0].strict).toBe(true);
    expect(caps("At most $2,500 per order.")[0].strict).toBe(false);
  });

  it("shares the scope of an 'A or B per swap' pair", () => {
    const c = caps("Max 2 WETH or 7,000 USDC in per swap.");
    expect(c.map((x) => [x.limit.unit, x.scope, x.sideIn])).toEqual([
      ["WETH", "swap", true],
      ["USDC", "swap", true],
    ]);
  });
});

describe("cumulative budgets", () => {
  it.each([
    ["Max $0.50 per request and $20.00 total per day.", 20, "day"],
    ["Daily limit: $500.", 500, "day"],
    ["Spend at most 25 USDC per day on x402 APIs.", 25, "day"],
    ["No more than $300 in any 24-hour period.", 300, "day"],
    ["Weekly budget of $2,000.", 2000, "week"],
  ])("%s", (intent, value, period) => {
    const c = caps(intent).find((x) => x.period !== "action");
    expect(c).toMatchObject({ limit: { value }, period });
  });

  it("reads a total with the unit of the sentence's token", () => {
    expect(caps("Keep total staked HYPE at or below 200.")[0]).toMatchObject({ limit: { value: 200, unit: "HYPE" }, period: "total", subject: "staked" });
  });
});

describe("escalation thresholds", () => {
  it.each([
    "Any single payment above $1,000 needs a human's sign-off.",
    "Anything above $1,000 must be approved by a human.",
    "Transfers over $1,000 require my approval.",
    "Never pay more than $1,000 without asking me first.",
    "Escalate any payment over $1,000.",
  ])("%s", (intent) => {
    expect(kinds(intent, "escalate_above")[0]).toMatchObject({ limit: { value: 1000, unit: "USD" } });
    expect(caps(intent)).toHaveLength(0);
    expect(understood(intent)).toEqual([]);
  });

  it("an approval rule without a figure is not understood", () => {
    expect(understood("New recipients need my approval.")).toHaveLength(1);
  });
});

describe("lists", () => {
  it("reads asset, venue and market-type allowlists", () => {
    const p = parseIntent("Trade only BTC and ETH perpetuals on Hyperliquid.");
    expect(p.permitted).toContain("order");
    const allow = p.constraints.filter((c) => c.kind === "allow");
    expect(allow.map((c) => (c.kind === "allow" ? [c.dim, c.values] : null))).toEqual([
      ["asset", ["BTC", "ETH"]],
      ["venue", ["hyperliquid"]],
      ["marketType", ["perp"]],
    ]);
  });

  it("reads recipients with their names and resolves 'the Safe' later", () => {
    const p = parseIntent("Vault agent for our Safe 0x2ca16dF12EeF328697F232d730270c7C908491a0: you may supply USDC to Aave on behalf of the Safe and withdraw back to the Safe.");
    expect(p.constraints).toContainEqual(expect.objectContaining({ kind: "beneficiary", addresses: ["0x2ca16dF12EeF328697F232d730270c7C908491a0"] }));
    expect(p.constraints).toContainEqual(expect.objectContaining({ kind: "allow", dim: "recipient", values: ["0x2ca16dF12EeF328697F232d730270c7C908491a0"] }));
    expect(p.unknown).toEqual([]);
  });

  it("reads context references as lists", () => {
    const p = parseIntent("Pay only the addresses in context.vendors, in USDC.");
    expect(p.constraints).toContainEqual(expect.objectContaining({ kind: "allow", dim: "recipient", refs: ["context.vendors"] }));
  });

  it("reads hosts, chains and quoted markets", () => {
    expect(parseIntent("Only pay resources hosted on api.example.com or news.example.org.").constraints).toContainEqual(
      expect.objectContaining({ kind: "allow", dim: "host", values: ["api.example.com", "news.example.org"] }),
    );
    expect(parseIntent("Operate only on Ethereum mainnet (chainId 1).").constraints).toContainEqual(expect.objectContaining({ dim: "chain", values: ["ethereum"] }));
    expect(parseIntent("Only trade the market 'Will it rain in Paris on May 1?'.").constraints).toContainEqual(
      expect.objectContaining({ dim: "market", values: ["Will it rain in Paris on May 1?"] }),
    );
  });

  it("reads 'except' as a denylist and 'never ... other than' as an allowlist", () => {
    expect(parseIntent("Trade any Hyperliquid perp except DOGE and PEPE.").constraints).toContainEqual(expect.objectContaining({ kind: "deny", dim: "asset", values: ["DOGE", "PEPE"] }));
    expect(parseIntent("Never withdraw to any address other than 0x3333333333333333333333333333333333333333.").constraints).toContainEqual(
      expect.objectContaining({ kind: "allow", dim: "recipient", values: ["0x3333333333333333333333333333333333333333"] }),
    );
  });

  it("does not drop a recipient restriction it cannot resolve", () => {
    expect(understood("Send USDC only to our own wallets.")).toHaveLength(1);
    expect(understood("Only pay our usual suppliers.")).toHaveLength(1);
  });
});

describe("prohibitions", () => {
  it.each([
    ["Never withdraw or transfer funds.", "withdrawal"],
    ["No withdrawals, no transfers.", "transfer"],
    ["Do not move funds out of this trading account.", "vault_deposit"],
    ["Do not change account permissions (API/agent wallets, builder fees, sub-accounts).", "permission"],
    ["Never grant token approvals.", "approval"],
    ["No approvals.", "approval"],
    ["Never borrow.", "borrow"],
    ["Don't bridge.", "bridge"],
    ["Never change leverage settings.", "leverage"],
    ["No leverage changes.", "leverage"],
    ["Never undelegate.", "undelegate"],
  ])("%s", (intent, act) => {
    const f = kinds(intent, "forbid") as Extract<Constraint, { kind: "forbid" }>[];
    expect(f.flatMap((x) => x.activities)).toContain(act);
    expect(understood(intent)).toEqual([]);
  });

  it("does not turn an unreadable prohibition into a ban", () => {
    expect(kinds("Do not trade memecoins.", "forbid")).toHaveLength(0);
    expect(understood("Do not trade memecoins.")).toHaveLength(1);
  });

  it("keeps the asset of 'never send HYPE to anyone'", () => {
    expect(kinds("Never send HYPE to anyone.", "forbid")[0]).toMatchObject({ asset: "HYPE" });
  });
});

describe("trading shape", () => {
  it.each([
    ["Leverage at most 5x.", 5],
    ["Maximum leverage: 10x.", 10],
    ["Do not use more than 3x leverage.", 3],
    ["Max 4x leverage.", 4],
    ["Leverage ≤ 3x.", 3],
  ])("leverage cap: %s", (intent, max) => {
    expect(kinds(intent, "leverage_cap")[0]).toMatchObject({ max });
    expect(understood(intent)).toEqual([]);
  });

  it.each(["Long-only.", "No shorting.", "Never short.", "Only go long."])("long-only: %s", (intent) => {
    expect(kinds(intent, "side")[0]).toMatchObject({ allowed: "long" });
  });

  it("reduce-only rules", () => {
    expect(kinds("Any sell must be reduce-only.", "reduce_only")[0]).toMatchObject({ appliesTo: "sell" });
    expect(kinds("Only close positions.", "reduce_only")[0]).toMatchObject({ appliesTo: "all" });
    expect(kinds("Do not open new positions.", "reduce_only")[0]).toMatchObject({ appliesTo: "all" });
  });

  it("order types and time-in-force", () => {
    expect(kinds("Limit orders only (GTC or GTD).", "order_type")[0]).toMatchObject({ allow: ["gtd", "gtc", "limit"].sort().length ? expect.arrayContaining(["limit", "gtc", "gtd"]) : [] });
    expect(kinds("No FOK/FAK market orders.", "order_type")[0]).toMatchObject({ deny: expect.arrayContaining(["fok", "fak", "market"]) });
    expect(kinds("Use post-only orders.", "order_type")[0]).toMatchObject({ allow: ["alo"] });
    expect(kinds("Entries must be limit orders that rest on the book (GTC or ALO).", "order_type")[0]).toMatchObject({ appliesTo: "entries" });
    expect(kinds("Limit orders are fine.", "order_type")).toHaveLength(0);
  });

  it("slippage caps", () => {
    expect(kinds("Slippage at most 1% (100 bps).", "slippage_cap")[0]).toMatchObject({ bps: 100 });
    expect(kinds("Max slippage 30 bps.", "slippage_cap")[0]).toMatchObject({ bps: 30 });
    expect(kinds("Keep slippage under 0.5%.", "slippage_cap")[0]).toMatchObject({ bps: 50 });
    expect(kinds("With amountOutMinimum no more than 0.5% below the value at context prices.", "slippage_cap")[0]).toMatchObject({ bps: 50 });
  });

  it("approval shape", () => {
    expect(kinds("No unlimited approvals.", "approval_exact")[0]).toMatchObject({ exact: false });
    expect(kinds("Never approve unlimited allowances.", "approval_exact")).toHaveLength(1);
    expect(kinds("Token approvals only for the exact amount of the pending swap.", "approval_exact")[0]).toMatchObject({ exact: true, pendingRef: true });
  });
});

describe("more phrasings", () => {
  it("reads label-style lists and 'Forbidden actions:'", () => {
    const p = parseIntent("Allowed actions: trading BTC perps on Hyperliquid. Forbidden actions: withdrawals, transfers, leverage changes.");
    expect(p.unknown).toEqual([]);
    expect(p.permitted).toContain("order");
    const forbid = p.constraints.filter((c) => c.kind === "forbid").flatMap((c) => (c.kind === "forbid" ? c.activities : []));
    expect(forbid).toEqual(expect.arrayContaining(["withdrawal", "transfer", "leverage"]));
    expect(p.permitted).not.toContain("withdrawal");
  });

  it("resolves 'this address' and 'it' to the labelled wallet", () => {
    const p = parseIntent("Aave bot for 0x2ca16dF12EeF328697F232d730270c7C908491a0: deposit WETH into Aave V3 for this address and withdraw to it.");
    expect(p.unknown).toEqual([]);
    expect(p.constraints).toContainEqual(expect.objectContaining({ kind: "allow", dim: "recipient", values: ["0x2ca16dF12EeF328697F232d730270c7C908491a0"] }));
    expect(parseIntent("Withdraw to it.").unknown).toHaveLength(1);
  });

  it("restating an allowlist ('never use any other token') needs the list", () => {
    expect(parseIntent("Send USDC to 0x1111111111111111111111111111111111111111. Never interact with any other token.").unknown).toEqual([]);
    expect(parseIntent("Never interact with any other token.").unknown).toHaveLength(1);
  });

  it("reads one-sided trading and exits exemptions", () => {
    expect(kinds("You may buy BTC up to $500 per order; selling is not allowed.", "side")[0]).toMatchObject({ allowed: "buy" });
    expect(kinds("Reduce-only exits are always allowed.", "exits_allowed")).toHaveLength(1);
  });

  it("reads prediction-market stakes as bets and outcomes as a list", () => {
    expect(kinds("Polymarket: Maximum stake per order: $20.", "cap")[0]).toMatchObject({ period: "action", scope: "order" });
    expect(parseIntent("Only bet on the outcome 'Yes' in 'Will it snow?'.").constraints).toContainEqual(expect.objectContaining({ dim: "outcome", values: ["Yes"] }));
  });

  it("reads cents and pairs in parentheses", () => {
    expect(caps("No payment over 10 cents.")[0]).toMatchObject({ limit: { value: 0.1, unit: "USD" } });
    expect(caps("Max 1 WETH (or 3,000 USDC) per swap.").map((c) => c.scope)).toEqual(["swap", "swap"]);
  });
});

describe("traps", () => {
  it("keeps a cap and an escalation in one sentence apart", () => {
    const i = "It must escalate anything over $3,000 and must never pay more than $10,000 in one payment.";
    expect(kinds(i, "escalate_above")[0]).toMatchObject({ limit: { value: 3000 } });
    expect(caps(i)[0]).toMatchObject({ limit: { value: 10000 } });
  });

  it("reads 'anyone but X' as an allowlist, not a split sentence", () => {
    const p = parseIntent("Never withdraw to anyone but 0x3333333333333333333333333333333333333333.");
    expect(p.constraints).toContainEqual(expect.objectContaining({ kind: "allow", dim: "recipient", values: ["0x3333333333333333333333333333333333333333"] }));
    expect(p.constraints.filter((c) => c.kind === "forbid")).toHaveLength(0);
  });

  it("does not read 'no leverage above 5x' as 'no leverage'", () => {
    expect(kinds("No leverage above 5x.", "leverage_cap")).toEqual([expect.objectContaining({ max: 5 })]);
  });

  it("reads symbols for comparisons and arrows", () => {
    expect(caps("Size per order <= 10 SOL.")[0]).toMatchObject({ limit: { value: 10, unit: "SOL" } });
    expect(parseIntent("Swap USDC -> SOL on Jupiter only.").unknown).toEqual([]);
  });

  it("does not read 'NO shares' as a negation", () => {
    const p = parseIntent("Only buy YES or NO shares on the 'Will it rain?' market on Polymarket.");
    expect(p.unknown).toEqual([]);
    expect(p.constraints.filter((c) => c.kind === "forbid" || c.kind === "deny")).toHaveLength(0);
  });

  it("does not turn the subject of a destination rule into an asset allowlist", () => {
    const p = parseIntent("The WETH must be delivered to our Safe at 0x436f12258E6eFF8E0606680Cd096Ed69c63086A8.");
    expect(p.constraints.filter((c) => c.kind === "allow" && c.dim === "asset")).toHaveLength(0);
    expect(p.constraints).toContainEqual(expect.objectContaining({ dim: "recipient" }));
  });

  it("treats the wallet a deposit is 'for' as the beneficiary", () => {
    expect(parseIntent("Lend USDC on Aave for our Safe 0x2ca16dF12EeF328697F232d730270c7C908491a0.").constraints).toContainEqual(
      expect.objectContaining({ kind: "beneficiary", addresses: ["0x2ca16dF12EeF328697F232d730270c7C908491a0"] }),
    );
  });

  it("never lets a 'Forbidden:' heading read as a harmless label", () => {
    expect(parseIntent("Forbidden: withdrawals.").constraints).toContainEqual(expect.objectContaining({ kind: "forbid" }));
  });
});

describe("understanding", () => {
  it("treats a leading label as harmless and takes its venue and chain", () => {
    const p = parseIntent("Solana trading agent: swap via Jupiter only between SOL, USDC and JUP.");
    expect(p.unknown).toEqual([]);
    expect(p.constraints).toContainEqual(expect.objectContaining({ dim: "chain", values: ["solana"] }));
  });

  it.each([
    "Trade BTC perps only while funding is positive.",
    "Only trade during US market hours.",
    "Positions: max 3 open at once.",
    "Keep 20% of the account in cash.",
    "If BTC drops 10%, stop trading.",
    "Pay Alice every Friday.",
  ])("reports what it cannot read: %s", (intent) => {
    expect(parseIntent(intent).unknown.length).toBeGreaterThan(0);
  });
});
