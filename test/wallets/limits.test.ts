import { describe, expect, it } from "vitest";
import { offlineChain } from "../../src/chains/codecs";
import { enforcement, LimitsInput, loosenedBy, mergeLimits, normaliseLimits } from "../../src/wallets/limits";
import { checkDailyCap, checkLimits, exposureOf } from "../../src/proposals/limits-check";
import { evmAddressCodec } from "../../src/chains/evm/codec";
import type { AssetChange } from "../../src/chains/evm/simulate";

const tokens = offlineChain("base")!;
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const BOB = "0x000000000000000000000000000000000000b0b0";
const EVE = "0x000000000000000000000000000000000000e0e0";

const change = (o: Partial<AssetChange>): AssetChange => ({
  direction: "out",
  assetType: "erc20",
  changeType: "transfer",
  symbol: "USDC",
  name: "USD Coin",
  contractAddress: USDC,
  rawAmount: "10000000",
  decimals: 6,
  amount: "10",
  usdValue: 10,
  counterparty: BOB,
  logoUrl: null,
  ...o,
});

describe("limit bounds and normalisation", () => {
  it("accepts 0.01 to 1e9 USD with at most two decimals", () => {
    expect(LimitsInput.safeParse({ maxPerTxUsd: 0.01, dailyCapUsd: 1e9 }).success).toBe(true);
    for (const bad of [0, -1, 0.001, 1e9 + 1, Number.NaN, 10.005]) expect(LimitsInput.safeParse({ maxPerTxUsd: bad }).success).toBe(false);
    expect(LimitsInput.safeParse({ maxPerTxUsd: "10" }).success).toBe(false);
    expect(LimitsInput.safeParse({ tokenAllowlist: [] }).success).toBe(false);
    expect(LimitsInput.safeParse({ tokenAllowlist: Array(101).fill("USDC") }).success).toBe(false);
  });

  it("resolves well-known symbols to their one address; unknown symbols permit nothing", () => {
    const { limits, notes } = normaliseLimits({ tokenAllowlist: ["usdc", "ETH", "FOO", USDC.toLowerCase()] }, tokens);
    expect(limits.tokenAllowlist).toEqual([USDC, "native", "FOO"]);
    expect(notes[0]).toMatch(/"FOO" is not a well-known token on this chain; it permits nothing/);
  });

  it("merges updates: null removes, omitted keeps", () => {
    const cur = { maxPerTxUsd: 50, dailyCapUsd: 200, recipientAllowlist: [BOB] };
    expect(mergeLimits(cur, { maxPerTxUsd: 80 }, tokens).limits).toEqual({ maxPerTxUsd: 80, dailyCapUsd: 200, recipientAllowlist: [BOB] });
    expect(mergeLimits(cur, { dailyCapUsd: null }, tokens).limits).toEqual({ maxPerTxUsd: 50, recipientAllowlist: [BOB] });
  });

  it("says exactly what an update loosened", () => {
    const prev = { maxPerTxUsd: 50, dailyCapUsd: 200, tokenAllowlist: [USDC], recipientAllowlist: [BOB] };
    expect(loosenedBy(prev, { ...prev, maxPerTxUsd: 40 })).toEqual([]);
    expect(loosenedBy(prev, { ...prev, maxPerTxUsd: 60 })).toEqual(["maxPerTxUsd raised from 50 to 60 USD"]);
    const next = { maxPerTxUsd: 50, tokenAllowlist: [USDC], recipientAllowlist: [BOB, EVE] };
    expect(loosenedBy(prev, next)).toEqual([expect.stringMatching(/^dailyCapUsd removed \(was 200 USD\)/), `recipientAllowlist now also allows ${EVE}`]);
    expect(loosenedBy(prev, { ...prev, tokenAllowlist: undefined })).toEqual(["tokenAllowlist removed: any token is allowed now"]);
  });

  it("states who enforces each set limit", () => {
    expect(enforcement({ maxPerTxUsd: 5 }, false, true)).toEqual({ maxPerTxUsd: "service", mandate: "judge" });
    expect(enforcement({ dailyCapUsd: 5, recipientAllowlist: [BOB] }, true, false)).toEqual({ dailyCapUsd: "signer", recipientAllowlist: "signer" });
  });
});

