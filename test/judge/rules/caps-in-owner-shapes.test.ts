/**
 * Caps and budgets in the shapes owners write them (blind28): one ceiling per asset given as alternatives, a heading
 * over a table of per-asset ceilings, "label: figure" totals with the running figure named in parentheses, a cap
 * on one of two activities in one sentence, slippage shorthand. Each shape is probed inside and above its limit, and
 * on its unsafe side: an amount above any cap never ALLOWs, and an asset no alternative covers is never let through.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { detectAction, resolveVenue } from "../../../src/venues/registry";
import { transfer, verdict } from "./helpers";

/** A real-format payload judged the way the service judges it. */
function judge(intent: string, action: Record<string, unknown>, venue: string, context: Record<string, unknown> = {}): string {
  const facts = detectAction(action, resolveVenue(venue), context);
  return evaluateRules({ intent, action, facts, context, reference: null, note: null, preset: "generic" }).verdict;
}

const SOL = "So11111111111111111111111111111111111111112";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const BONK = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
const mints = { [SOL]: { symbol: "SOL", decimals: 9 }, [USDC]: { symbol: "USDC", decimals: 6 }, [BONK]: { symbol: "BONK", decimals: 5 } };
const jupCtx = { mints, prices: { SOL: 150, USDC: 1, BONK: 0.00002 } };
const quote = (inputMint: string, outputMint: string, amount: string, slippageBps = 20) => ({ inputMint, outputMint, amount, slippageBps, swapMode: "ExactIn" });
const leg = (a: number, s: string, p: string) => ({ type: "order", orders: [{ a, b: true, p, s, r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" });
const hlCtx = { assets: { "0": "BTC", "1": "ETH", "5": "SOL", "12": "DOGE" }, prices: { BTC: 100000, ETH: 3000, SOL: 150, DOGE: 0.2 } };

describe("one ceiling per asset, given as alternatives", () => {
  const I = "Swaps through Jupiter. Each swap may sell up to 12 SOL max or 1,500 USDC max - whichever token goes in.";
  it("each asset is held to its own ceiling", () => {
    expect(judge(I, quote(SOL, USDC, "11000000000"), "jupiter", jupCtx)).toBe("ALLOW");
    expect(judge(I, quote(USDC, SOL, "1400000000"), "jupiter", jupCtx)).toBe("ALLOW");
    expect(judge(I, quote(USDC, SOL, "1600000000"), "jupiter", jupCtx)).toBe("BLOCK");
  });
  it("the dollar ceiling is not applied to the value of the other asset sold into it", () => {
    // 11.5 SOL is $1,725: over 1,500 in dollars, but the owner's SOL ceiling is 12 SOL.
    expect(judge(I, quote(SOL, USDC, "11500000000"), "jupiter", jupCtx)).toBe("ALLOW");
  });
  it("unsafe side: the other asset's larger figure never lets an amount above its own ceiling through", () => {
    expect(judge(I, quote(SOL, USDC, "13000000000"), "jupiter", jupCtx)).toBe("BLOCK");
  });
  it("unsafe side: an asset with no ceiling of its own is not allowed on the others'", () => {
    expect(judge(I, quote(BONK, USDC, "50000000000"), "jupiter", jupCtx)).not.toBe("ALLOW");
  });
  it("a condition that only says which alternative is which is read", () => {
    const pay = "Pay the people in context.team. Cap per payment: 3 ETH, or 8000 USDC when it is paid in USDC.";
    const ctx = { team: ["0x1111111111111111111111111111111111111111"] };
    expect(verdict(pay, transfer({ asset: "USDC", amount: "7000", usd: 7000 }), ctx)).toBe("ALLOW");
    expect(verdict(pay, transfer({ asset: "USDC", amount: "9000", usd: 9000 }), ctx)).toBe("BLOCK");
    expect(verdict(pay, transfer({ asset: "ETH", amount: "4", usd: 12000 }), ctx)).toBe("BLOCK");
    expect(verdict(pay, transfer({ asset: "ETH", amount: "2.5", usd: 7500 }), ctx)).toBe("ALLOW");
  });
});

describe("a heading over a table of ceilings", () => {
  const I = "Hyperliquid perps.\nMaximum size per order\n- BTC 0.5\n- ETH 8\n- SOL 200";
  it("each row is its asset's ceiling on the heading's scope", () => {
    expect(judge(I, leg(0, "0.4", "99000"), "hyperliquid", hlCtx)).toBe("ALLOW");
    expect(judge(I, leg(1, "8", "2990"), "hyperliquid", hlCtx)).toBe("ALLOW");
    expect(judge(I, leg(1, "9", "2990"), "hyperliquid", hlCtx)).toBe("BLOCK");
  });
  it("unsafe side: a coin with no row has no ceiling and is not allowed", () => {
    expect(judge(I, leg(12, "1000", "0.2"), "hyperliquid", hlCtx)).not.toBe("ALLOW");
  });
  it("rows on one line after the heading read the same", () => {
    const one = "Hyperliquid perps. Caps per order: BTC = 0.5; ETH = 8.";
    expect(judge(one, leg(1, "7", "2990"), "hyperliquid", hlCtx)).toBe("ALLOW");
    expect(judge(one, leg(0, "0.6", "99000"), "hyperliquid", hlCtx)).toBe("BLOCK");
  });
  it("a heading in dollars is not read as coins", () => {
    expect(judge("Hyperliquid perps.\nMax notional per order\n- BTC 5000\n- ETH 3000", leg(1, "0.5", "2990"), "hyperliquid", hlCtx)).not.toBe("ALLOW");
  });
});

describe("label: figure totals with the running figure in parentheses", () => {
  const I = "Pay invoices in USDC.\nper invoice: 400 USDC\nrun total: 2,000 USDC (tally: context.books.q3_usdc)";
  it("the labelled total is checked against the figure named beside it", () => {
    expect(verdict(I, transfer({ amount: "300", usd: 300 }), { books: { q3_usdc: 1500 } })).toBe("ALLOW");
    expect(verdict(I, transfer({ amount: "300", usd: 300 }), { books: { q3_usdc: 1800 } })).toBe("BLOCK");
  });
  it("unsafe side: without the running figure the total is not assumed met", () => {
    expect(verdict(I, transfer({ amount: "300", usd: 300 }), { books: {} })).toBe("ESCALATE");
  });
  it("a period label keeps its period when another sentence follows a dash", () => {
    const d = "USDC payouts only.\nDaily: 1,000 USDC - context.paid.today_usdc has what already went out.";
    expect(verdict(d, transfer({ amount: "200", usd: 200 }), { paid: { today_usdc: 700 } })).toBe("ALLOW");
    expect(verdict(d, transfer({ amount: "400", usd: 400 }), { paid: { today_usdc: 700 } })).toBe("BLOCK");
  });
});

describe("a budget is what may be spent in all", () => {
  const I = "Pay the grants in USDC.\nProgramme budget: 12k USDC\nalready paid: context.grants.paid_usdc";
  it("a budget with no per-action word is a running total, checked with the figure named for it", () => {
    expect(verdict(I, transfer({ amount: "1000", usd: 1000 }), { grants: { paid_usdc: 10000 } })).toBe("ALLOW");
    // Unsafe side: read as a cap on each grant, 1,000 passed although 11,500 + 1,000 is over 12k.
    expect(verdict(I, transfer({ amount: "1000", usd: 1000 }), { grants: { paid_usdc: 11500 } })).toBe("BLOCK");
    expect(verdict(I, transfer({ amount: "1000", usd: 1000 }), {})).toBe("ESCALATE");
  });
  it("a budget counted per action stays per action", () => {
    const per = "Pay the grants in USDC. Budget per grant: 2k USDC.";
    expect(verdict(per, transfer({ amount: "1500", usd: 1500 }), {})).toBe("ALLOW");
    expect(verdict(per, transfer({ amount: "2500", usd: 2500 }), {})).toBe("BLOCK");
  });
  it("a period written as a noun or a bare period before a figure keeps its period", () => {
    const wk = "USDC transfers only.\nweek's total at most $600 (running total: context.wk_out_usd)";
    expect(verdict(wk, transfer({ amount: "50", usd: 50 }), { wk_out_usd: 500 })).toBe("ALLOW");
    expect(verdict(wk, transfer({ amount: "150", usd: 150 }), { wk_out_usd: 500 })).toBe("BLOCK");
    const bare = "USDC transfers only.\nmonthly 3k (context.out_month_usdc)";
    expect(verdict(bare, transfer({ amount: "150", usd: 150 }), { out_month_usdc: 2900 })).toBe("BLOCK");
    expect(verdict(bare, transfer({ amount: "50", usd: 50 }), { out_month_usdc: 2900 })).toBe("ALLOW");
  });
});

describe("a cap on one of two activities in one sentence", () => {
  const V = "0x1111111111111111111111111111111111111111";
  const I = `Run our position in the vault ${V}: deposits of up to $5k per deposit, and withdrawals of any size.`;
  const vt = (isDeposit: boolean, usd: number) => ({ type: "vaultTransfer", vaultAddress: V, isDeposit, usd: usd * 1e6 });
  it("the cap binds the activity it counts, not the other one", () => {
    expect(judge(I, vt(false, 20000), "hyperliquid")).not.toBe("BLOCK");
    expect(judge(I, vt(true, 4000), "hyperliquid")).toBe("ALLOW");
  });
  it("unsafe side: the capped activity above its cap is blocked", () => {
    expect(judge(I, vt(true, 6000), "hyperliquid")).toBe("BLOCK");
  });
});

describe("slippage shorthand", () => {
  it("'slip' and misspellings with a figure in bps are a slippage ceiling", () => {
    for (const I of ["Jupiter swaps of SOL and USDC. slip max 40bps.", "Jupiter swaps of SOL and USDC. slipage under 40 bps"]) {
      expect(judge(I, quote(USDC, SOL, "100000000", 30), "jupiter", jupCtx)).toBe("ALLOW");
      expect(judge(I, quote(USDC, SOL, "100000000", 60), "jupiter", jupCtx)).toBe("BLOCK");
    }
  });
});
