/**
 * Swap verbs (SPEC 2.9, 4.10; MCP list_swap_tokens, quote_escrow_swap, escrow_swap).
 *
 * quote: resolve the tokens on the wallet's chain, quote with the chain's provider, check the quote
 * against the request and the provider's routers, read the wallet's allowance. Nothing is simulated,
 * judged, signed or recorded.
 * swap: the same, then the batch (an approval of exactly the sell amount when the allowance is short,
 * then the swap with its minimum output in the calldata) is proposed as one atomic `evm_calls` proposal
 * through the pipeline every proposal takes: simulation, limits (against the simulated effects), judge,
 * execution or the owner. The reply is the proposal result plus `swap`.
 */
import { evmChainOf } from "../chains/evm/adapter";
import { symbolOrEvmAddressSchema } from "../chains/evm/address";
import { encodeFunctionData, erc20Abi, formatUnits, getAddress, type Address } from "viem";
import { z } from "zod";
import type { Principal } from "../accounts/principal";
import type { EvmChain } from "../chains/evm/chain";
import type { Database } from "../db/client";
import { ServiceError } from "../lib/errors";
import { parseUnitsStrict } from "../lib/money";
import { buildEvmProposal } from "../chains/evm/plan";
import type { ProposalResult } from "../proposals/present";
import { planned } from "../proposals/propose";
import type { ProposalsService } from "../proposals/service";
import { findWallet, type WalletView } from "../wallets/repo";
import type { EscrowChains } from "../wallets/types";
import { listSwapTokens, resolveSwapToken } from "./tokens";
import { minimumOutFor, quoteUnavailable, swapFailed, swapRefused, type ProviderQuote, type QuoteProvider, type SwapCall, type SwapSummary, type SwapToken } from "./types";

export const DEFAULT_SLIPPAGE_BPS = 50;
/** Gas added to a provider's swap estimate: the exact approval, and the batch wrapper. */
const APPROVAL_GAS = 50_000n;
const BATCH_GAS = 30_000n;

export const SwapRequest = z.object({
  sell: symbolOrEvmAddressSchema().describe("A 0x token address, ETH, WETH, USDC, or a symbol of a token the wallet holds on this chain"),
  buy: symbolOrEvmAddressSchema().describe("A 0x token address, ETH, WETH or USDC"),
  amount: z.string().trim().min(1).max(100).describe("Amount to sell in the sell token's whole units, a plain decimal (e.g. \"25.5\")"),
  chain: z.string().trim().min(1).max(40).describe("base or ethereum; must be the wallet's chain"),
  slippageBps: z.number().int("must be an integer").min(1, "must be 1 to 1,000").max(1000, "must be 1 to 1,000").optional().describe("1 to 1,000, default 50: sets the minimum output written into the signed swap"),
  note: z.string().optional().describe("Untrusted context for the judge, cut at 2,000 characters"),
});
export type SwapRequest = z.infer<typeof SwapRequest>;

/** SPEC 7: every refusal of a swap body is 400 swap_failed naming the field. */
export function parseSwapRequest(body: unknown): SwapRequest {
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw swapRefused("the request body must be a JSON object");
  const parsed = SwapRequest.safeParse(body);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw swapRefused(`${i.path.join(".") || "body"}: ${i.message}`);
  }
  return parsed.data;
}

export interface SwapServiceOptions {
  db: Database;
  chains: EscrowChains;
  proposals: ProposalsService;
  /** The quote provider for a wallet's chain; null where swaps are not configured. */
  provider: (chain: EvmChain) => QuoteProvider | null;
}

interface Prepared {
  wallet: WalletView;
  chain: EvmChain;
  calls: SwapCall[];
  swap: SwapSummary;
  slippageBps: number;
  quote: ProviderQuote;
  sell: SwapToken;
  buy: SwapToken;
}

