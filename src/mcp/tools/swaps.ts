/**
 * Swap tools (SPEC 4.12): list_swap_tokens (free), quote_escrow_swap (free: nothing simulated, judged,
 * signed or recorded), escrow_swap (a proposal; JSON also carries `swap`). Built with the swap service
 * they call and registered in deps.ts when escrow wallets are configured.
 */
import { z } from "zod";
import type { SwapService, SwapRequest } from "../../swaps/service";
import type { SwapSummary } from "../../swaps/types";
import type { ProposalResult } from "../../proposals/present";
import { NOTE_MAX } from "../../proposals/schemas";
import { defineTool, type McpToolDefinition } from "../types";
import { ok } from "../results";
import { proposalText } from "./proposals";

const swapFields = {
  wallet: z.string().min(1).max(100).describe("The wallet's id (wal_...) or its name."),
  sell: z.string().min(1).max(100).describe("What to sell: a 0x token address, ETH, WETH, USDC, or a symbol of a token the wallet holds on this chain."),
  buy: z.string().min(1).max(100).describe("What to buy: a 0x token address, ETH, WETH or USDC."),
  amount: z.string().min(1).max(100).describe("Amount to sell in whole units of the sell token, a plain decimal string, e.g. \"25\"."),
  // A string, not an enum: a Solana or Starknet wallet's chain gets the service's swap_failed answer (swaps are
  // Base and Ethereum only), not a schema error that says nothing about the wallet.
  chain: z.string().min(1).max(40).describe("The wallet's chain: base or ethereum (swaps run on Base and Ethereum wallets only; any other chain is refused with swap_failed)."),
  slippageBps: z.number().int().min(1).max(1000).optional().describe("Slippage in basis points, 1 to 1,000 (default 50): the minimum output written into the signed swap is the quote x (1 - slippageBps/10000)."),
};
const QuoteInput = z.object(swapFields);
const SwapInput = z.object({ ...swapFields, note: z.string().optional().describe(`Optional context for the judge. Untrusted: it never grants permission. Cut at ${NOTE_MAX} characters.`) });
const ListInput = z.object({ chain: z.enum(["ethereum", "base"]).describe("The chain whose tokens to list.") });

const toRequest = (a: z.infer<typeof SwapInput> | z.infer<typeof QuoteInput>): SwapRequest => ({
  sell: a.sell,
  buy: a.buy,
  amount: a.amount.trim(),
  chain: a.chain,
  slippageBps: a.slippageBps,
  note: "note" in a ? a.note : undefined,
});

export function swapLine(s: SwapSummary): string {
  return [
    `Swap: ${s.amountInHuman} ${s.sell.symbol} -> ${s.amountOutHuman} ${s.buy.symbol} quoted, at least ${s.minimumOutHuman} ${s.buy.symbol} (slippage ${s.slippagePct}%) via ${s.routing}.`,
    `Route: ${s.routeString}. Price impact: ${s.priceImpactPct === null ? "unknown" : `${s.priceImpactPct}%`}. Gas: ${s.gasFeeUSD === null ? "unknown" : `about $${s.gasFeeUSD}`}.`,
    s.approvalNeeded ? `Approval: the batch first approves ${s.approvalSpender} for exactly ${s.amountInHuman} ${s.sell.symbol}.` : "Approval: none needed.",
  ].join("\n");
}

export function createSwapTools(swaps: SwapService): McpToolDefinition[] {
  const listSwapTokens = defineTool({
    name: "list_swap_tokens",
    title: "List swappable tokens",
    description: "Free. ETH (address native) and the verified token contracts of a chain, each with symbol, name, address, decimals and logoUrl.",
    inputSchema: ListInput,
    annotations: { title: "List swap tokens", readOnlyHint: true, openWorldHint: false },
    scope: "wallet",
    requiresEscrow: true,
    async handler(a) {
      const tokens = swaps.listTokens(a.chain);
      return ok(`${tokens.length} tokens on ${a.chain}: ${tokens.map((t) => t.symbol).join(", ")}.`, { chain: a.chain, tokens });
    },
  });

  const quoteEscrowSwap = defineTool({
    name: "quote_escrow_swap",
    title: "Quote a swap for an escrow wallet",
    description: "Free. Quotes a swap for the wallet without proposing it: nothing is simulated, judged, signed or recorded, and the quote is not held. Returns the swap summary (amounts, minimum output, price impact, gas, route, whether an approval is needed).",
    inputSchema: QuoteInput,
    annotations: { title: "Quote escrow swap", readOnlyHint: true, openWorldHint: true },
    scope: "wallet",
    requiresEscrow: true,
    async handler(a, ctx) {
      const q = await swaps.quote(ctx.principal, a.wallet, toRequest(a));
      return ok(`Quote for ${q.name} (${q.walletId}) on ${q.chain}; nothing was recorded.\n${swapLine(q.swap)}`, q as unknown as Record<string, unknown>);
    },
  });

  const escrowSwap = defineTool({
    name: "escrow_swap",
    title: "Propose a swap from an escrow wallet",
    description:
      "Proposal: quotes the swap, builds one atomic batch (an approval of exactly the sell amount when needed, then the swap with its minimum output in the signed calldata), simulates it, checks the wallet's limits (free refusal) and judges it against the mandate (one credit). An autonomous wallet executes an ALLOW with a clean simulation; everything else waits for the owner. Base and Ethereum wallets only.",
    inputSchema: SwapInput,
    annotations: { title: "Escrow swap", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    scope: "wallet",
    requiresEscrow: true,
    async handler(a, ctx) {
      const r: ProposalResult & { swap: SwapSummary } = await swaps.swap(ctx.principal, a.wallet, toRequest(a), "mcp");
      return ok(`${proposalText(r)}\n${swapLine(r.swap)}`, r as unknown as Record<string, unknown>);
    },
  });

  return [listSwapTokens, quoteEscrowSwap, escrowSwap];
}
