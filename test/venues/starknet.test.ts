import { describe, expect, it } from "vitest";
import { detectAction } from "../../src/venues/registry";

const USDC = "0x33068f6539f8e6e6b131e6b2b814e6c34a5224bc66947c47dab9dfee93b35fb"; // leading zero dropped on purpose
const ALICE = "0x36b18af15d29b50f8aa9135b91bafc3bfefd203d035c3d5c725cc60f5fbc67c";
const ALICE_PADDED = "0x036b18af15d29b50f8aa9135b91bafc3bfefd203d035c3d5c725cc60f5fbc67c";

describe("starknet", () => {
  it("token addresses compare as felts whatever the leading zeros, recipients come out padded", () => {
    const f = detectAction([{ contractAddress: USDC, entrypoint: "transfer", calldata: [ALICE, "2500000", "0"] }], null, {});
    expect(f).toMatchObject({ venue: "starknet", chain: "starknet", actionFamily: "transfer", notionalUsd: 2.5, recipients: [ALICE_PADDED] });
    expect(f?.transfers?.[0]).toMatchObject({ asset: "USDC", amount: "2.5" });
  });

  it("u256 high word counts, decimal and hex felts both parse", () => {
    const f = detectAction({ calls: [{ contractAddress: "0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7", entrypoint: "transfer", calldata: [ALICE, "0x0", "0x1"] }] }, null, { prices: { ETH: 3000 } });
    expect(f?.transfers?.[0].amountBase).toBe((2n ** 128n).toString());
  });

  it("approve + unknown call multicall: permission is listed, unknown entrypoint warned, exact approval amount kept", () => {
    const f = detectAction(
      {
        starknetCalls: [
          { contractAddress: "0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d", entrypoint: "approve", calldata: [ALICE, "1000000000000000000", "0"] },
          { contractAddress: ALICE, entrypoint: "multi_route_swap", calldata: ["0x1"] },
        ],
      },
      null,
      {},
    );
    expect(f?.approvals?.[0]).toMatchObject({ token: "STRK", amount: "1", unlimited: false });
    expect(f?.calls?.map((c) => c.actionType)).toEqual(["approve", "multi_route_swap"]);
    expect(f?.warnings.join(" ")).toMatch(/multi_route_swap is not decoded/);
  });

  it("unknown token decimals come from context by felt comparison", () => {
    const token = "0x0000abc";
    const f = detectAction([{ contractAddress: token, entrypoint: "transfer", calldata: [ALICE, "1230", "0"] }], null, { tokens: { "0xabc": { symbol: "foo", decimals: 3 } } });
    expect(f?.transfers?.[0]).toMatchObject({ asset: "FOO", amount: "1.23" });
  });

  it("a private action with a proof is flagged", () => {
    const f = detectAction({ calls: [{ contractAddress: ALICE, entrypoint: "apply_actions", calldata: [] }], proof: { facts: ["0x1"], data: "AAAA" } }, null, {});
    expect(f?.warnings.join(" ")).toMatch(/STRK20/);
    expect(f?.details?.hasProof).toBe(true);
  });

  it("malformed calls are not Starknet", () => {
    expect(detectAction([{ contractAddress: "nope", entrypoint: "transfer", calldata: [] }], null, {})).toBeNull();
    expect(detectAction([{ contractAddress: ALICE }], null, {})).toBeNull();
    expect(detectAction([], "starknet", {})).toBeNull();
    const bad = detectAction([{ contractAddress: USDC, entrypoint: "transfer", calldata: [ALICE, "-5"] }], null, {});
    expect(bad?.transfers?.[0].amount).toBeNull();
    expect(bad?.warnings.join(" ")).toMatch(/does not decode/);
  });
});
