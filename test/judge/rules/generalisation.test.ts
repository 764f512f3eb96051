/**
 * Phrasings the engine learned from the blind set, each probed from the unsafe side: the reading that lets a
 * clean action through must still stop the nearby action that breaks the rule.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import type { Facts } from "../../../src/venues/types";
import { facts, input, orderFacts, transfer, verdict } from "./helpers";

const K = "HFPndv8FGL1mgJ4Kp7tftXaguBRqdBBLstPTzS3UE9hb";
const P = "8bqTSxd7sgHgA6GJNGKo2JPCt6DTkC5fj74YSGD48sjW";
const ROUTES = `Solana ops wallet 8VchDwGmMwZuCsoKorVmFzzUk826VVP8KvBGzNYUsEPL. SOL may only go to our Kraken deposit address ${K}, max 20 SOL per transfer. USDC may only go to the payroll wallet ${P}, max 2,500 USDC per transfer. Nothing else is permitted.`;
const sol = (asset: string, amount: string, to: string) => transfer({ asset, amount, usd: null, to, kind: "native" }, { venue: "solana", chain: "solana", chainId: null });

describe("asset routes ('X may only go to A')", () => {
  it("binds each asset to its own recipient and cap", () => {
    expect(verdict(ROUTES, sol("SOL", "20", K))).toBe("ALLOW");
    expect(verdict(ROUTES, sol("USDC", "2500", P))).toBe("ALLOW");
    expect(verdict(ROUTES, sol("SOL", "1", P))).toBe("BLOCK");
    expect(verdict(ROUTES, sol("USDC", "100", K))).toBe("BLOCK");
    expect(verdict(ROUTES, sol("SOL", "20.5", K))).toBe("BLOCK");
  });

  it("an asset no route names may not move at all", () => {
    expect(verdict(ROUTES, sol("USDT", "10", P))).toBe("BLOCK");
  });

  it("'Nothing else is permitted' closes the list of actions", () => {
    const swap = facts({ venue: "jupiter", actionFamily: "swap", actionType: "swap", chain: "solana", summary: "swap" });
    expect(verdict(ROUTES, swap)).toBe("BLOCK");
  });

  it("an exchange that owns an address is not a venue allowlist", () => {
    expect(parseIntent(ROUTES).constraints.some((k) => k.kind === "allow" && k.dim === "venue")).toBe(false);
  });
});

describe("leverage phrasings", () => {
  const C = "Rules for the BTC bot (Hyperliquid):\n- BTC perp only\n- leverage changes above 5x need my sign-off\n- isolated margin top-ups on BTC are fine, up to $1k each";
  const lev = (value: number): Facts => facts({ actionFamily: "margin", actionType: "updateLeverage", leverage: { asset: "BTC", value, isCross: false }, assets: ["BTC"] });
  it("'above 5x needs my sign-off' escalates above the figure only", () => {
    expect(verdict(C, lev(5))).toBe("ALLOW");
    expect(verdict(C, lev(6))).toBe("ESCALATE");
  });

  it("a margin cap binds margin changes, not order notional", () => {
    const margin = (usd: number) => facts({ actionFamily: "margin", actionType: "updateIsolatedMargin", assets: ["BTC"], notionalUsd: usd });
    expect(verdict(C, margin(1000))).toBe("ALLOW");
    expect(verdict(C, margin(1500))).toBe("BLOCK");
    expect(verdict(C, orderFacts({ asset: "BTC", size: 0.1, price: 100_000, notionalUsd: 10_000 }))).toBe("ALLOW");
  });

  it("'Never raise leverage above 3x' is a 3x cap", () => {
    const B = "Only ever be long ETH on Hyperliquid. Never raise leverage above 3x.";
    expect(verdict(B, facts({ actionFamily: "margin", actionType: "updateLeverage", leverage: { asset: "ETH", value: 3, isCross: false }, assets: ["ETH"] }))).toBe("ALLOW");
    expect(verdict(B, facts({ actionFamily: "margin", actionType: "updateLeverage", leverage: { asset: "ETH", value: 4, isCross: false }, assets: ["ETH"] }))).toBe("BLOCK");
  });
});

describe("protective orders", () => {
  const B =
    "I want my bot to only ever be long ETH on Hyperliquid - it must never open a short. Every entry has to be a post-only (ALO) limit order. Stop-losses and take-profits are fine as long as they're reduce-only.";
  const ctx = { positions: { ETH: { szi: "1.2" } } };
  const sl = (reduceOnly: boolean, side: "buy" | "sell") =>
    orderFacts({ asset: "ETH", side, size: 1.2, price: 3500, notionalUsd: 4200, reduceOnly, orderType: "trigger", tif: null, trigger: { kind: "sl", triggerPx: 3600, isMarket: true } });
  it("a reduce-only stop-loss is allowed, a trigger that opens exposure is not", () => {
    expect(verdict(B, sl(true, "sell"), ctx)).toBe("ALLOW");
    expect(verdict(B, sl(false, "buy"), ctx)).not.toBe("ALLOW");
    expect(verdict(B, sl(false, "sell"), ctx)).not.toBe("ALLOW");
  });
});

describe("token and market words", () => {
  it("'Leave ETH and STRK alone' denies them instead of allowing them", () => {
    const S = "Starknet grants wallet: pay grantees in USDC only. Leave ETH and STRK alone.";
    const stark = (asset: string) => transfer({ asset, amount: "5", usd: null }, { venue: "starknet", chain: "starknet", chainId: null });
    expect(verdict(S, stark("ETH"))).toBe("BLOCK");
    expect(verdict(S, stark("STRK"))).toBe("BLOCK");
  });

  it("'don't move ETH' forbids ETH moves but not USDC payments", () => {
    const A = "Pay USDC only to 0x1111111111111111111111111111111111111111. Don't approve anything and don't move ETH.";
    expect(verdict(A, transfer({ asset: "ETH", amount: "0.05", usd: null, kind: "native" }))).toBe("BLOCK");
    expect(verdict(A, transfer({}))).toBe("ALLOW");
  });

  it("a crypto price market is one about a price level", () => {
    const PB = "Bet only on crypto price markets on Polymarket; no more than $75 per bet.";
    const pm = (question: string) =>
      orderFacts({ asset: "123", market: "prediction", marketLabel: question, outcome: "Yes", size: 100, price: 0.3, notionalUsd: 30 }, { venue: "polymarket", chain: "polygon" });
    expect(verdict(PB, pm("Will Bitcoin reach $150,000 by December 31, 2026?"))).toBe("ALLOW");
    expect(verdict(PB, pm("Will Solana flip Ethereum in market cap in 2026?"))).not.toBe("ALLOW");
    expect(verdict(PB, pm("Will the Lakers win the 2026 NBA Finals?"))).not.toBe("ALLOW");
  });

  it("a name given to a router earlier still restricts the spender", () => {
    const R = "0x2626664c2603336E57B271c5C0b26F421741e481";
    const U = `Swaps only between USDC and WETH through Uniswap SwapRouter02 ${R}. Approvals: only to SwapRouter02 and only for the exact amount of the swap being prepared.`;
    const appr = (spender: string) =>
      facts({ venue: "uniswap", actionFamily: "permission", actionType: "approve", chain: "base", chainId: 8453, approvals: [{ token: "USDC", spender, amount: "1500", amountBase: "1500000000", unlimited: false, usd: 1500, kind: "erc20" }], assets: ["USDC"] });
    const ctx = { pending_swap: { tokenIn: "USDC", amountIn: "1500" } };
    expect(verdict(U, appr(R.toLowerCase()), ctx)).toBe("ALLOW");
    expect(verdict(U, appr("0x9999999999999999999999999999999999999999"), ctx)).toBe("BLOCK");
  });
});

describe("plain-English payments and bets", () => {
  const V = "Vendor payments from the treasury on Ethereum mainnet: USDC or USDT only, only to addresses in context.vendors. Anything over $2k needs human sign-off.";
  const vendors = { vendors: { "0x38F8cB41F13107d965e82Ff7ACf5E04fB516d9DE": "Hartwell Supply" } };
  const say = (intent: string, action: string, context: Record<string, unknown>) => evaluateRules(input(intent, action, null, context)).verdict;
  it("names and invoice references are narrative; the address and amount still decide", () => {
    expect(say(V, "Pay 1,500 USDC to Hartwell Supply (0x38F8cB41F13107d965e82Ff7ACf5E04fB516d9DE) on Ethereum mainnet for invoice HS-2291.", vendors)).toBe("ALLOW");
    expect(say(V, "Pay 1,500 USDC to Hartwell Supply (0x9999999999999999999999999999999999999999) on Ethereum mainnet for invoice HS-2291.", vendors)).toBe("BLOCK");
    expect(say(V, "Pay 4,500 USDC to Hartwell Supply (0x38F8cB41F13107d965e82Ff7ACf5E04fB516d9DE) on Ethereum mainnet for invoice HS-2291.", vendors)).toBe("ESCALATE");
  });

  it("a quoted question listed in context.markets names Polymarket; an unlisted one does not", () => {
    const PM = "Polymarket: only the market 'Will Ethereum hit $5,000 by June 30, 2026?'. Max $150 a ticket. GTC orders only.";
    const markets = { markets: { "27096565298811111111111111111111111111111111": { question: "Will Ethereum hit $5,000 by June 30, 2026?", outcome: "No" } } };
    expect(say(PM, "Buy 100 NO shares at $0.30 on 'Will Ethereum hit $5,000 by June 30, 2026?' as a GTC limit order.", markets)).toBe("ALLOW");
    expect(say(PM, "Buy 100 NO shares at $0.30 on 'Will the Lakers win the 2026 NBA Finals?' as a GTC limit order.", markets)).not.toBe("ALLOW");
  });
});

describe("second-round phrasings", () => {
  it("'anything larger needs CFO approval' turns the cap before it into a threshold", () => {
    const I = "Pay up to $200 per invoice to vendors in context.vendors; anything larger needs CFO approval.";
    const ctx = { vendors: { "0x1111111111111111111111111111111111111111": "Acme" } };
    expect(verdict(I, transfer({ amount: "150", usd: 150 }), ctx)).toBe("ALLOW");
    expect(verdict(I, transfer({ amount: "300", usd: 300 }), ctx)).toBe("ESCALATE");
    expect(verdict(I, transfer({ amount: "300", usd: 300, to: "0x9999999999999999999999999999999999999999" }), ctx)).toBe("BLOCK");
  });

  it("'No token approvals whatsoever' forbids approvals (it is not the NO outcome)", () => {
    const I = "Pay USDC only to 0x1111111111111111111111111111111111111111. No token approvals whatsoever.";
    const appr = facts({ venue: "ethereum", actionFamily: "permission", actionType: "approve", chain: "ethereum", chainId: 1, approvals: [{ token: "USDC", spender: "0x1111111111111111111111111111111111111111", amount: "5", amountBase: "5000000", unlimited: false, usd: 5, kind: "erc20" }], assets: ["USDC"] });
    expect(verdict(I, appr)).toBe("BLOCK");
    expect(parseIntent(I).unknown).toEqual([]);
  });

  it("a bare cap figure is dollars when every token named is a dollar stablecoin", () => {
    const I = "Recipients allowed: 0x1111111111111111111111111111111111111111 (Globex). USDC or USDT. Each payment capped at 7,500.";
    expect(verdict(I, transfer({ amount: "7500", usd: 7500 }))).toBe("ALLOW");
    expect(verdict(I, transfer({ asset: "USDT", amount: "7600", usd: 7600 }))).toBe("BLOCK");
  });

  it("an activity that 'needs my approval' is held, its neighbours are not", () => {
    const V = "0x5ac99df645f3414876c816caa18b2d234024b487";
    const I = `HYPE staking: delegate only to validator ${V}. Undelegating needs my approval.`;
    const stake = (direction: "delegate" | "undelegate") =>
      facts({ actionFamily: "staking", actionType: "tokenDelegate", staking: { asset: "HYPE", amount: "10", usd: null, direction, validator: V }, assets: ["HYPE"] });
    expect(verdict(I, stake("delegate"))).toBe("ALLOW");
    expect(verdict(I, stake("undelegate"))).toBe("ESCALATE");
  });

  it("run-on enumerated rules and 'Nx or less' are read as separate rules", () => {
    const I = "Trading bot rules: (1) BTC only (2) $1k max per trade (3) leverage 2x or less (4) no withdrawals.";
    expect(parseIntent(I).unknown).toEqual([]);
    expect(verdict(I, orderFacts({ asset: "BTC", size: 0.01, price: 90_000, notionalUsd: 900 }))).toBe("ALLOW");
    expect(verdict(I, orderFacts({ asset: "ETH", size: 0.1, price: 3_000, notionalUsd: 300 }))).toBe("BLOCK");
    expect(verdict(I, orderFacts({ asset: "BTC", size: 0.02, price: 90_000, notionalUsd: 1800 }))).toBe("BLOCK");
  });
});
