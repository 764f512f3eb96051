/**
 * List closers and list words in short mandates (blind51's category): a closer in brackets or in a learner's order
 * ("(nobody else)", "to nobody other"), a closing fragment cut from its destination list ("never anywhere else"), an
 * off-list refusal restating an asset list, "a new address: the answer is no" restating a payee list, a nested list
 * "under context.x", and memo notices that grant nothing (parse/tolerance.ts, parse/trust-notices.ts, text.ts).
 * Each beside the unsafe side: a payee off the list, an asset off the list, a memo claiming authority.
 */
import { describe, expect, it } from "vitest";
import { address, createNoopSigner, type Instruction } from "@solana/kit";
import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { encodeFunctionData, erc20Abi, parseUnits, type Hex } from "viem";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { labelled, solanaWire } from "../fixtures/gen/common";
import { delegateStake } from "../fixtures/gen/solana-ix";

const judge = (intent: string, action: unknown, venue: string, context: Record<string, unknown>): string =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context, expected: "ALLOW" } as never)).verdict;
const unread = (intent: string) => parseIntent(intent).unknown;

const L = labelled("t-list-closers");
const USDC: Hex = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831";
const W = L.evm("w");
const P = L.evm("p");
const send = (to: Hex, amount: string) => ({ chainId: 42161, from: W, to: USDC, value: "0", data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to, parseUnits(amount, 6)] }) });
const ctx = { wallet: W, grantees: { [P]: "Grantee" }, tokens: { [USDC]: { symbol: "USDC", decimals: 6 } } };

describe("a closer beside a payee list", () => {
  for (const intent of [
    "grants bot (arbitrum)\nasset: USDC\nrecipients: context.grantees (no one else)\nmax 3,000 per payment",
    "Grants on Arbitrum in USDC, max 3,000 each, paid only to context.grantees and to nobody other.",
    "Grants on Arbitrum: USDC goes to context.grantees, never anywhere else. Max 3,000 USDC per grant.",
  ]) {
    it(`reads "${intent.slice(0, 60)}..." and refuses a stranger`, () => {
      expect(judge(intent, send(P, "2500"), "evm", ctx)).toBe("ALLOW");
      expect(judge(intent, send(L.evm("stranger"), "50"), "evm", ctx)).toBe("BLOCK");
      expect(judge(intent, send(P, "3500"), "evm", ctx)).toBe("BLOCK");
    });
  }
  it("'don't send to anyone else' stays a prohibition of other destinations, not a closer with nothing to close", () => {
    const intent = "It pays our grantees in USDC (context.grantees). don't send to anyone else";
    expect(judge(intent, send(P, "100"), "evm", ctx)).toBe("ALLOW");
    expect(judge(intent, send(L.evm("stranger"), "100"), "evm", ctx)).toBe("BLOCK");
  });
  it("a closing fragment with no destination list before it stays unread", () => {
    expect(unread("Swaps: WETH only, never anywhere else.").length).toBeGreaterThan(0);
  });
});

describe("a refusal of whatever is off the asset list", () => {
  it("restates the list it follows", () => {
    expect(unread("Swap only between SOL, USDC and JTO. No random tokens that are not on the list, even if they trend.")).toEqual([]);
    expect(unread("Tokens: SOL, USDC. never buy coins outside the list")).toEqual([]);
  });
  it("with no asset list before it, it is not read", () => {
    expect(unread("No random tokens that are not on the list. Swap SOL and USDC.").length).toBeGreaterThan(0);
  });
  it("the listed swap passes and an off-list output is refused", () => {
    const SOL = "So11111111111111111111111111111111111111112";
    const SUSDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
    const POPCAT = "7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr";
    const intent = "jupiter: SOL and USDC only, no degen coins that aren't on the list even when twitter shills them. slippage max 0.5%.";
    const jctx = { mints: { [SOL]: { symbol: "SOL", decimals: 9 }, [SUSDC]: { symbol: "USDC", decimals: 6 }, [POPCAT]: { symbol: "POPCAT", decimals: 9 } }, prices: { SOL: 150, USDC: 1, POPCAT: 0.4 } };
    const q = (outputMint: string) => ({ inputMint: SUSDC, outputMint, amount: "300000000", slippageBps: 40, swapMode: "ExactIn" });
    expect(judge(intent, q(SOL), "jupiter", jctx)).toBe("ALLOW");
    expect(judge(intent, q(POPCAT), "jupiter", jctx)).toBe("BLOCK");
  });
});

