/** Pure parts of swaps: the slippage floor, the generic quote checks, and how limits count approvals a batch spends. */
import { describe, expect, it } from "vitest";
import type { Address } from "viem";
import { checkQuote } from "../../src/swaps/service";
import { minimumOutFor, type ProviderQuote, type QuoteProvider, type SwapToken } from "../../src/swaps/types";
import { exposureOf, checkLimits } from "../../src/proposals/limits-check";
import { evmAddressCodec } from "../../src/chains/evm/codec";
import type { AssetChange } from "../../src/chains/evm/simulate";

const ROUTER: Address = "0xA4b1000000000000000000000000000000000001";
const EVIL: Address = "0x000000000000000000000000000000000000bEEF";
const USDC: SwapToken = { address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", symbol: "USDC", name: "USD Coin", decimals: 6 };
const ETH: SwapToken = { address: "native", symbol: "ETH", name: "Ether", decimals: 18 };
const provider: QuoteProvider = { name: "test", routers: [ROUTER], quote: async () => { throw new Error("unused"); } };
const quote = (over: Partial<ProviderQuote> = {}): ProviderQuote => ({
  routing: "test",
  buyAmount: 1_000_000n,
  minBuyAmount: 995_000n,
  calls: [{ to: ROUTER, data: "0x", value: 0n }],
  allowanceSpender: ROUTER,
  networkFeeWei: null,
  gasEstimate: null,
  priceImpactPct: null,
  routeString: "",
  ...over,
});

describe("minimumOutFor", () => {
  it("is amountOut x (1 - bps/10000), rounded down", () => {
    expect(minimumOutFor(1_000_000n, 50)).toBe(995_000n);
    expect(minimumOutFor(999n, 1)).toBe(998n); // 998.9001 -> 998
    expect(minimumOutFor(33_136_880_216_170_287n, 50)).toBe(32_971_195_815_089_435n);
    expect(minimumOutFor(7n, 1000)).toBe(6n);
  });
});

describe("checkQuote", () => {
  const req = { sell: USDC, sellAmount: 100n, slippageBps: 50 };
  it("accepts a quote inside its routers and the requested slippage", () => {
    expect(() => checkQuote(provider, quote(), req)).not.toThrow();
    expect(() => checkQuote(provider, quote({ allowanceSpender: null, calls: [{ to: ROUTER, data: "0x", value: 100n }] }), { ...req, sell: ETH })).not.toThrow();
  });
  it.each<[string, Partial<ProviderQuote>, RegExp]>([
    ["a call to another address", { calls: [{ to: EVIL, data: "0x", value: 0n }] }, /goes to 0x000000000000000000000000000000000000bEEF, which is not one of test's routers/],
    ["an approval for another spender", { allowanceSpender: EVIL }, /allowance target 0x0{36}bEEF is not one of/],
    ["ETH sent on a token sell", { calls: [{ to: ROUTER, data: "0x", value: 1n }] }, /sends 1 wei of ETH, expected 0/],
    ["a looser minimum", { minBuyAmount: 994_999n }, /minimum output 994999 is outside/],
    ["a minimum above the quote", { minBuyAmount: 1_000_001n }, /outside/],
  ])("refuses %s", (_name, over, message) => {
    expect(() => checkQuote(provider, quote(over), req)).toThrow(message);
  });
  it("refuses an approval on an ETH sell and the wrong value", () => {
    expect(() => checkQuote(provider, quote({ calls: [{ to: ROUTER, data: "0x", value: 100n }] }), { ...req, sell: ETH })).toThrow(/allowance target/);
    expect(() => checkQuote(provider, quote({ allowanceSpender: null, calls: [{ to: ROUTER, data: "0x", value: 99n }] }), { ...req, sell: ETH })).toThrow(/sends 99 wei of ETH, expected 100/);
  });
});

describe("limits and approvals a batch spends (residualRaw)", () => {
  const change = (over: Partial<AssetChange> & { residualRaw?: string }): AssetChange => ({
    direction: "out",
    assetType: "erc20",
    changeType: "transfer",
    symbol: "USDC",
    name: "USD Coin",
    contractAddress: USDC.address,
    rawAmount: "100000000",
    decimals: 6,
    amount: "100",
    usdValue: 100,
    counterparty: ROUTER,
    logoUrl: null,
    ...over,
  });
  const approval = (residualRaw?: string) => change({ changeType: "approval", unlimited: false, ...(residualRaw !== undefined ? { residualRaw } : {}) });

  it("counts what an approval leaves, not what it granted", () => {
    expect(exposureOf([approval(), change({})]).usd).toBe(200);
    expect(exposureOf([approval("0"), change({})]).usd).toBe(100);
    expect(exposureOf([approval("25000000"), change({})]).usd).toBe(125);
    expect(exposureOf([approval((1n << 255n).toString())]).unlimited).toBe(true);
  });
  it("does not hold a fully spent approval to the allowlists (the transfer it funds still is)", () => {
    const limits = { maxPerTxUsd: 150, recipientAllowlist: [ROUTER] };
    expect(checkLimits(limits, [approval("0"), change({})], { simulated: true, addresses: evmAddressCodec }).ok).toBe(true);
    expect(checkLimits(limits, [approval(), change({})], { simulated: true, addresses: evmAddressCodec }).reason).toMatch(/^maxPerTxUsd/);
    expect(checkLimits({ recipientAllowlist: [EVIL] }, [approval("0"), change({})], { simulated: true, addresses: evmAddressCodec }).reason).toMatch(/^recipientAllowlist: 0xA4b1/);
  });
});