const CHAIN_KEYS: Record<string, "base" | "ethereum"> = { base: "base", "eip155:8453": "base", ethereum: "ethereum", "eip155:1": "ethereum" };
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** The provider's quote must stay inside what was asked and inside its own routers. */
export function checkQuote(provider: QuoteProvider, q: ProviderQuote, req: { sell: SwapToken; sellAmount: bigint; slippageBps: number }): void {
  const routers = new Set(provider.routers.map((r) => r.toLowerCase()));
  for (const c of q.calls) if (!routers.has(c.to.toLowerCase())) throw swapRefused(`quote refused: a call goes to ${c.to}, which is not one of ${provider.name}'s routers`);
  if (req.sell.address === "native" ? q.allowanceSpender !== null : q.allowanceSpender === null || !routers.has(q.allowanceSpender.toLowerCase())) {
    throw swapRefused(`quote refused: its allowance target ${q.allowanceSpender ?? "(none)"} is not one of ${provider.name}'s routers`);
  }
  const value = q.calls.reduce((s, c) => s + c.value, 0n);
  const wantValue = req.sell.address === "native" ? req.sellAmount : 0n;
  if (value !== wantValue) throw swapRefused(`quote refused: it sends ${value} wei of ETH, expected ${wantValue}`);
  if (q.buyAmount <= 0n || q.minBuyAmount > q.buyAmount || q.minBuyAmount < minimumOutFor(q.buyAmount, req.slippageBps)) {
    throw swapRefused(`quote refused: its minimum output ${q.minBuyAmount} is outside what ${req.slippageBps} bps of slippage allow on ${q.buyAmount}`);
  }
}

