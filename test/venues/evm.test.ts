import { describe, expect, it } from "vitest";
import { encodeFunctionData, maxUint256, parseAbi, parseEther, parseUnits } from "viem";
import { detectAction } from "../../src/venues/registry";

const USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const BASE_USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const WETH = "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2";
const FROM = "0xF2C6392b37cCc89a7d44A93aFd93A876521F3C1F";
const BOB = "0x375Ec28A6ba7666B57A3c3D3739D795Ef11C44aA";
const ERC20 = parseAbi([
  "function transfer(address,uint256)",
  "function approve(address,uint256)",
  "function transferFrom(address,address,uint256)",
  "function withdraw(uint256)",
  "function deposit()",
  "function setApprovalForAll(address,bool)",
  "function deposit(uint256,address)",
  "function redeem(uint256,address,address)",
]);
const ctx = { prices: { ETH: 3000 } };
const tx = (to: string, data: `0x${string}`, value = "0", chainId: number | string | undefined = 1) => ({ chainId, from: FROM, to, value, data });

describe("ethereum (generic EVM)", () => {
  it("ERC-20 transfer with a known token and hex chain id", () => {
    const data = encodeFunctionData({ abi: ERC20, functionName: "transfer", args: [BOB, parseUnits("12.5", 6)] });
    const f = detectAction(tx(BASE_USDC, data, "0", "0x2105"), null, ctx);
    expect(f).toMatchObject({ venue: "ethereum", actionFamily: "transfer", chain: "base", chainId: 8453, notionalUsd: 12.5, recipients: [BOB.toLowerCase()] });
  });

  it("an exact approval carries the amount; uint256 max and >= 2^255 are unlimited", () => {
    const exact = detectAction(tx(USDC, encodeFunctionData({ abi: ERC20, functionName: "approve", args: [BOB, 5_000_000_000n] })), null, ctx);
    expect(exact?.approvals?.[0]).toMatchObject({ unlimited: false, amount: "5000", usd: 5000, token: "USDC" });
    expect(exact?.notionalUsd).toBe(5000);
    const max = detectAction(tx(USDC, encodeFunctionData({ abi: ERC20, functionName: "approve", args: [BOB, maxUint256] })), null, ctx);
    expect(max?.approvals?.[0]).toMatchObject({ unlimited: true, amount: null });
    expect(max?.notionalUsd).toBeNull();
    const huge = detectAction(tx(USDC, encodeFunctionData({ abi: ERC20, functionName: "approve", args: [BOB, 2n ** 255n] })), null, ctx);
    expect(huge?.approvals?.[0].unlimited).toBe(true);
    const revoke = detectAction(tx(USDC, encodeFunctionData({ abi: ERC20, functionName: "approve", args: [BOB, 0n] })), null, ctx);
    expect(revoke?.summary).toMatch(/^Revoke/);
  });

  it("transferFrom names both sides", () => {
    const f = detectAction(tx(USDC, encodeFunctionData({ abi: ERC20, functionName: "transferFrom", args: [BOB, FROM, 1_000_000n] })), null, ctx);
    expect(f?.transfers?.[0]).toMatchObject({ from: BOB.toLowerCase(), to: FROM.toLowerCase(), amount: "1" });
  });

  it("unknown tokens use context decimals, or report them unknown", () => {
    const token = "0x1111111111111111111111111111111111111111";
    const data = encodeFunctionData({ abi: ERC20, functionName: "transfer", args: [BOB, 3n * 10n ** 8n] });
    const known = detectAction(tx(token, data), null, { tokens: { [token]: { symbol: "wBTCx", decimals: 8 } }, prices: { WBTCX: 60000 } });
    expect(known?.transfers?.[0]).toMatchObject({ asset: "WBTCX", amount: "3", usd: 180000 });
    const unknown = detectAction(tx(token, data), null, {});
    expect(unknown?.transfers?.[0]).toMatchObject({ amount: null, amountBase: "300000000" });
    expect(unknown?.notionalUsd).toBeNull();
    expect(unknown?.warnings.join(" ")).toMatch(/unknown token/);
  });

  it("context that contradicts a known token's decimals is warned about and ignored", () => {
    const f = detectAction(tx(USDC, encodeFunctionData({ abi: ERC20, functionName: "transfer", args: [BOB, 1_000_000n] })), null, { tokens: { [USDC]: { symbol: "USDC", decimals: 18 } } });
    expect(f?.transfers?.[0].amount).toBe("1");
    expect(f?.warnings.join(" ")).toMatch(/context gives 18 decimals/);
  });

  it("WETH withdraw unwraps; native transfers value ETH", () => {
    const unwrap = detectAction(tx(WETH, encodeFunctionData({ abi: ERC20, functionName: "withdraw", args: [parseEther("0.5")] })), null, ctx);
    expect(unwrap).toMatchObject({ actionFamily: "swap", actionType: "withdraw", notionalUsd: 1500 });
    expect(unwrap?.swap?.buy.asset).toBe("ETH");
    const send = detectAction({ chainId: 1, to: BOB, value: "0xde0b6b3a7640000" }, null, ctx);
    expect(send).toMatchObject({ actionFamily: "transfer", actionType: "nativeTransfer", notionalUsd: 3000, recipients: [BOB.toLowerCase()] });
    const polygon = detectAction({ chainId: 137, to: BOB, value: "1000000000000000000" }, null, {});
    expect(polygon?.assets).toEqual(["POL"]);
  });

  it("setApprovalForAll is an unlimited permission, revoking is not", () => {
    const nft = "0xBC4CA0EdA7647A8aB7C2061c2E118A18a936f13D";
    const on = detectAction(tx(nft, encodeFunctionData({ abi: ERC20, functionName: "setApprovalForAll", args: [BOB, true] })), null, ctx);
    expect(on?.approvals?.[0]).toMatchObject({ kind: "setApprovalForAll", unlimited: true });
    const off = detectAction(tx(nft, encodeFunctionData({ abi: ERC20, functionName: "setApprovalForAll", args: [BOB, false] })), null, ctx);
    expect(off?.approvals?.[0].unlimited).toBe(false);
  });

  it("ERC-4626 deposit and redeem with the vault described in context", () => {
    const vault = "0xBEEF01735c132Ada46AA9aA4c54623cAA92A64CB";
    const vctx = { vaults: { [vault]: { asset: USDC, decimals: 18 } } };
    const dep = detectAction(tx(vault, encodeFunctionData({ abi: ERC20, functionName: "deposit", args: [1_000_000_000n, FROM] })), null, vctx);
    expect(dep).toMatchObject({ actionFamily: "vault", actionType: "deposit", notionalUsd: 1000, recipients: [FROM.toLowerCase()] });
    const red = detectAction(tx(vault, encodeFunctionData({ abi: ERC20, functionName: "redeem", args: [10n ** 18n, BOB, FROM] })), null, vctx);
    expect(red?.transfers?.[0]).toMatchObject({ amount: "1", to: BOB.toLowerCase() });
    const bare = detectAction(tx(vault, encodeFunctionData({ abi: ERC20, functionName: "deposit", args: [1n, FROM] })), "morpho", {});
    expect(bare?.venue).toBe("morpho");
    expect(bare?.warnings.join(" ")).toMatch(/unknown decimals for vault/);
  });

  it("Permit2 approve uses the uint160 max as unlimited", () => {
    const abi = parseAbi(["function approve(address token, address spender, uint160 amount, uint48 expiration)"]);
    const data = encodeFunctionData({ abi, functionName: "approve", args: [USDC, BOB, 2n ** 160n - 1n, 1_900_000_000] });
    const f = detectAction(tx("0x000000000022D473030F116dDEE9F6B43aC78BA3", data), null, ctx);
    expect(f?.approvals?.[0]).toMatchObject({ kind: "permit2", unlimited: true, token: "USDC" });
  });

  it("unrecognised calldata is an unknown-family fact with chain and value", () => {
    const f = detectAction(tx(BOB, "0xdeadbeef0000", "1000000000000000000"), null, ctx);
    expect(f).toMatchObject({ venue: "ethereum", actionFamily: "unknown", actionType: "call:0xdeadbeef", chain: "ethereum", notionalUsd: 3000 });
    expect(detectAction(tx(BOB, "0xdeadbeef0000"), "uniswap", ctx)?.venue).toBe("ethereum");
  });

  it("missing chain id is reported, never assumed", () => {
    const f = detectAction({ from: FROM, to: USDC, value: "0", data: encodeFunctionData({ abi: ERC20, functionName: "transfer", args: [BOB, 1n] }) }, null, ctx);
    expect(f?.chain).toBeNull();
    expect(f?.warnings.join(" ")).toMatch(/no chainId/);
  });

  it("a batch approve + transfer takes the transfer family and lists both calls", () => {
    const calls = [
      { to: USDC, data: encodeFunctionData({ abi: ERC20, functionName: "approve", args: [BOB, 1_000_000n] }) },
      { to: USDC, data: encodeFunctionData({ abi: ERC20, functionName: "transfer", args: [BOB, 2_000_000n] }), value: "0" },
    ];
    const f = detectAction({ chainId: 1, calls }, null, ctx);
    expect(f).toMatchObject({ venue: "ethereum", actionFamily: "transfer", notionalUsd: 2 });
    expect(f?.calls?.map((c) => c.actionType)).toEqual(["approve", "transfer"]);
    expect(f?.chain).toBe("ethereum");
  });

  it("the propose-route wrapper {transaction: {...}} and `input` for data are accepted", () => {
    const data = encodeFunctionData({ abi: ERC20, functionName: "transfer", args: [BOB, 1_000_000n] });
    expect(detectAction({ kind: "evm_transaction", chain: "base", transaction: { to: BASE_USDC, value: "0", data } }, null, ctx)?.chain).toBe("base");
    expect(detectAction({ chainId: 1, to: USDC, input: data }, null, ctx)?.actionType).toBe("transfer");
  });

  it("malformed EVM objects are not transactions", () => {
    expect(detectAction({ to: "0x123", data: "0x" }, null, ctx)).toBeNull();
    expect(detectAction({ to: BOB, data: "0xzz" }, null, ctx)).toBeNull();
    expect(detectAction({ to: BOB, data: "0x", value: "-1" }, null, ctx)).toBeNull();
    expect(detectAction({ to: USDC, data: "0xa9059cbb00" }, null, ctx)?.actionFamily).toBe("unknown");
  });
});
