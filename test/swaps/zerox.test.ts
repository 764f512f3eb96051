/**
 * The production 0x Swap API v2 client against a local server speaking 0x's wire format
 * (/swap/allowance-holder/quote: request params and headers; response buyAmount, minBuyAmount,
 * transaction{to,data,value,gas,gasPrice}, issues.allowance.spender, route.fills, totalNetworkFee), then the
 * swap route on a sandbox runtime configured with SWAP_PROVIDER=0x pointing at that server.
 */
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeFunctionData, type Address, type Hex } from "viem";
import { ServiceError } from "../../src/lib/errors";
import { ALLOWANCE_HOLDER, ALLOWANCE_HOLDER_ABI, createZeroExProvider, SETTLER_ABI } from "../../src/swaps/zerox";
import { NATIVE_TOKEN_SENTINEL, type QuoteRequest } from "../../src/swaps/types";
import { BASE_WETH } from "../../src/sandbox/addresses";
import { freshAddress, startEscrowRuntime, USDC, type EscrowRuntime } from "../wallets/helpers";

const SETTLER: Address = "0x5C9bdC801a600c006c388FC032dCb27355154cC9";
type Mode = "good" | "wrongTo" | "wrongSpender" | "wrongAmount" | "lowMin" | "wrongRecipient" | "noLiquidity" | "badRequest" | "down" | "garbage";

let mode: Mode = "good";
const seen: { query: Record<string, string>; headers: Record<string, string | undefined> }[] = [];
let server: ServerType;
let apiUrl: string;

function quoteBody(q: Record<string, string>): Record<string, unknown> {
  const sellAmount = BigInt(q.sellAmount);
  const buyAmount = 33_000_000_000_000_000n * (sellAmount / 100_000_000n || 1n);
  const minBuy = (buyAmount * BigInt(10_000 - Number(q.slippageBps))) / 10_000n;
  const native = q.sellToken.toLowerCase() === NATIVE_TOKEN_SENTINEL.toLowerCase();
  const inner = encodeFunctionData({
    abi: SETTLER_ABI,
    functionName: "execute",
    args: [{ recipient: (mode === "wrongRecipient" ? freshAddress() : q.taker) as Address, buyToken: q.buyToken as Address, minAmountOut: mode === "lowMin" ? minBuy / 2n : minBuy }, ["0x1234"], `0x${"00".repeat(32)}` as Hex],
  });
  const data = encodeFunctionData({ abi: ALLOWANCE_HOLDER_ABI, functionName: "exec", args: [SETTLER, q.sellToken as Address, mode === "wrongAmount" ? sellAmount + 1n : sellAmount, SETTLER, inner] });
  return {
    blockNumber: "23000000",
    buyAmount: buyAmount.toString(),
    buyToken: q.buyToken,
    fees: { integratorFee: null, zeroExFee: null, gasFee: null },
    issues: { allowance: native ? null : { actual: "0", spender: mode === "wrongSpender" ? freshAddress() : ALLOWANCE_HOLDER }, balance: null, simulationIncomplete: false, invalidSourcesPassed: [] },
    liquidityAvailable: true,
    minBuyAmount: minBuy.toString(),
    route: { fills: [{ from: q.sellToken, to: q.buyToken, source: "Uniswap_V3", proportionBps: "10000" }], tokens: [] },
    sellAmount: sellAmount.toString(),
    sellToken: q.sellToken,
    totalNetworkFee: "2100000000000",
    transaction: { to: mode === "wrongTo" ? freshAddress() : ALLOWANCE_HOLDER, data, gas: "210000", gasPrice: "10000000", value: native ? sellAmount.toString() : "0" },
    zid: "0x111111111111111111111111",
  };
}

beforeAll(async () => {
  const app = new Hono();
  app.get("/swap/allowance-holder/quote", (c) => {
    seen.push({ query: c.req.query(), headers: { key: c.req.header("0x-api-key"), version: c.req.header("0x-version") } });
    if (c.req.header("0x-api-key") !== "test-key") return c.json({ name: "UNAUTHORIZED", message: "bad key" }, 401);
    if (mode === "down") return c.json({ name: "INTERNAL_SERVER_ERROR", message: "oops" }, 503);
    if (mode === "badRequest") return c.json({ name: "INPUT_INVALID", message: "Validation Failed", data: { details: [{ field: "sellAmount", reason: "too small" }] } }, 400);
    if (mode === "noLiquidity") return c.json({ liquidityAvailable: false, zid: "0x1" });
    if (mode === "garbage") return c.text("<html>gateway</html>", 200);
    return c.json(quoteBody(c.req.query()));
  });
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
      apiUrl = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const taker = freshAddress();
const req = (over: Partial<QuoteRequest> = {}): QuoteRequest => ({
  chainId: 8453,
  sell: { address: USDC, symbol: "USDC", name: "USD Coin", decimals: 6 },
  buy: { address: BASE_WETH, symbol: "WETH", name: "Wrapped Ether", decimals: 18 },
  sellAmount: 100_000_000n,
  taker,
  slippageBps: 50,
  ...over,
});
const failure = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ServiceError);
  return e as ServiceError;
};

