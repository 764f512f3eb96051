/**
 * A list or a permission applies only to the activity and the dimension it was stated for (blind46's category,
 * parse/list-scope.ts, checks/lists.ts venueOffAction). Native payloads go through the venue adapters. Each reading
 * is tested beside the action that breaks the clause it came from, which must still BLOCK (or ESCALATE), and beside
 * an action no clause permits.
 */
import { describe, expect, it } from "vitest";
import { encodeFunctionData, parseAbi, parseEther, parseUnits, type Hex } from "viem";
import { address, createNoopSigner } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { labelled, solanaWire } from "../fixtures/gen/common";
import { delegateStake } from "../fixtures/gen/solana-ix";

const judge = (intent: string, action: unknown, venue: string, context: Record<string, unknown>): string =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context, expected: "ALLOW" } as never)).verdict;

const erc20 = parseAbi(["function transfer(address to, uint256 amount) returns (bool)", "function approve(address spender, uint256 amount) returns (bool)"]);
const weth = parseAbi(["function deposit() payable"]);
const aave = parseAbi(["function borrow(address asset, uint256 amount, uint256 interestRateMode, uint16 referralCode, address onBehalfOf)"]);
const tx = (chainId: number, from: Hex, to: Hex, data: Hex, value = "0") => ({ chainId, from, to, value, data });
const W: Hex = "0x4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e";
const PAYEE: Hex = "0x5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f";
const GAS: Hex = "0x6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a";
const STRANGER: Hex = "0x7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b";
const PERMIT2: Hex = "0x000000000022D473030F116dDEE9F6B43aC78BA3";
const MAIN_WETH: Hex = "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2";
const MAIN_USDC: Hex = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const OP_POOL: Hex = "0x794a61358D6845594F94dc1DB02A252b5b4814aD";
const OP_USDC: Hex = "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85";
const OP_OP: Hex = "0x4200000000000000000000000000000000000042";
const OP_WETH: Hex = "0x4200000000000000000000000000000000000006";

describe("a spender list is not a venue list", () => {
  const intent = "Mainnet wallet. ERC-20 approvals are fine, but only ever to Uniswap's Permit2 contract. Wrapping ETH into WETH is fine. Nothing else.";
  const ctx = { tokens: { [MAIN_WETH]: { symbol: "WETH", decimals: 18 }, [MAIN_USDC]: { symbol: "USDC", decimals: 6 } } };
  it("a wrap on mainnet is not held to the approvals' spender", () => {
    expect(judge(intent, tx(1, W, MAIN_WETH, encodeFunctionData({ abi: weth, functionName: "deposit" }), parseEther("0.7").toString()), "evm", ctx)).toBe("ALLOW");
  });
  it("an approval to Permit2 passes; one to another spender is refused", () => {
    expect(judge(intent, tx(1, W, MAIN_USDC, encodeFunctionData({ abi: erc20, functionName: "approve", args: [PERMIT2, parseUnits("400", 6)] })), "evm", ctx)).toBe("ALLOW");
    expect(judge(intent, tx(1, W, MAIN_USDC, encodeFunctionData({ abi: erc20, functionName: "approve", args: [STRANGER, parseUnits("400", 6)] })), "evm", ctx)).toBe("BLOCK");
  });
  it("a transfer, which no clause permits, is not allowed under the closer", () => {
    expect(judge(intent, tx(1, W, MAIN_USDC, encodeFunctionData({ abi: erc20, functionName: "transfer", args: [PERMIT2, parseUnits("40", 6)] })), "evm", ctx)).toBe("BLOCK");
  });
});

describe("a venue in an approvals line names the spenders; a title is not an asset list", () => {
  const intent = ["op lending desk, policy:", "- borrow: USDC only", "- token approvals only to the Aave pool or to Permit2", "- nothing leaves the wallet"].join("\n");
  const ctx = { tokens: { [OP_USDC]: { symbol: "USDC", decimals: 6 }, [OP_OP]: { symbol: "OP", decimals: 18 }, [OP_WETH]: { symbol: "WETH", decimals: 18 } } };
  const borrow = (asset: Hex, amount: bigint) => tx(10, W, OP_POOL, encodeFunctionData({ abi: aave, functionName: "borrow", args: [asset, amount, 2n, 0, W] }));
  it("the 'borrow: USDC only' line permits borrowing USDC, and only USDC", () => {
    expect(judge(intent, borrow(OP_USDC, parseUnits("900", 6)), "evm", ctx)).toBe("ALLOW");
    expect(judge(intent, borrow(OP_OP, parseUnits("900", 18)), "evm", ctx)).toBe("BLOCK");
  });
  it("approvals to the pool or Permit2 pass whatever the token; to anyone else they are refused", () => {
    const approve = (spender: Hex) => tx(10, W, OP_WETH, encodeFunctionData({ abi: erc20, functionName: "approve", args: [spender, parseEther("2")] }));
    expect(judge(intent, approve(OP_POOL), "evm", ctx)).toBe("ALLOW");
    expect(judge(intent, approve(PERMIT2), "evm", ctx)).toBe("ALLOW");
    expect(judge(intent, approve(STRANGER), "evm", ctx)).toBe("BLOCK");
  });
});