describe("checkLimits against simulated changes", () => {
  it("passes a change within every limit", () => {
    const v = checkLimits({ maxPerTxUsd: 10, tokenAllowlist: [USDC], recipientAllowlist: [BOB] }, [change({})], { simulated: true, addresses: evmAddressCodec });
    expect(v).toMatchObject({ ok: true, checkable: true, exposureUsd: 10 });
  });

  it("names the limit that blocks", () => {
    expect(checkLimits({ maxPerTxUsd: 9.99 }, [change({})], { simulated: true, addresses: evmAddressCodec }).reason).toMatch(/^maxPerTxUsd: this proposal moves \$10.00, above the limit of \$9.99/);
    expect(checkLimits({ tokenAllowlist: ["native"] }, [change({})], { simulated: true, addresses: evmAddressCodec }).reason).toMatch(/^tokenAllowlist: 10 USDC/);
    expect(checkLimits({ recipientAllowlist: [EVE] }, [change({})], { simulated: true, addresses: evmAddressCodec }).reason).toMatch(/^recipientAllowlist: 0x0+b0b0 is not an allowed recipient/);
  });

  it("counts approvals as money out; an unlimited approval exceeds any USD cap", () => {
    const approval = change({ changeType: "approval", counterparty: EVE, usdValue: 40, unlimited: false });
    expect(exposureOf([change({}), approval]).usd).toBe(50);
    expect(checkLimits({ recipientAllowlist: [BOB] }, [approval], { simulated: true, addresses: evmAddressCodec }).reason).toMatch(/not an allowed spender/);
    const unlimited = change({ changeType: "approval", usdValue: null, unlimited: true });
    expect(checkLimits({ maxPerTxUsd: 1e9 }, [unlimited], { simulated: true, addresses: evmAddressCodec }).reason).toMatch(/unlimited approval exceeds/);
    // A revocation (approval of 0) grants nothing and is not subject to the allowlists.
    expect(checkLimits({ recipientAllowlist: [BOB] }, [change({ changeType: "approval", rawAmount: "0", usdValue: 0, counterparty: EVE })], { simulated: true, addresses: evmAddressCodec }).ok).toBe(true);
  });

  it("is not checkable when a USD limit meets an unpriced outflow, or the effects were not simulated", () => {
    expect(checkLimits({ maxPerTxUsd: 100 }, [change({ usdValue: null })], { simulated: true, addresses: evmAddressCodec })).toMatchObject({ ok: true, checkable: false });
    expect(checkLimits({ recipientAllowlist: [BOB] }, [change({ usdValue: null })], { simulated: true, addresses: evmAddressCodec })).toMatchObject({ ok: true, checkable: true });
    expect(checkLimits({ recipientAllowlist: [BOB] }, [change({})], { simulated: false, addresses: evmAddressCodec })).toMatchObject({ ok: true, checkable: false });
    expect(checkLimits({}, [], { simulated: false, addresses: evmAddressCodec })).toMatchObject({ ok: true, checkable: true });
  });

  it("checks the rolling cap as already-reserved plus this proposal", () => {
    expect(checkDailyCap({ dailyCapUsd: 100 }, 60, 40)).toBeNull();
    expect(checkDailyCap({ dailyCapUsd: 100 }, 60, 40.01)).toMatch(/^dailyCapUsd: \$60.00 already counted in the last 24 hours plus \$40.01 here is above the daily cap of \$100.00/);
    expect(checkDailyCap({}, 1e12, 1e12)).toBeNull();
  });
});