export function createSwapService(o: SwapServiceOptions) {
  async function prepare(principal: Principal, walletRef: string, req: SwapRequest): Promise<Prepared> {
    const wallet = await findWallet(o.db, principal.accountId, walletRef);
    if (wallet.archived_at) throw swapFailed("conflict", "the wallet is archived and cannot transact; an operator can unarchive it");
    const named = CHAIN_KEYS[req.chain.toLowerCase()];
    if (!named) throw swapRefused(`chain: swaps run on base or ethereum, not ${req.chain.slice(0, 40)}`);
    if (named !== wallet.chain) throw swapRefused(`wrong chain: this wallet is on ${wallet.chain}; the request names ${named}`);
    const chain = evmChainOf(o.chains.forWallet(wallet.chain));
    if (!chain) throw swapFailed("unavailable", `swaps are not configured for ${wallet.chain} on this deployment (no ${wallet.chain} chain)`);
    const provider = o.provider(chain);
    if (!provider) throw swapFailed("unavailable", "swaps are not configured on this deployment (no quote provider)");
    const slippageBps = req.slippageBps ?? DEFAULT_SLIPPAGE_BPS;
    const sell = await resolveSwapToken(chain, req.sell, "sell");
    const buy = await resolveSwapToken(chain, req.buy, "buy");
    if (sell.address === buy.address) throw swapRefused("sell and buy are the same token");
    let sellAmount: bigint;
    try {
      sellAmount = parseUnitsStrict(req.amount, sell.decimals);
    } catch (e) {
      throw swapRefused(`amount: ${(e as Error).message} (${sell.symbol} has ${sell.decimals} decimals)`);
    }
    if (sellAmount <= 0n) throw swapRefused("amount: must be greater than zero");
    const taker = getAddress(wallet.address.toLowerCase()) as Address;
    const quote = await provider.quote({ chainId: chain.info.chainId, sell, buy, sellAmount, taker, slippageBps });
    checkQuote(provider, quote, { sell, sellAmount, slippageBps });

    let approvalNeeded = false;
    if (sell.address !== "native") {
      let allowance: bigint;
      try {
        allowance = await chain.client.readContract({ address: sell.address, abi: erc20Abi, functionName: "allowance", args: [taker, quote.allowanceSpender!] });
      } catch (err) {
        throw quoteUnavailable(`the wallet's allowance could not be read: ${(err as Error).message.slice(0, 200)}`);
      }
      approvalNeeded = allowance < sellAmount;
    }
    const approval: SwapCall[] = approvalNeeded ? [{ to: sell.address as Address, data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [quote.allowanceSpender!, sellAmount] }), value: 0n }] : [];
    const swap: SwapSummary = {
      routing: quote.routing,
      sell: { address: sell.address, decimals: sell.decimals, symbol: sell.symbol },
      buy: { address: buy.address, decimals: buy.decimals, symbol: buy.symbol },
      amountIn: sellAmount.toString(),
      amountOut: quote.buyAmount.toString(),
      minimumOut: quote.minBuyAmount.toString(),
      amountInHuman: formatUnits(sellAmount, sell.decimals),
      amountOutHuman: formatUnits(quote.buyAmount, buy.decimals),
      minimumOutHuman: formatUnits(quote.minBuyAmount, buy.decimals),
      priceImpactPct: quote.priceImpactPct,
      slippagePct: slippageBps / 100,
      gasFeeUSD: await gasFeeUsd(chain, quote, approvalNeeded),
      routeString: quote.routeString,
      approvalNeeded,
      approvalSpender: quote.allowanceSpender,
    };
    return { wallet, chain, calls: [...approval, ...quote.calls], swap, slippageBps, quote, sell, buy };
  }

  return {
    listTokens: (chain: "base" | "ethereum") => listSwapTokens(chain, evmChainOf(o.chains.forWallet("base"))),

    /** quote_escrow_swap: nothing simulated, judged, signed or recorded. */
    async quote(principal: Principal, wallet: string, req: SwapRequest) {
      const p = await prepare(principal, wallet, req);
      return { walletId: p.wallet.id, name: p.wallet.name, chain: p.wallet.chain, slippageBps: p.slippageBps, swap: p.swap };
    },

    /** POST /api/v1/wallets/{id}/swap and escrow_swap. */
    async swap(principal: Principal, wallet: string, req: SwapRequest, source: "api" | "mcp"): Promise<ProposalResult & { swap: SwapSummary }> {
      const p = await prepare(principal, wallet, req);
      if (!p.chain.batchExecutor) throw swapFailed("unavailable", "swaps run as one atomic batch through the wallet's EIP-7702 batch executor, and this deployment has none (BATCH_EXECUTOR_ADDRESS)");
      const input = { kind: "evm_calls" as const, chain: p.wallet.chain, calls: p.calls.map((c) => ({ to: c.to, data: c.data, value: c.value.toString() })) };
      const s = p.swap;
      try {
        const built = await planned(() => buildEvmProposal(p.chain, p.wallet, input));
        built.summary = `swap ${s.amountInHuman} ${s.sell.symbol} for at least ${s.minimumOutHuman} ${s.buy.symbol} (quoted ${s.amountOutHuman}) via ${s.routing}${s.approvalNeeded ? ", after approving exactly the sell amount" : ""}`;
        const judged = { routing: s.routing, sell: s.sell, buy: s.buy, amountIn: s.amountInHuman, quotedOut: s.amountOutHuman, minimumOut: s.minimumOutHuman, slippageBps: p.slippageBps, priceImpactPct: s.priceImpactPct, approvalSpender: s.approvalSpender };
        const result = await o.proposals.proposeBuilt(principal, p.wallet, { built: { ...built, kind: input.kind }, input: { ...input, swap: judged }, note: req.note, source });
        return { ...result, swap: s };
      } catch (err) {
        if (err instanceof ServiceError && err.kind !== "not_found" && err.kind !== "unauthenticated" && err.error !== "swap_failed") {
          throw new ServiceError(err.kind, "swap_failed", err.detail ?? err.error, { extra: err.extra });
        }
        throw err;
      }
    },
  };
}
export type SwapService = ReturnType<typeof createSwapService>;

async function gasFeeUsd(chain: EvmChain, q: ProviderQuote, approval: boolean): Promise<number | null> {
  try {
    const extra = (approval ? APPROVAL_GAS : 0n) + BATCH_GAS;
    const gasPrice = await chain.client.getGasPrice();
    const wei = q.networkFeeWei !== null ? q.networkFeeWei + extra * gasPrice : ((q.gasEstimate ?? 150_000n) + extra) * gasPrice;
    const eth = await chain.prices.usd("native");
    return eth === null ? null : round6(Number(formatUnits(wei, 18)) * eth);
  } catch {
    return null;
  }
}
