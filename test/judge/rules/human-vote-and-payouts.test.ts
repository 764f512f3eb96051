import { describe, expect, it } from "vitest";
import { facts, verdict } from "./helpers";

const TREASURY = "7Np41oeYqPefeNQEHSv1UDhYrehxin3NStELsSKCT4K2";
/** A stake-account withdrawal as the Solana adapter describes it: an unstake that pays lamports to an address. */
const stakeOut = (sol: number, to = TREASURY) =>
  facts({ venue: "solana", chain: "solana", actionFamily: "staking", actionType: "stake.withdrawStake", summary: `Withdraw ${sol} SOL from a stake account to ${to}`, transfers: [{ asset: "SOL", amount: String(sol), usd: null, to, from: "StakeAcc1", kind: "stake.withdraw" }], assets: ["SOL"], recipients: [to], notionalUsd: null });
const usdcPay = (usd: number) =>
  facts({ venue: "solana", chain: "solana", actionFamily: "transfer", actionType: "transferChecked", summary: `Pay ${usd} USDC`, transfers: [{ asset: "USDC", amount: String(usd), usd, to: TREASURY, kind: "spl.transferChecked" }], assets: ["USDC"], recipients: [TREASURY], notionalUsd: usd });

describe("a human vote or review as the escalation", () => {
  const ctx = { home: TREASURY };
  it("'has to be put to a member vote above N SOL' holds larger stake withdrawals, lets smaller ones through", () => {
    const intent = "Stake withdrawals may only pay out to context.home. A stake withdrawal of more than 300 SOL has to be put to a member vote first.";
    expect(verdict(intent, stakeOut(300), ctx)).toBe("ALLOW");
    expect(verdict(intent, stakeOut(301), ctx)).toBe("ESCALATE");
  });

  it("a per-payment SOL cap counts what a stake withdrawal pays out", () => {
    const intent = "Stake withdrawals may only pay out to context.home, at most 40 SOL per transfer.";
    expect(verdict(intent, stakeOut(40), ctx)).toBe("ALLOW");
    expect(verdict(intent, stakeOut(41), ctx)).toBe("BLOCK");
    expect(verdict(intent, stakeOut(5, "GE6atKoWiQ2pt3zL7N13pjNHjdLVys8LinG8qeJLcAiL"), ctx)).toBe("BLOCK");
  });

  it("config line 'manual review over: $900' is a threshold, not an unread clause", () => {
    const intent = "recipients: context.home\nmax per payment: $2,000\nmanual review over: $900";
    expect(verdict(intent, usdcPay(850), ctx)).toBe("ALLOW");
    expect(verdict(intent, usdcPay(950), ctx)).toBe("ESCALATE");
    expect(verdict(intent, usdcPay(2500), ctx)).toBe("BLOCK");
  });
});
