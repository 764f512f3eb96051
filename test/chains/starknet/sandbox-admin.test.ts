/**
 * The Starknet sandbox as the operator sees it: `npm start`'s runtime runs the node, GET /admin/v1/sandbox
 * describes it, and POST /admin/v1/sandbox/fund sends tokens from the faucet with a real transaction
 * (checked with unmodified starknet.js).
 */
import { RpcProvider, stark } from "starknet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, type TestRuntime } from "../../helpers/runtime";

let t: TestRuntime;
const USDC = "0x033068f6539f8e6e6b131e6b2b814e6c34a5224bc66947c47dab9dfee93b35fb";
const STRK = "0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d";

beforeAll(async () => {
  t = await startTestRuntime({ env: { SANDBOX: "true", SANDBOX_RPC_PORT: "0" } });
});
afterAll(async () => {
  await t?.close();
});

describe("Starknet sandbox operator routes", () => {
  it("GET /admin/v1/sandbox reports the Starknet node and its tokens; fund sends them", async () => {
    const info = (await (await t.admin("GET", "/admin/v1/sandbox")).json()) as { starknet: { rpcUrl: string; chainId: string; tokens: Record<string, string> } };
    expect(info.starknet).toMatchObject({ chainId: "0x534e5f4d41494e", tokens: { STRK, USDC, ETH: expect.stringMatching(/^0x049d/), USDT: expect.stringMatching(/^0x068f/) } });
    const provider = new RpcProvider({ nodeUrl: info.starknet.rpcUrl });
    expect(await provider.getChainId()).toBe("0x534e5f4d41494e");

    const who = stark.randomAddress();
    const res = await t.admin("POST", "/admin/v1/sandbox/fund", { chain: "starknet", address: who, asset: "usdc", amount: "12.5" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { txHash: string };
    expect(body.txHash).toMatch(/^0x[0-9a-f]+$/);
    expect((await provider.getTransactionReceipt(body.txHash)).isSuccess()).toBe(true);
    const [low] = await provider.callContract({ contractAddress: USDC, entrypoint: "balance_of", calldata: [who] });
    expect(BigInt(low!)).toBe(12_500_000n);
    const strk = await t.admin("POST", "/admin/v1/sandbox/fund", { chain: "starknet", address: who, asset: "STRK", amount: 2 });
    expect(strk.status).toBe(200);
    const [s] = await provider.callContract({ contractAddress: STRK, entrypoint: "balance_of", calldata: [who] });
    expect(BigInt(s!)).toBe(2n * 10n ** 18n);

    for (const bad of [
      { chain: "starknet", address: "0xzz", asset: "USDC", amount: "1" },
      { chain: "starknet", address: "0x" + "f".repeat(64), asset: "USDC", amount: "1" },
      { chain: "starknet", address: who, asset: "DOGE", amount: "1" },
      { chain: "starknet", address: who, asset: "USDC", amount: "1e3" },
      { chain: "starknet", address: who, asset: "USDC", amount: "0.0000001" },
      { chain: "starknet", address: who, asset: "USDC" },
    ]) {
      const r = await t.admin("POST", "/admin/v1/sandbox/fund", bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    const [after] = await provider.callContract({ contractAddress: USDC, entrypoint: "balance_of", calldata: [who] });
    expect(BigInt(after!)).toBe(12_500_000n);
  });
});