describe("0x Swap API v2 client", () => {
  const provider = () => createZeroExProvider({ apiUrl, apiKey: "test-key", isSettler: async (t) => t === SETTLER });

  it("asks with the v2 headers and params and returns a checked quote", async () => {
    mode = "good";
    const q = await provider().quote(req());
    const last = seen.at(-1)!;
    expect(last.headers).toEqual({ key: "test-key", version: "v2" });
    expect(last.query).toEqual({ chainId: "8453", sellToken: USDC, buyToken: BASE_WETH, sellAmount: "100000000", taker, slippageBps: "50" });
    expect(q).toMatchObject({ routing: "0x", buyAmount: 33_000_000_000_000_000n, minBuyAmount: (33_000_000_000_000_000n * 9950n) / 10000n, allowanceSpender: ALLOWANCE_HOLDER, networkFeeWei: 2_100_000_000_000n, routeString: "USDC -> WETH via 0x (Uniswap_V3 100%)" });
    expect(q.calls).toHaveLength(1);
    expect(q.calls[0]).toMatchObject({ to: ALLOWANCE_HOLDER, value: 0n });
    const eth = await provider().quote(req({ sell: { address: "native", symbol: "ETH", name: "Ether", decimals: 18 }, sellAmount: 10n ** 17n }));
    expect(seen.at(-1)!.query.sellToken).toBe(NATIVE_TOKEN_SENTINEL);
    expect(eth).toMatchObject({ allowanceSpender: null, calls: [{ value: 10n ** 17n }] });
  });

  it.each<[Mode, RegExp]>([
    ["wrongTo", /goes to 0x[0-9a-fA-F]{40}, not 0x's AllowanceHolder/],
    ["wrongSpender", /asks an allowance for 0x[0-9a-fA-F]{40}, not for its AllowanceHolder/],
    ["wrongAmount", /lets the settler pull 100000001 of/],
    ["lowMin", /accepts \d+, below the \d+ that 50 bps of slippage allow/],
    ["wrongRecipient", /pays 0x[0-9a-fA-F]{40}, not the wallet/],
    ["badRequest", /the quote service \(0x\) refused the swap: INPUT_INVALID: Validation Failed/],
    ["noLiquidity", /no liquidity for USDC -> WETH/],
  ])("refuses a %s quote with 400 swap_failed", async (m, message) => {
    mode = m;
    const e = await failure(provider().quote(req()));
    expect(e.kind).toBe("invalid_input");
    expect(e.error).toBe("swap_failed");
    expect(e.detail).toMatch(message);
  });

  it("refuses a settler the registry does not name", async () => {
    mode = "good";
    const e = await failure(createZeroExProvider({ apiUrl, apiKey: "test-key", isSettler: async () => false }).quote(req()));
    expect(e.detail).toMatch(/targets 0x5C9bdC801a600c006c388FC032dCb27355154cC9, which the 0x registry does not name/);
  });

  it("answers 502 when the quote service is down, unreachable, unreadable or refuses our key", async () => {
    mode = "down";
    expect((await failure(provider().quote(req()))).kind).toBe("upstream_failed");
    mode = "garbage";
    expect((await failure(provider().quote(req()))).detail).toMatch(/without a readable quote/);
    mode = "good";
    expect((await failure(createZeroExProvider({ apiUrl, apiKey: "wrong" }).quote(req()))).detail).toMatch(/refused this deployment's credentials \(HTTP 401\)/);
    const closed = await failure(createZeroExProvider({ apiUrl: "http://127.0.0.1:1", apiKey: "test-key" }).quote(req()));
    expect(closed.kind).toBe("upstream_failed");
    expect(closed.detail).toMatch(/could not be reached/);
  });
});

describe("the swap route with SWAP_PROVIDER=0x", () => {
  let t: EscrowRuntime;
  beforeAll(async () => {
    t = await startEscrowRuntime({ env: { SWAP_PROVIDER: "0x", ZEROX_API_KEY: "test-key", ZEROX_API_URL: apiUrl } });
  });
  afterAll(async () => {
    await t?.close();
  });
  const swap = async (key: string, wallet: string) => t.json(await t.request("POST", `/api/v1/wallets/${wallet}/swap`, { key, body: { sell: "USDC", buy: "WETH", amount: "100", chain: "base" } }));

  it("maps the 0x client's outcomes to SPEC 7 and proposes a checked quote as an atomic batch", async () => {
    const a = await t.createAccount(5);
    const w = await t.createWallet(a.apiKey, { name: "zx" });
    await t.fund(w.address, "ETH", "1");
    await t.fund(w.address, "USDC", "200");
    mode = "down";
    expect(await swap(a.apiKey, w.id)).toMatchObject({ status: 502, body: { error: "swap_failed" } });
    mode = "wrongTo";
    expect(await swap(a.apiKey, w.id)).toMatchObject({ status: 400, body: { error: "swap_failed", message: expect.stringMatching(/^quote refused: its transaction goes to/) } });
    expect(await t.credits(a.apiKey)).toBe(5);
    mode = "good";
    const r = await swap(a.apiKey, w.id);
    expect(r.status).toBe(200);
    expect(r.body.swap).toMatchObject({ routing: "0x", approvalNeeded: true, approvalSpender: ALLOWANCE_HOLDER, amountIn: "100000000", amountOut: "33000000000000000" });
    expect(r.body.swap.gasFeeUSD).toBeGreaterThan(0);
    // The simulation shows the exact approval to the AllowanceHolder (no 0x contracts exist on the sandbox chain, so nothing is pulled).
    expect(r.body.simulation.changes[0]).toMatchObject({ changeType: "approval", counterparty: ALLOWANCE_HOLDER, rawAmount: "100000000", residualRaw: "100000000" });
  });
});