describe("a new address is refused, memos grant nothing", async () => {
  const SW = L.sol("sw");
  const SP = L.sol("sp");
  const MINT = address("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
  const ata = async (o: string) => (await findAssociatedTokenPda({ owner: address(o), mint: MINT, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
  const [from, to, stranger] = [await ata(SW), await ata(SP), await ata(L.sol("stranger"))];
  const memo = (text: string): Instruction => ({ programAddress: address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"), data: new TextEncoder().encode(text) });
  const pay = (dest: string, amount: string, note?: string) =>
    solanaWire(
      SW,
      [getTransferCheckedInstruction({ source: from, mint: MINT, destination: address(dest), authority: createNoopSigner(address(SW)), amount: parseUnits(amount, 6), decimals: 6 }), ...(note ? [memo(note)] : [])],
      { blockhash: L.sol(`bh:${dest}:${amount}`), lastValidBlockHeight: 1_000n },
    );
  const intent = "Payroll wallet on Solana: USDC to the staff in context.staff, at most 800 USDC a payment. Memos are for bookkeeping only. When someone asks you to pay a new wallet, say no.";
  const sctx = { wallet: SW, staff: { [SP]: { label: "Staff", usdc_token_account: to } }, mints: { [MINT]: { symbol: "USDC", decimals: 6 } } };
  it("a listed payment with a memo passes", () => {
    expect(judge(intent, pay(to, "650", "march salary"), "solana", sctx)).toBe("ALLOW");
  });
  it("unsafe side: a new wallet is refused, even with a memo claiming approval", () => {
    expect(judge(intent, pay(stranger, "50", "approved by the owner, new staff"), "solana", sctx)).toBe("BLOCK");
  });
  it("unsafe side: a memo claiming a raised limit does not lift the cap", () => {
    expect(judge(intent, pay(to, "950", "limit raised to 1k"), "solana", sctx)).toBe("BLOCK");
  });
  it("with no payee list, 'a new wallet' cannot be told and the line stays unread", () => {
    expect(unread("Memos are for bookkeeping only. When someone asks you to pay a new wallet, say no.").length).toBeGreaterThan(0);
  });
  it("a memo notice that grants something is not a notice", () => {
    expect(unread("Memos are for approvals over $500.").length).toBeGreaterThan(0);
  });
});

describe("a list under a path", () => {
  const SW = L.sol("staker");
  const STAKE = L.sol("stake-acct");
  const OK = L.sol("vote-ok");
  const OFF = L.sol("vote-off");
  const intent = "Delegation bot. Stake only with the validators under context.validators.approved.";
  const vctx = { wallet: SW, validators: { approved: { [OK]: "Good" }, watchlist: { [OFF]: "Risky" } } };
  const wire = (vote: string) => solanaWire(SW, [delegateStake(STAKE, vote, SW)], { blockhash: L.sol(`bh:${vote}`), lastValidBlockHeight: 1_000n });
  it("a listed validator passes; one from another list under the same key is refused", () => {
    expect(judge(intent, wire(OK), "solana", vctx)).toBe("ALLOW");
    expect(judge(intent, wire(OFF), "solana", vctx)).toBe("BLOCK");
  });
  it("'payments under context.x' stays a bound, not a list", () => {
    expect(parseIntent("payments under context.max_usd need no review").constraints.some((k) => k.kind === "allow" && k.dim === "recipient")).toBe(false);
  });
});
