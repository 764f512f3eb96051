import { describe, expect, it } from "vitest";
import { encodeFunctionData, maxUint256, parseAbi, parseEther, zeroAddress } from "viem";
import { detectAction } from "../../src/venues/registry";

const USDC = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const WETH = "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2";
const ME = "0x2ca16df12eef328697f232d730270c7c908491a0";
const EVE = "0xc352a120af83e1d1eb37e94aaf75a64c49f936c2";
const ctx = { prices: { ETH: 3000, STETH: 2990 } };
const tx = (to: string, data: `0x${string}`, value = 0n, chainId = 1) => ({ chainId, from: ME, to, value: value.toString(), data });

describe("aave", () => {
  const POOL = "0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2";
  const abi = parseAbi(["function repay(address asset, uint256 amount, uint256 interestRateMode, address onBehalfOf)", "function withdraw(address asset, uint256 amount, address to)", "function setUserUseReserveAsCollateral(address asset, bool useAsCollateral)"]);

  it("repay of the full debt (max uint) is a position action with no exact amount", () => {
    const f = detectAction(tx(POOL, encodeFunctionData({ abi, functionName: "repay", args: [USDC, maxUint256, 2n, ME] })), null, ctx);
    expect(f).toMatchObject({ venue: "aave", actionFamily: "position", actionType: "repay", notionalUsd: null });
    expect(f?.warnings.join(" ")).toMatch(/full balance/);
  });

  it("withdrawing to a stranger lists the stranger as recipient and warns", () => {
    const f = detectAction(tx(POOL, encodeFunctionData({ abi, functionName: "withdraw", args: [USDC, 1_000_000n, EVE] })), null, ctx);
    expect(f?.recipients).toEqual([EVE]);
    expect(f?.warnings.join(" ")).toMatch(/not the sender/);
  });

  it("collateral toggles are recognised", () => {
    expect(detectAction(tx(POOL, encodeFunctionData({ abi, functionName: "setUserUseReserveAsCollateral", args: [WETH, false] })), null, ctx)?.summary).toMatch(/Disable WETH/);
  });
});

describe("lido", () => {
  const STETH = "0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84";
  it("submit stakes msg.value, and plain ETH to stETH stakes too", () => {
    const abi = parseAbi(["function submit(address _referral)"]);
    const a = detectAction(tx(STETH, encodeFunctionData({ abi, functionName: "submit", args: [zeroAddress] }), parseEther("2")), null, ctx);
    expect(a).toMatchObject({ venue: "lido", actionFamily: "staking", actionType: "submit", notionalUsd: 6000, recipients: [] });
    expect(a?.staking).toMatchObject({ asset: "ETH", amount: "2", direction: "stake" });
    expect(detectAction({ chainId: 1, to: STETH, value: "1000000000000000000" }, null, ctx)?.actionType).toBe("submit");
  });

  it("withdrawal requests sum the amounts", () => {
    const abi = parseAbi(["function requestWithdrawals(uint256[] _amounts, address _owner)"]);
    const f = detectAction(tx("0x889edC2eDab5f40e902b864aD4d7AdE8E412F9B1", encodeFunctionData({ abi, functionName: "requestWithdrawals", args: [[parseEther("1"), parseEther("0.5")], ME] })), null, ctx);
    expect(f?.staking).toMatchObject({ amount: "1.5", direction: "unstake", usd: 4485 });
  });
});

describe("morpho", () => {
  it("Morpho Blue supply reads the loan token from MarketParams", () => {
    const abi = parseAbi(["function supply((address loanToken, address collateralToken, address oracle, address irm, uint256 lltv) marketParams, uint256 assets, uint256 shares, address onBehalf, bytes data)"]);
    const mp = { loanToken: USDC, collateralToken: WETH, oracle: EVE, irm: EVE, lltv: 860000000000000000n } as const;
    const f = detectAction(tx("0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb", encodeFunctionData({ abi, functionName: "supply", args: [mp, 5_000_000_000n, 0n, ME, "0x"] })), null, ctx);
    expect(f).toMatchObject({ venue: "morpho", actionFamily: "vault", actionType: "supply", notionalUsd: 5000, recipients: [ME] });
  });
});

describe("aerodrome", () => {
  it("Route-struct swaps on Base", () => {
    const abi = parseAbi(["function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, (address from, address to, bool stable, address factory)[] routes, address to, uint256 deadline)"]);
    const BASE_USDC = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";
    const BASE_WETH = "0x4200000000000000000000000000000000000006";
    const data = encodeFunctionData({ abi, functionName: "swapExactTokensForTokens", args: [1_500_000_000n, parseEther("0.49"), [{ from: BASE_USDC, to: BASE_WETH, stable: false, factory: "0x420DD381b31aEf6683db6B902084cB0FFECe40Da" }], ME, 1n] });
    const f = detectAction(tx("0xcF77a3Ba9A5CA399B7c97c74d54e5b1Beb874E43", data, 0n, 8453), null, ctx);
    expect(f).toMatchObject({ venue: "aerodrome", chain: "base", actionFamily: "swap", notionalUsd: 1500 });
    expect(f?.swap).toMatchObject({ sell: { asset: "USDC" }, buy: { asset: "WETH", minAmount: "0.49" }, slippageBps: 200 });
  });
});

