/**
 * Allowances scoped to the clause that gives them (parse/grants.ts, checks/grants.ts): several permissions, each
 * with its own asset, recipients and cap, are alternatives a move must fit one of, not lists that intersect.
 * Every block of tests has its unsafe side: what one permission names never widens another.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import type { TransferFact } from "../../../src/venues/types";
import { transfer, verdict } from "./helpers";

const SUP_1 = "0x1000000000000000000000000000000000000001";
const SUP_2 = "0x1000000000000000000000000000000000000002";
const RELAY = "0x2000000000000000000000000000000000000001";
const STRANGER = "0x3000000000000000000000000000000000000001";
const prices = { ETH: 3000, USDT: 1, USDC: 1, DAI: 1, SOL: 150 };
const send = (asset: string, amount: number, to: string, extra: Partial<TransferFact> = {}) =>
  transfer({ asset, amount: String(amount), usd: amount * (prices[asset as keyof typeof prices] ?? 1), to, ...extra });

describe("two permissions for two assets", () => {
  const I =
    "The bot settles invoices in USDT to the suppliers in context.suppliers, up to 3,000 USDT per invoice. It may also send ETH to the relayers in context.relayers, at most 0.2 ETH per send.";
  const ctx = { suppliers: { [SUP_1]: "Acme Paper", [SUP_2]: "Borealis Freight" }, relayers: { [RELAY]: "relayer-1" }, prices };

  it("each clause becomes a grant with its own asset, recipients and cap", () => {
    const grants = parseIntent(I).constraints.filter((c) => c.kind === "grant");
    expect(grants).toHaveLength(2);
    expect(grants.map((g) => g.kind === "grant" && [g.assets, g.refs, g.caps.map((c) => c.limit.unit)])).toEqual([
      [["USDT"], ["context.suppliers"], ["USDT"]],
      [["ETH"], ["context.relayers"], ["ETH"]],
    ]);
  });

  it("a move that fits one grant completely is allowed, whatever the other grant says", () => {
    expect(verdict(I, send("ETH", 0.15, RELAY), ctx)).toBe("ALLOW");
    expect(verdict(I, send("USDT", 2500, SUP_2), ctx)).toBe("ALLOW");
  });

  it("unsafe side: the ETH grant's cap binds ETH even though its dollar value is small", () => {
    expect(verdict(I, send("ETH", 0.3, RELAY), ctx)).toBe("BLOCK");
  });

  it("unsafe side: a recipient one grant names does not receive the other grant's asset", () => {
    expect(verdict(I, send("USDT", 100, RELAY), ctx)).toBe("BLOCK");
    expect(verdict(I, send("ETH", 0.1, SUP_1), ctx)).toBe("BLOCK");
  });

  it("unsafe side: an asset no grant names is refused, and a stranger gets nothing", () => {
    expect(verdict(I, send("DAI", 50, SUP_1), ctx)).toBe("BLOCK");
    expect(verdict(I, send("ETH", 0.01, STRANGER), ctx)).toBe("BLOCK");
  });

  it("a grant whose list is missing from the context is a question, not a pass", () => {
    expect(verdict(I, send("ETH", 0.1, RELAY), { suppliers: ctx.suppliers, prices })).toBe("ESCALATE");
  });

  it("a batch is judged move by move: one leg outside every grant refuses the whole batch", () => {
    const legs = (a: TransferFact[]) => transfer({}, { transfers: a, assets: a.map((t) => t.asset), recipients: a.map((t) => (t.to ?? "").toLowerCase()), notionalUsd: null });
    const ok = [send("USDT", 500, SUP_1).transfers![0], send("ETH", 0.05, RELAY).transfers![0]];
    expect(verdict(I, legs(ok), ctx)).toBe("ALLOW");
    expect(verdict(I, legs([ok[0], send("USDT", 10, RELAY).transfers![0]]), ctx)).toBe("BLOCK");
  });
});

describe("global rules still bind every grant", () => {
  const I =
    "Pay the vendors in context.vendors in USDC, at most 4,000 USDC each. SOL may be sent to the miners in context.miners, up to 5 SOL per transfer. Never pay the addresses in context.sanctioned. Total outflow at most $6,000 per day (running total: context.sent_today_usd).";
  const ctx = (today: number) => ({ vendors: { [SUP_1]: "v1" }, miners: { [RELAY]: "m1", [SUP_2]: "m2" }, sanctioned: { [SUP_2]: "frozen" }, prices, sent_today_usd: today });

  it("a move that fits its grant and the global rules is allowed", () => {
    expect(verdict(I, send("SOL", 4, RELAY), ctx(0))).toBe("ALLOW");
  });

  it("unsafe side: a deny list outside the grants refuses an address a grant lists", () => {
    expect(verdict(I, send("SOL", 1, SUP_2), ctx(0))).toBe("BLOCK");
  });

  it("unsafe side: the daily total counts moves of every grant", () => {
    expect(verdict(I, send("USDC", 1500, SUP_1), ctx(5000))).toBe("BLOCK");
  });
});

describe("recipients said once for two grants", () => {
  const I = "Wages go out in USDC to the people in context.crew, max 2,000 USDC per payment. Small ETH top-ups for gas, at most 0.01 ETH, may be sent to those same people.";
  const ctx = { crew: { [SUP_1]: "ana", [SUP_2]: "ben" }, prices };

  it("'those same people' gives the ETH grant the crew list", () => {
    expect(verdict(I, send("ETH", 0.005, SUP_2), ctx)).toBe("ALLOW");
    expect(verdict(I, send("USDC", 2000, SUP_1), ctx)).toBe("ALLOW");
  });

  it("unsafe side: ETH to someone outside the crew, or above the ETH cap, is refused", () => {
    expect(verdict(I, send("ETH", 0.005, STRANGER), ctx)).toBe("BLOCK");
    expect(verdict(I, send("ETH", 0.02, SUP_1), ctx)).toBe("BLOCK");
  });
});

describe("a grant that says to whom nowhere", () => {
  const I = "Pay the contractors in context.contractors in USDC, up to 2,000 USDC each. ETH may be sent as well, at most 0.05 ETH per send.";
  const ctx = { contractors: { [SUP_1]: "c1" }, prices };

  it("unsafe side: beside grants that name recipients it cannot pass a move alone", () => {
    expect(verdict(I, send("ETH", 0.01, STRANGER), ctx)).toBe("ESCALATE");
    expect(verdict(I, send("ETH", 0.5, SUP_1), ctx)).toBe("BLOCK");
  });
});

describe("one sentence, two permissions", () => {
  const I = "Send USDC to context.partners (up to 1,000 USDC each) and SOL to context.miners (up to 3 SOL each).";
  const ctx = { partners: { [SUP_1]: "p1" }, miners: { [RELAY]: "m1" }, prices };

  it("is split in the order it is written", () => {
    const grants = parseIntent(I).constraints.filter((c) => c.kind === "grant");
    expect(grants.map((g) => g.kind === "grant" && [g.assets[0], g.refs[0]])).toEqual([
      ["USDC", "context.partners"],
      ["SOL", "context.miners"],
    ]);
    expect(verdict(I, send("SOL", 2, RELAY), ctx)).toBe("ALLOW");
  });

  it("unsafe side: the pairing holds (USDC to a miner, SOL above its cap)", () => {
    expect(verdict(I, send("USDC", 10, RELAY), ctx)).toBe("BLOCK");
    expect(verdict(I, send("SOL", 4, RELAY), ctx)).toBe("BLOCK");
  });
});

describe("grants of one token told apart by the kind of move", () => {
  const I = "allow usdSend to context.desks, max 1000 USDC per send\nallow withdraw3 to context.vault_wallet, max 20000 USDC per withdrawal";
  const VAULT = "0x4000000000000000000000000000000000000001";
  const ctx = { desks: { [SUP_1]: "desk" }, vault_wallet: VAULT, prices };
  const hl = (family: "transfer" | "withdrawal", amount: number, to: string) =>
    transfer({ asset: "USDC", amount: String(amount), usd: amount, to, kind: family === "withdrawal" ? "withdraw3" : "usdSend" }, { venue: "hyperliquid", chain: "hyperliquid", chainId: undefined, actionFamily: family, actionType: family === "withdrawal" ? "withdraw3" : "usdSend" });

  it("the withdrawal cap and the send cap each bind their own move", () => {
    expect(verdict(I, hl("withdrawal", 15000, VAULT), ctx)).toBe("ALLOW");
    expect(verdict(I, hl("transfer", 900, SUP_1), ctx)).toBe("ALLOW");
  });

  it("unsafe side: a send above its own cap, or a withdrawal to a desk, is refused", () => {
    expect(verdict(I, hl("transfer", 1500, SUP_1), ctx)).toBe("BLOCK");
    expect(verdict(I, hl("withdrawal", 500, SUP_1), ctx)).toBe("BLOCK");
  });
});

describe("what no grant covers", () => {
  const base = "- USDC to context.vendors, at most 5k per payment\n- ETH to context.keepers, at most 0.1 ETH per payment";
  const ctx = { vendors: { [SUP_1]: "v" }, keepers: { [RELAY]: "k" }, prices };

  it("is refused by default and held for a human when the owner says 'anything else: ask me'", () => {
    expect(verdict(base, send("DAI", 10, SUP_1), ctx)).toBe("BLOCK");
    expect(verdict(`${base}\n- anything else: ask me first`, send("DAI", 10, SUP_1), ctx)).toBe("ESCALATE");
  });

  it("unsafe side: 'ask me' about the rest never loosens a grant's own limits", () => {
    const I = `${base}\n- anything else: ask me first`;
    expect(verdict(I, send("ETH", 0.5, RELAY), ctx)).toBe("BLOCK");
    expect(verdict(I, send("USDC", 10, RELAY), ctx)).toBe("BLOCK");
  });
});

describe("sentences about the same asset stay one permission", () => {
  const I = "This wallet refills our keeper bots with SOL. Only send to the bots in context.bots, max 2 SOL per refill.";
  const ctx = { bots: { [RELAY]: "bot" }, prices };

  it("no grants are built, and the lists bind together as before", () => {
    expect(parseIntent(I).constraints.some((c) => c.kind === "grant")).toBe(false);
    expect(verdict(I, send("SOL", 3, RELAY), ctx)).toBe("BLOCK");
    expect(verdict(I, send("SOL", 1, STRANGER), ctx)).toBe("BLOCK");
  });
});
