/**
 * Purpose statements ("this safe only tops up ...", "the account exists to ...", "it pays our three designers ...")
 * read as the mandate's scope: the activity, asset, chain and recipients they name. Each block has the unsafe side:
 * a purpose never lifts a limit another sentence sets, a purpose whose object nobody read holds the action, and a
 * wallet that belongs to someone else is not taken for the account itself.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { detectAction, resolveVenue } from "../../../src/venues/registry";
import { input, orderFacts, transfer, verdict } from "./helpers";

const RELAY_A = "0x2222222222222222222222222222222222222222";
const RELAY_B = "0x3333333333333333333333333333333333333333";
const OTHER = "0x4444444444444444444444444444444444444444";
const onBase = { chain: "base", chainId: 8453 };
const relayers = { relayers: { [RELAY_A]: "relayer-a", [RELAY_B]: "relayer-b" } };
const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);

describe("a purpose names the activity, asset, chain and recipients", () => {
  const I = "This safe only tops up the relayers in context.relayers with ETH on Base. 0.1 ETH max each time.";
  const eth = (usd: number, amount: string, to = RELAY_A, extra = onBase) => transfer({ asset: "ETH", amount, usd, to, kind: "native" }, extra);

  it("reads the subject as the account, not as a payee nobody listed", () => {
    expect(readings(I)).not.toContain("not understood");
  });

  it("allows what plainly fits and refuses what is outside it", () => {
    expect(verdict(I, eth(150, "0.05"), relayers)).toBe("ALLOW");
    expect(verdict(I, eth(150, "0.05", OTHER), relayers)).toBe("BLOCK");
    expect(verdict(I, transfer({ asset: "USDC", amount: "40", usd: 40, to: RELAY_B }, onBase), relayers)).toBe("BLOCK");
    expect(verdict(I, eth(150, "0.05", RELAY_A, { chain: "arbitrum", chainId: 42161 }), relayers)).toBe("BLOCK");
    expect(verdict(I, eth(450, "0.15"), relayers)).toBe("BLOCK");
  });

  it("a non-native 'is for pay' and a chat 'ok so it pays' read the same way", () => {
    const ctx = { studios: { [RELAY_A]: "Studio Kiln" } };
    for (const p of ["This wallet is for pay the studios in context.studios in USDC on Base.", "ok so it pays the studios in context.studios, usdc on base"]) {
      expect(verdict(p, transfer({ amount: "300", usd: 300, to: RELAY_A }, onBase), ctx)).toBe("ALLOW");
      expect(verdict(p, transfer({ amount: "300", usd: 300, to: OTHER }, onBase), ctx)).toBe("BLOCK");
    }
  });
});

describe("the group a purpose pays, listed in another sentence", () => {
  const I = "so basically it pays our four contractors on base in usdc. only to the addresses in context.crew, 600 usdc max each time";
  const ctx = { crew: { [RELAY_A]: "Tomasz" } };

  it("is the list that sentence gives", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, transfer({ amount: "500", usd: 500, to: RELAY_A }, onBase), ctx)).toBe("ALLOW");
    expect(verdict(I, transfer({ amount: "500", usd: 500, to: OTHER }, onBase), ctx)).toBe("BLOCK");
  });

  it("without any list the group stays unread", () => {
    expect(verdict("so basically it pays our four contractors on base in usdc, 600 usdc max each time", transfer({ amount: "500", usd: 500, to: OTHER }, onBase))).toBe("ESCALATE");
  });
});

describe("a purpose in the owner's voice", () => {
  const ctx = { contractors: { [RELAY_A]: "Kai" } };
  const I = "We use this account to pay the contractors in context.contractors, USDC on Base. Payments up to $1k are fine.";

  it("is the account's scope, not a remark about the owner", () => {
    expect(readings(I)).not.toContain("descriptive");
    expect(verdict(I, transfer({ amount: "400", usd: 400, to: RELAY_A }, onBase), ctx)).toBe("ALLOW");
  });

  it("its payees, asset and chain still bind when another sentence permits payments", () => {
    expect(verdict(I, transfer({ amount: "400", usd: 400, to: OTHER }, onBase), ctx)).toBe("BLOCK");
    expect(verdict(I, transfer({ asset: "DAI", amount: "400", usd: 400, to: RELAY_A }, onBase), ctx)).toBe("BLOCK");
  });
});

describe("a purpose never widens another rule", () => {
  const ctx = { studios: { [RELAY_A]: "Studio Kiln" } };
  it("keeps the caps and bans written beside it", () => {
    const capped = "This wallet is for paying the studios in context.studios in USDC. Never send more than 800 USDC at once.";
    expect(verdict(capped, transfer({ amount: "900", usd: 900, to: RELAY_A }), ctx)).toBe("BLOCK");
    const banned = "This wallet is for paying the studios in context.studios. No transfers on this account at all.";
    expect(verdict(banned, transfer({ amount: "90", usd: 90, to: RELAY_A }), ctx)).not.toBe("ALLOW");
  });

  it("a purpose whose object nobody read holds the action instead of allowing everything", () => {
    expect(verdict("This wallet is only for paying the design agency.", transfer({ amount: "50", usd: 50, to: OTHER }))).toBe("ESCALATE");
    expect(verdict("This account is just for trading the majors.", orderFacts({ asset: "DOGE", price: 0.2, size: 100, notionalUsd: 20 }))).not.toBe("ALLOW");
  });

  it("someone else's wallet is not the account: 'the vendor wallet' keeps its doubt", () => {
    expect(verdict("The vendor wallet pays invoices up to $500.", transfer({ amount: "50", usd: 50, to: OTHER }))).not.toBe("ALLOW");
  });
});

describe("what a purpose describes", () => {
  const HEDGE = "This bot is for hedging our spot SOL inventory: it can open shorts on the SOL perp, up to 10 SOL per order.";
  const sol = (side: "buy" | "sell", size: number) => orderFacts({ asset: "SOL", side, size, price: 150, notionalUsd: size * 150 });

  it("'spot' there describes the holdings, not a market type, and shorts are the activity", () => {
    expect(verdict(HEDGE, sol("sell", 5))).toBe("ALLOW");
    expect(verdict(HEDGE, sol("sell", 12))).toBe("BLOCK");
    expect(verdict(HEDGE, orderFacts({ asset: "BTC", side: "sell", size: 0.01, price: 90000, notionalUsd: 900 }))).toBe("BLOCK");
  });

  it("a buy that opens a long is held for a human, never allowed on that reading", () => {
    expect(verdict(HEDGE, sol("buy", 2))).not.toBe("ALLOW");
  });

  it("a group's size and a cited conversation are not limits", () => {
    const P = "Like we agreed in last week's sync, this wallet pays our three designers in context.designers in USDC on Base.";
    const ctx = { designers: { [RELAY_A]: "Ines" } };
    expect(readings(P)).not.toContain("not understood");
    expect(verdict(P, transfer({ amount: "700", usd: 700, to: RELAY_A }, onBase), ctx)).toBe("ALLOW");
  });

  it("'convert the DAI we collect from clients into ETH' is a direction, not a list of payees", () => {
    const k = parseIntent("This account exists to convert the DAI we collect from clients into ETH on Arbitrum.").constraints;
    expect(k).toContainEqual(expect.objectContaining({ kind: "swap_direction", sell: ["DAI"], buy: ["ETH"] }));
    expect(readings("This account exists to convert the DAI we collect from clients into ETH on Arbitrum.")).not.toContain("not understood");
  });
});

describe("the size of the hedge", () => {
  const I = "The bot shorts the BTC perp to hedge the BTC in our treasury; the hedge never exceeds 2 BTC short.";
  const short = (size: number) => orderFacts({ asset: "BTC", side: "sell", size, price: 90000, notionalUsd: size * 90000 });
  const held = { positions: { BTC: { szi: "-1.5" } } };

  it("bounds the resulting short, not each order", () => {
    expect(verdict(I, short(0.4), held)).toBe("ALLOW");
    expect(verdict(I, short(0.6), held)).toBe("BLOCK");
  });

  it("needs the positions to know it", () => {
    expect(verdict(I, short(0.4))).toBe("ESCALATE");
  });
});

describe("bets on a category of markets", () => {
  const FOOTBALL = "91111111111111111111111111111111111111111111111111111111111111111111111111111";
  const RATES = "92222222222222222222222222222222222222222222222222222222222222222222222222222";
  const markets = {
    markets: {
      [FOOTBALL]: { question: "Will Arsenal win the 2026 FA Cup final?", outcome: "Yes" },
      [RATES]: { question: "Will the ECB cut rates at its April 2026 meeting?", outcome: "Yes" },
    },
  };
  const bet = (intent: string, tokenID: string) => {
    const action = { tokenID, price: 0.4, size: 100, side: "BUY", orderType: "GTC" };
    return evaluateRules(input(intent, action, detectAction(action, resolveVenue("polymarket"), markets), markets)).verdict;
  };

  it("'just for my bets on X' scopes the markets", () => {
    const I = "honestly this one is just for my polymarket bets on sports. 100 bucks max per bet";
    expect(bet(I, FOOTBALL)).toBe("ALLOW");
    expect(bet(I, RATES)).not.toBe("ALLOW");
  });

  it("a central bank's rate decisions take in rate markets and nothing else", () => {
    const I = "The prediction-market wallet exists to take positions on the central bank's rate decisions. 100 USDC max per order.";
    expect(bet(I, RATES)).toBe("ALLOW");
    expect(bet(I, FOOTBALL)).not.toBe("ALLOW");
  });
});

describe("list fragments beside a rule", () => {
  it("'leverage 4x at most, isolated margin' requires the margin mode", () => {
    const k = parseIntent("Rule 3: leverage 4x at most, isolated margin").constraints;
    expect(k).toContainEqual(expect.objectContaining({ kind: "margin_mode", mode: "isolated" }));
    expect(k).toContainEqual(expect.objectContaining({ kind: "leverage_cap", max: 4 }));
  });

  it("', never short' after a side rule restates it", () => {
    const I = "It may only open LONG positions on BTC perps, never short.";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, orderFacts({ asset: "BTC", side: "sell", size: 0.01, price: 90000, notionalUsd: 900 }))).not.toBe("ALLOW");
  });
});

describe("who runs the bot", () => {
  it("the owner's side running it at night is background", () => {
    const I = "The ops team runs this bot at night while nobody is at the desk. BTC perps only, max $2k per order.";
    expect(readings(I)[0]).toBe("descriptive");
    expect(verdict(I, orderFacts({ asset: "BTC", price: 90000, size: 0.01, notionalUsd: 900 }))).toBe("ALLOW");
  });

  it("a limit in the same voice is not background", () => {
    expect(readings("The ops team runs this bot only at night.")[0]).not.toBe("descriptive");
    const I = "The ops team runs this bot at night and never above $2k per order. BTC perps only.";
    expect(verdict(I, orderFacts({ asset: "BTC", price: 90000, size: 0.03, notionalUsd: 2700 }))).toBe("BLOCK");
  });
});
