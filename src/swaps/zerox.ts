/**
 * The 0x Swap API v2 as a quote provider (production): GET {ZEROX_API_URL}/swap/allowance-holder/quote with
 * `0x-api-key` and `0x-version: v2`. The answer is not trusted: before anything is proposed, the quote must
 *
 *  - sell exactly the requested token and amount, and buy the requested token;
 *  - send its transaction to 0x's AllowanceHolder (the only allowlisted router), name it as the allowance
 *    spender (`issues.allowance.spender`), and carry value only for a native ETH sell (exactly the amount);
 *  - encode AllowanceHolder.exec(operator, token, amount, target, data) with that token and amount, a
 *    target the settler check accepts (production: the Settler the 0x registry currently names), and data =
 *    Settler.execute(slippage, actions, ...) paying the taker (`recipient`), in the buy token, with a
 *    `minAmountOut` no lower than buyAmount x (1 - slippageBps/10000);
 *  - report minBuyAmount <= buyAmount.
 *
 * Otherwise it is refused (400 swap_failed). A 4xx answer is a refused quote (400); 5xx, 429, a timeout, an
 * unreachable host, bad credentials or an unreadable answer are 502 (the quote service is unavailable).
 */
import { decodeFunctionData, getAddress, parseAbi, type Address, type Hex } from "viem";
import { z } from "zod";
import { minimumOutFor, quoteUnavailable, swapRefused, wireAddress, isNative, type ProviderQuote, type QuoteProvider, type QuoteRequest } from "./types";

/** 0x AllowanceHolder on Cancun chains (Base, Ethereum). */
export const ALLOWANCE_HOLDER: Address = "0x0000000000001fF3684f28c67538d4D072C22734";
/** 0x deployer/registry: ownerOf(2) is the current taker-submitted Settler. */
export const SETTLER_REGISTRY: Address = "0x00000000000004533Fe15556B1E086BB1A72cEae";
export const SETTLER_FEATURE_TAKER = 2n;

export const ALLOWANCE_HOLDER_ABI = parseAbi(["function exec(address operator, address token, uint256 amount, address target, bytes data) payable returns (bytes)"]);
export const SETTLER_ABI = parseAbi(["function execute((address recipient, address buyToken, uint256 minAmountOut) slippage, bytes[] actions, bytes32 zidAndAffiliate) payable returns (bool)"]);
export const SETTLER_REGISTRY_ABI = parseAbi(["function ownerOf(uint256 tokenId) view returns (address)"]);

const uint = z.string().regex(/^\d{1,78}$/);
const addr = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const Quote = z.object({
  liquidityAvailable: z.literal(true),
  sellToken: addr,
  buyToken: addr,
  sellAmount: uint,
  buyAmount: uint,
  minBuyAmount: uint,
  transaction: z.object({ to: addr, data: z.string().regex(/^0x(?:[0-9a-fA-F]{2})*$/), value: uint, gas: uint.nullish(), gasPrice: uint.nullish() }),
  issues: z.object({ allowance: z.object({ spender: addr, actual: uint.optional() }).nullish() }).passthrough().nullish(),
  route: z.object({ fills: z.array(z.object({ source: z.string(), proportionBps: z.string().optional() }).passthrough()).optional() }).passthrough().nullish(),
  totalNetworkFee: uint.nullish(),
});