describe("a recipient list binds the activity of its own clause", () => {
  it("'no SOL leaves except to my hot wallet' does not reach a delegation to a listed validator; an unlisted one is refused", () => {
    const [main, hot, stake, vote, other] = ["main", "hot", "stake", "vote", "other"].map((l) => labelled("list-scope-test").sol(l));
    const intent = "cold-ish SOL wallet: nothing in SOL goes out of it other than a refill of my hot wallet (context.hot), max 3 SOL per refill. Delegating stake to a validator in context.validators is allowed.";
    const ctx = { hot, validators: [vote] };
    const wire = (ix: Parameters<typeof solanaWire>[1]) => solanaWire(main, ix, { blockhash: address("GHtXQBsoZHVnNFa9YevAzFr17DJjgHXk3ycTKD5xD3Zi"), lastValidBlockHeight: 9n });
    expect(judge(intent, wire([delegateStake(stake, vote, main)]), "solana", ctx)).toBe("ALLOW");
    expect(judge(intent, wire([delegateStake(stake, other, main)]), "solana", ctx)).not.toBe("ALLOW");
    const send = (to: string, sol: string) => wire([getTransferSolInstruction({ source: createNoopSigner(main), destination: address(to), amount: parseUnits(sol, 9) })]);
    expect(judge(intent, send(hot, "2"), "solana", ctx)).toBe("ALLOW");
    expect(judge(intent, send(other, "2"), "solana", ctx)).toBe("BLOCK");
  });

  it("a group named in its own line binds the permission that speaks of it, not the gas top-up another line permits", () => {
    const USDC: Hex = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
    const intent = "Contractors are listed in context.contractors. The agent pays them in USDC. It may also send up to 0.02 ETH to the gas wallet (context.gas_wallet).";
    const ctx = { contractors: [PAYEE], gas_wallet: GAS, tokens: { [USDC]: { symbol: "USDC", decimals: 6 } } };
    expect(judge(intent, tx(8453, W, GAS, "0x", parseEther("0.01").toString()), "evm", ctx)).toBe("ALLOW");
    expect(judge(intent, tx(8453, W, USDC, encodeFunctionData({ abi: erc20, functionName: "transfer", args: [PAYEE, parseUnits("300", 6)] })), "evm", ctx)).toBe("ALLOW");
    expect(judge(intent, tx(8453, W, USDC, encodeFunctionData({ abi: erc20, functionName: "transfer", args: [STRANGER, parseUnits("300", 6)] })), "evm", ctx)).toBe("BLOCK");
    expect(judge(intent, tx(8453, W, USDC, encodeFunctionData({ abi: erc20, functionName: "transfer", args: [GAS, parseUnits("300", 6)] })), "evm", ctx)).toBe("BLOCK");
    expect(judge(intent, tx(8453, W, PAYEE, "0x", parseEther("0.01").toString()), "evm", ctx)).toBe("BLOCK");
  });
});

describe("sub-account lists bind moves between own accounts; withdrawals keep their own line", () => {
  const sig = { hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1" };
  const [S1, S2, COLD, OUT] = ["0x1212121212121212121212121212121212121212", "0x2323232323232323232323232323232323232323", "0x3434343434343434343434343434343434343434", "0x4545454545454545454545454545454545454545"];
  const intent = "USDC may move between the main account and the sub-accounts in context.subs. Withdrawals only to my cold wallet (context.cold). Never usdSend.";
  const ctx = { subs: [S1, S2], cold: COLD };
  it("a withdrawal to the cold wallet is not held to the sub-account list", () => {
    expect(judge(intent, { type: "withdraw3", ...sig, destination: COLD, amount: "500", time: 1 }, "hyperliquid", ctx)).toBe("ALLOW");
    expect(judge(intent, { type: "withdraw3", ...sig, destination: S1, amount: "500", time: 1 }, "hyperliquid", ctx)).toBe("BLOCK");
  });
  it("a move to a listed sub-account passes; to another account it does not", () => {
    expect(judge(intent, { type: "subAccountTransfer", subAccountUser: S2, isDeposit: true, usd: 700_000_000 }, "hyperliquid", ctx)).toBe("ALLOW");
    expect(judge(intent, { type: "subAccountTransfer", subAccountUser: OUT, isDeposit: true, usd: 700_000_000 }, "hyperliquid", ctx)).not.toBe("ALLOW");
  });
  it("'never usdSend' still refuses a usdSend, even to the cold wallet", () => {
    expect(judge(intent, { type: "usdSend", ...sig, destination: COLD, amount: "50", time: 1 }, "hyperliquid", ctx)).toBe("BLOCK");
  });
});

describe("a token key's address is the asset, not a recipient", () => {
  const ARB_USDC: Hex = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831";
  const ARB_ARB: Hex = "0x912CE59144191C1204E64559FE8253a0e49E6548";
  const intent = `Bounty wallet [token: USDC ${ARB_USDC}] on Arbitrum. Pays the hunters in context.hunters, up to 400 USDC each.`;
  const ctx = { hunters: [PAYEE], tokens: { [ARB_USDC]: { symbol: "USDC", decimals: 6 }, [ARB_ARB]: { symbol: "ARB", decimals: 18 } } };
  it("USDC to a hunter passes; another token or another payee is refused", () => {
    expect(judge(intent, tx(42161, W, ARB_USDC, encodeFunctionData({ abi: erc20, functionName: "transfer", args: [PAYEE, parseUnits("150", 6)] })), "evm", ctx)).toBe("ALLOW");
    expect(judge(intent, tx(42161, W, ARB_ARB, encodeFunctionData({ abi: erc20, functionName: "transfer", args: [PAYEE, parseUnits("150", 18)] })), "evm", ctx)).toBe("BLOCK");
    expect(judge(intent, tx(42161, W, ARB_USDC, encodeFunctionData({ abi: erc20, functionName: "transfer", args: [STRANGER, parseUnits("150", 6)] })), "evm", ctx)).toBe("BLOCK");
  });
});