describe("gmx", () => {
  it("multicall(sendWnt, sendTokens, createOrder v2.1) gives size, side and leverage", () => {
    const abi = parseAbi([
      "function multicall(bytes[] data)",
      "function sendWnt(address receiver, uint256 amount)",
      "function sendTokens(address token, address receiver, uint256 amount)",
      "function createOrder(((address receiver, address cancellationReceiver, address callbackContract, address uiFeeReceiver, address market, address initialCollateralToken, address[] swapPath) addresses, (uint256 sizeDeltaUsd, uint256 initialCollateralDeltaAmount, uint256 triggerPrice, uint256 acceptablePrice, uint256 executionFee, uint256 callbackGasLimit, uint256 minOutputAmount, uint256 validFromTime) numbers, uint8 orderType, uint8 decreasePositionSwapType, bool isLong, bool shouldUnwrapNativeToken, bool autoCancel, bytes32 referralCode) params)",
    ]);
    const ARB_USDC = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831";
    const VAULT = "0x31eF83a530Fde1B38EE9A18093A333D8Bbbc40D5";
    const create = encodeFunctionData({
      abi,
      functionName: "createOrder",
      args: [
        {
          addresses: { receiver: ME, cancellationReceiver: ME, callbackContract: zeroAddress, uiFeeReceiver: zeroAddress, market: "0x70d95587d40A2caf56bd97485aB3Eec10Bee6336", initialCollateralToken: ARB_USDC, swapPath: [] },
          numbers: { sizeDeltaUsd: 5000n * 10n ** 30n, initialCollateralDeltaAmount: 1_000_000_000n, triggerPrice: 0n, acceptablePrice: 0n, executionFee: 10n ** 15n, callbackGasLimit: 0n, minOutputAmount: 0n, validFromTime: 0n },
          orderType: 2,
          decreasePositionSwapType: 0,
          isLong: false,
          shouldUnwrapNativeToken: false,
          autoCancel: false,
          referralCode: `0x${"00".repeat(32)}`,
        },
      ],
    });
    const data = encodeFunctionData({ abi, functionName: "multicall", args: [[encodeFunctionData({ abi, functionName: "sendTokens", args: [ARB_USDC, VAULT, 1_000_000_000n] }), create]] });
    const f = detectAction(tx("0x900173A66dbD345006C51fA35fA3aB760FcD843b", data, 0n, 42161), null, ctx);
    expect(f).toMatchObject({ venue: "gmx", actionFamily: "order", chain: "arbitrum", notionalUsd: 5000, leverage: { asset: "ETH", value: 5 } });
    expect(f?.orders?.[0]).toMatchObject({ asset: "ETH", side: "sell", orderType: "market", reduceOnly: false });
  });
});

describe("pendle", () => {
  it("swapExactTokenForPt pays the token leg to the router", () => {
    const APPROX = "(uint256 guessMin, uint256 guessMax, uint256 guessOffchain, uint256 maxIteration, uint256 eps)";
    const SWAPDATA = "(uint8 swapType, address extRouter, bytes extCalldata, bool needScale)";
    const ORDER = "(uint256 salt, uint256 expiry, uint256 nonce, uint8 orderType, address token, address YT, address maker, address receiver, uint256 makingAmount, uint256 lnImpliedRate, uint256 failSafeRate, bytes permit)";
    const sig = `function swapExactTokenForPt(address receiver, address market, uint256 minPtOut, ${APPROX} guessPtOut, (address tokenIn, uint256 netTokenIn, address tokenMintSy, address pendleSwap, ${SWAPDATA} swapData) input, (address limitRouter, uint256 epsSkipMarket, (${ORDER} order, bytes signature, uint256 makingAmount)[] normalFills, (${ORDER} order, bytes signature, uint256 makingAmount)[] flashFills, bytes optData) limit)`;
    const abi = parseAbi([sig] as string[]);
    const market = "0x1111111111111111111111111111111111111111";
    const data = encodeFunctionData({
      abi,
      functionName: "swapExactTokenForPt",
      args: [ME, market, 1n, { guessMin: 0n, guessMax: 1n, guessOffchain: 0n, maxIteration: 1n, eps: 1n }, { tokenIn: USDC, netTokenIn: 2_000_000_000n, tokenMintSy: USDC, pendleSwap: zeroAddress, swapData: { swapType: 0, extRouter: zeroAddress, extCalldata: "0x", needScale: false } }, { limitRouter: zeroAddress, epsSkipMarket: 0n, normalFills: [], flashFills: [], optData: "0x" }],
    });
    expect(data.slice(0, 10)).toBe("0xc81f847a");
    const f = detectAction(tx("0x888888888889758F76e7103c6CbF23ABbF58F946", data), null, { markets: { [market]: "PT-sUSDe-25SEP2025" } });
    expect(f).toMatchObject({ venue: "pendle", actionFamily: "swap", notionalUsd: 2000, recipients: [ME] });
    expect(f?.swap?.buy.asset).toBe("PT PT-sUSDe-25SEP2025");
  });
});