export interface ZeroExOptions {
  apiUrl: string;
  apiKey: string;
  timeoutMs?: number;
  /** Accepts the Settler an exec() targets; production reads the 0x registry (settlerFromRegistry). */
  isSettler?: (target: Address) => Promise<boolean>;
  fetchImpl?: typeof fetch;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function routeString(sellSym: string, buySym: string, route: z.infer<typeof Quote>["route"]): string {
  const fills = route?.fills ?? [];
  const parts = fills.map((f) => `${f.source}${f.proportionBps ? ` ${Number(f.proportionBps) / 100}%` : ""}`);
  return `${sellSym} -> ${buySym} via 0x${parts.length ? ` (${parts.join(", ")})` : ""}`;
}

/** Checks a parsed 0x quote against the request; returns the minimum output written in its calldata. */
export async function verifyZeroExQuote(q: z.infer<typeof Quote>, req: QuoteRequest, isSettler?: (t: Address) => Promise<boolean>): Promise<bigint> {
  const sell = wireAddress(req.sell);
  const buy = wireAddress(req.buy);
  if (!same(q.sellToken, sell)) throw swapRefused(`quote refused: it sells ${q.sellToken}, not ${sell}`);
  if (!same(q.buyToken, buy)) throw swapRefused(`quote refused: it buys ${q.buyToken}, not ${buy}`);
  if (BigInt(q.sellAmount) !== req.sellAmount) throw swapRefused(`quote refused: it sells ${q.sellAmount} base units, not the ${req.sellAmount} requested`);
  const buyAmount = BigInt(q.buyAmount);
  const minBuy = BigInt(q.minBuyAmount);
  if (buyAmount === 0n || minBuy > buyAmount) throw swapRefused("quote refused: its buy amounts are inconsistent");
  const tx = q.transaction;
  if (!same(tx.to, ALLOWANCE_HOLDER)) throw swapRefused(`quote refused: its transaction goes to ${tx.to}, not 0x's AllowanceHolder (${ALLOWANCE_HOLDER})`);
  const spender = q.issues?.allowance?.spender;
  if (spender && !same(spender, ALLOWANCE_HOLDER)) throw swapRefused(`quote refused: it asks an allowance for ${spender}, not for its AllowanceHolder`);
  const wantValue = isNative(req.sell) ? req.sellAmount : 0n;
  if (BigInt(tx.value) !== wantValue) throw swapRefused(`quote refused: its transaction carries ${tx.value} wei, expected ${wantValue}`);
  let exec;
  try {
    exec = decodeFunctionData({ abi: ALLOWANCE_HOLDER_ABI, data: tx.data as Hex });
  } catch {
    throw swapRefused("quote refused: its calldata is not an AllowanceHolder exec() call");
  }
  const [, token, amount, target, inner] = exec.args;
  if (!isNative(req.sell) && (!same(token, sell) || amount !== req.sellAmount)) throw swapRefused(`quote refused: its calldata lets the settler pull ${amount} of ${token}, not ${req.sellAmount} of ${sell}`);
  if (isSettler && !(await isSettler(getAddress(target)))) throw swapRefused(`quote refused: its calldata targets ${target}, which the 0x registry does not name as the current Settler`);
  let settle;
  try {
    settle = decodeFunctionData({ abi: SETTLER_ABI, data: inner });
  } catch {
    throw swapRefused("quote refused: the settler calldata is not a Settler execute() call");
  }
  const slip = settle.args[0];
  if (!same(slip.recipient, req.taker)) throw swapRefused(`quote refused: it pays ${slip.recipient}, not the wallet ${req.taker}`);
  if (!same(slip.buyToken, buy)) throw swapRefused(`quote refused: its calldata buys ${slip.buyToken}, not ${buy}`);
  const floor = minimumOutFor(buyAmount, req.slippageBps);
  if (slip.minAmountOut < floor) throw swapRefused(`quote refused: its calldata accepts ${slip.minAmountOut}, below the ${floor} that ${req.slippageBps} bps of slippage allow`);
  return slip.minAmountOut;
}

export function createZeroExProvider(o: ZeroExOptions): QuoteProvider {
  const base = o.apiUrl.replace(/\/+$/, "");
  const doFetch = o.fetchImpl ?? fetch;
  return {
    name: "0x",
    routers: [ALLOWANCE_HOLDER],
    async quote(req): Promise<ProviderQuote> {
      const params = new URLSearchParams({
        chainId: String(req.chainId),
        sellToken: wireAddress(req.sell),
        buyToken: wireAddress(req.buy),
        sellAmount: req.sellAmount.toString(),
        taker: req.taker,
        slippageBps: String(req.slippageBps),
      });
      let res: Response;
      try {
        res = await doFetch(`${base}/swap/allowance-holder/quote?${params}`, {
          headers: { "0x-api-key": o.apiKey, "0x-version": "v2", accept: "application/json" },
          signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
          redirect: "error",
        });
      } catch (err) {
        throw quoteUnavailable(`the quote service (0x) could not be reached: ${(err as Error).message}`);
      }
      const text = await res.text().catch(() => "");
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        // handled below
      }
      if (res.status === 401 || res.status === 403) throw quoteUnavailable(`the quote service (0x) refused this deployment's credentials (HTTP ${res.status})`);
      if (res.status === 429 || res.status >= 500) throw quoteUnavailable(`the quote service (0x) is unavailable (HTTP ${res.status}); retry later`);
      if (res.status >= 400) {
        const b = (body ?? {}) as { name?: string; message?: string };
        throw swapRefused(`the quote service (0x) refused the swap: ${[b.name, b.message].filter(Boolean).join(": ").slice(0, 300) || `HTTP ${res.status}`}`);
      }
      if (res.status !== 200 || body === null) throw quoteUnavailable(`the quote service (0x) answered HTTP ${res.status} without a readable quote`);
      if ((body as { liquidityAvailable?: unknown }).liquidityAvailable === false) throw swapRefused(`no liquidity for ${req.sell.symbol} -> ${req.buy.symbol} at this size`);
      const parsed = Quote.safeParse(body);
      if (!parsed.success) throw quoteUnavailable(`the quote service (0x) answered an unreadable quote (${parsed.error.issues[0].path.join(".")}: ${parsed.error.issues[0].message})`);
      const q = parsed.data;
      const minBuyAmount = await verifyZeroExQuote(q, req, o.isSettler);
      return {
        routing: "0x",
        buyAmount: BigInt(q.buyAmount),
        minBuyAmount,
        calls: [{ to: ALLOWANCE_HOLDER, data: q.transaction.data as Hex, value: BigInt(q.transaction.value) }],
        allowanceSpender: isNative(req.sell) ? null : ALLOWANCE_HOLDER,
        networkFeeWei: q.totalNetworkFee ? BigInt(q.totalNetworkFee) : q.transaction.gas && q.transaction.gasPrice ? BigInt(q.transaction.gas) * BigInt(q.transaction.gasPrice) : null,
        gasEstimate: q.transaction.gas ? BigInt(q.transaction.gas) : null,
        priceImpactPct: null,
        routeString: routeString(req.sell.symbol, req.buy.symbol, q.route),
      };
    },
  };
}

/** Production settler check: the target must be the Settler the 0x registry names now (cached 5 minutes). */
export function settlerFromRegistry(read: (args: { address: Address; abi: typeof SETTLER_REGISTRY_ABI; functionName: "ownerOf"; args: [bigint] }) => Promise<Address>): (t: Address) => Promise<boolean> {
  let cache: { at: number; settler: Address } | null = null;
  return async (target) => {
    if (!cache || Date.now() - cache.at > 300_000) {
      try {
        cache = { at: Date.now(), settler: await read({ address: SETTLER_REGISTRY, abi: SETTLER_REGISTRY_ABI, functionName: "ownerOf", args: [SETTLER_FEATURE_TAKER] }) };
      } catch {
        throw quoteUnavailable("the 0x Settler registry could not be read on chain; retry later");
      }
    }
    return same(cache.settler, target);
  };
}
