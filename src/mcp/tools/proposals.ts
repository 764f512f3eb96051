/**
 * Escrow proposal and status tools (SPEC 4.12): escrow_transfer, escrow_execute,
 * list_escrow_transactions, get_escrow_transaction. The proposal tools build the same `input` the HTTP
 * propose route takes and call the same verb, so validation and errors match. The proposal is recorded
 * before the judge runs and execution does not stop when the client goes away: a client-side timeout
 * still leaves it findable with list_escrow_transactions.
 */
import { z } from "zod";
import { ServiceError } from "../../lib/errors";
import { simulationSummary } from "../../chains/summary";
import { NOTE_MAX, parseProposeBody, ProposalStatusSchema } from "../../proposals/schemas";
import type { ProposalResult } from "../../proposals/present";
import { defineTool, type ToolContext } from "../types";
import { ok, short } from "../results";

const walletParam = z.string().min(1).max(100).describe("The wallet's id (wal_...) or its name.");
const chainParam = z.string().min(1).max(40).describe("The wallet's chain: base (or eip155:8453), solana (or its solana:<genesis> CAIP-2 id), starknet (or starknet:SN_MAIN). It must be the wallet's.");
const noteParam = z
  .string()
  .optional()
  .describe(`Optional context for the judge: your own narration of why. Untrusted: it never grants permission. Cut at ${NOTE_MAX} characters.`);
const evmTx = z.object({
  to: z.string().describe("0x contract or recipient"),
  value: z.union([z.string(), z.number()]).optional().describe("Wei, as a decimal integer or 0x hex string (default 0)"),
  data: z.string().optional().describe("0x calldata (default 0x)"),
});

const TransferInput = z.object({
  wallet: walletParam,
  asset: z.string().min(1).max(100).describe("Base: ETH, USDC, WETH, USDT, DAI or cbBTC (or the token's address). Solana: SOL, USDC (or a known mint). Starknet: STRK, ETH, USDC or USDT."),
  amount: z.string().min(1).max(100).describe("Whole units as a plain decimal string, e.g. \"2.5\" for 2.5 USDC; no exponent"),
  to: z.string().min(1).max(100).describe("Recipient address on the wallet's chain (0x + 40 hex on Base; base58, exact case, on Solana; a 0x felt on Starknet)"),
  chain: chainParam,
  note: noteParam,
});

const ExecuteInput = z.object({
  wallet: walletParam,
  chain: chainParam,
  transaction: evmTx.optional().describe("One EVM transaction {to, value, data} from the wallet."),
  calls: z.array(evmTx).optional().describe("EVM calls executed together, all or nothing (one transaction through the wallet's EIP-7702 batch executor)."),
  solanaTransaction: z.string().optional().describe("Base64 serialized Solana transaction, legacy or v0 (Solana wallets): fee payer the wallet, no other signer; it is decoded and re-signed with a fresh blockhash."),
  starknetCalls: z
    .array(z.record(z.string(), z.unknown()))
    .optional()
    .describe("Starknet calls {contractAddress, entrypoint, calldata: felts as 0x hex or decimal strings, u256 as low, high} executed as one multicall, all or nothing (Starknet wallets)."),
  starknetProof: z.record(z.string(), z.unknown()).optional().describe("STRK20 proof {facts, data}; only for the privacy pool's apply_actions."),
  note: noteParam,
});

const ListInput = z.object({
  wallet: walletParam.optional().describe("Only this wallet's proposals (id or name)."),
  status: ProposalStatusSchema.optional().describe("Only proposals in this status."),
  limit: z.number().int().min(1).max(50).optional().describe("1 to 50, default 20. Newest first."),
});

const GetInput = z.object({ id: z.string().min(1).max(100).describe("The proposal's txId (prop_...).") });

/** SPEC 4.12 reply: verdict, reasoning, simulation line, outcome, proof, ids, balance, then the JSON. */
export function proposalText(r: ProposalResult): string {
  const outcome =
    r.status === "executed"
      ? `Executed: ${r.txHash}${r.explorerUrl ? ` (${r.explorerUrl})` : ""}.`
      : r.status === "awaiting_user"
        ? `Held for the owner: approve or reject at ${r.approvalUrl} before ${r.approvalExpiresAt}. Funds have not moved.`
        : r.status === "executing"
          ? "Executing: signed and sent; no receipt yet. Check get_escrow_transaction for the outcome."
          : r.status === "failed"
            ? `Not executed: execution failed (${r.error ?? "unknown error"}).`
            : "Not executed: funds have not moved.";
  const proof = r.proof as { judge?: string; transcriptRoot?: string; transcriptUri?: string } | null;
  return [
    `Verdict: ${r.verdict ?? "none"}${r.verdict === "BLOCK" && !r.scanId ? " (wallet limits refused it before the judge ran; no credit charged)" : ""}`,
    `Reasoning: ${r.reasoning || "none"}`,
    `Simulation: ${r.simulation ? simulationSummary(r.simulation) : "none"}`,
    outcome,
    proof ? `Proof: signed by judge ${short(proof.judge)} over transcript root ${short(proof.transcriptRoot)}; verification ${r.scanId} (${proof.transcriptUri}).` : "Proof: none (no judge ran).",
    `Transaction id: ${r.txId} (status ${r.status}; requestHash ${short(r.requestHash)})`,
    `Credits remaining: ${r.creditsRemaining ?? "unchanged (no credit charged)"}`,
  ].join("\n");
}

async function runProposal(ctx: ToolContext, wallet: string, input: Record<string, unknown>, note: string | undefined) {
  const req = parseProposeBody({ input, note });
  let r: ProposalResult;
  try {
    r = await ctx.services.proposals.propose(ctx.principal, wallet, req, "mcp");
  } catch (err) {
    // SPEC 7: every failure of a proposal is propose_failed; the message says why (and the txId when recorded).
    if (err instanceof ServiceError && err.kind !== "not_found" && err.kind !== "unauthenticated" && err.error !== "propose_failed") {
      throw new ServiceError(err.kind, "propose_failed", err.detail ?? err.error, { extra: err.extra });
    }
    throw err;
  }
  return ok(proposalText(r), r as unknown as Record<string, unknown>);
}

const chainFields = (chain: string) => (chain.includes(":") ? { caip2: chain } : { chain });

export const escrowTransferTool = defineTool({
  name: "escrow_transfer",
  title: "Propose a transfer from an escrow wallet",
  description:
    "Proposal: sends a named asset in whole units. Simulated, checked against the wallet's limits (free refusal) and judged against its mandate (one credit). An autonomous wallet executes an ALLOW with a clean simulation; everything else waits for the owner, and so does every named transfer from a Solana wallet. Only a status of executed means funds moved.",
  inputSchema: TransferInput,
  annotations: { title: "Escrow transfer", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  scope: "wallet",
  requiresEscrow: true,
  handler: (a, ctx) => runProposal(ctx, a.wallet, { kind: "transfer", ...chainFields(a.chain), transfer: { asset: a.asset, amount: a.amount, to: a.to } }, a.note),
});

export const escrowExecuteTool = defineTool({
  name: "escrow_execute",
  title: "Propose raw transactions from an escrow wallet",
  description:
    "Proposal: exactly one of transaction (one EVM call), calls (EVM calls executed together, all or nothing), solanaTransaction or starknetCalls. Simulated, checked against the limits (free refusal), judged against the mandate (one credit); executes on an autonomous wallet only on ALLOW with a clean simulation.",
  inputSchema: ExecuteInput,
  annotations: { title: "Escrow execute", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  scope: "wallet",
  requiresEscrow: true,
  async handler(a, ctx) {
    const given = (["transaction", "calls", "solanaTransaction", "starknetCalls"] as const).filter((k) => a[k] !== undefined);
    if (given.length !== 1) throw new ServiceError("invalid_input", "invalid_input", "send exactly one of transaction, calls, solanaTransaction, starknetCalls");
    const c = chainFields(a.chain);
    const input =
      given[0] === "transaction"
        ? { kind: "evm_transaction", ...c, transaction: a.transaction }
        : given[0] === "calls"
          ? { kind: "evm_calls", ...c, calls: a.calls }
          : given[0] === "solanaTransaction"
            ? { kind: "solana_transaction", ...c, transaction: a.solanaTransaction }
            : { kind: "starknet_calls", ...c, calls: a.starknetCalls, ...(a.starknetProof ? { proof: a.starknetProof } : {}) };
    return runProposal(ctx, a.wallet, input, a.note);
  },
});

export const listEscrowTransactionsTool = defineTool({
  name: "list_escrow_transactions",
  title: "List escrow proposals",
  description: "Free. The account's proposals, newest first, optionally for one wallet or one status; find a proposal here after a client-side timeout.",
  inputSchema: ListInput,
  annotations: { title: "List escrow transactions", readOnlyHint: true, openWorldHint: false },
  scope: "wallet",
  requiresEscrow: true,
  async handler(a, ctx) {
    const rows = await ctx.services.proposals.list(ctx.principal, { wallet: a.wallet, status: a.status, limit: a.limit ?? 20 });
    const transactions = rows.map((p) => ({
      id: p.id,
      walletId: p.walletId,
      status: p.status,
      verdict: p.verdict,
      summary: p.summary,
      explorerUrl: p.explorerUrl,
      ...(p.status === "awaiting_user" ? { approvalUrl: p.approvalUrl, approvalExpiresAt: p.approvalExpiresAt } : {}),
      error: p.error,
      createdAt: p.createdAt,
    }));
    const text = transactions.length
      ? [`${transactions.length} proposal${transactions.length === 1 ? "" : "s"}, newest first:`, ...transactions.map((t) => `- ${t.id} ${t.status}${t.verdict ? ` (${t.verdict})` : ""}: ${t.summary} [${t.createdAt}]`)].join("\n")
      : "No proposals match.";
    return ok(text, { transactions });
  },
});

export const getEscrowTransactionTool = defineTool({
  name: "get_escrow_transaction",
  title: "Get an escrow proposal",
  description: "Free. One proposal's status, verdict, transaction hash and explorer link once executed, approval link while it waits for the owner, and error.",
  inputSchema: GetInput,
  annotations: { title: "Get escrow transaction", readOnlyHint: true, openWorldHint: false },
  scope: "wallet",
  requiresEscrow: true,
  async handler(a, ctx) {
    const d = await ctx.services.proposals.detail(ctx.principal, a.id);
    const data = { id: d.id, walletId: d.walletId, status: d.status, verdict: d.verdict, txHash: d.txHash, explorerUrl: d.explorerUrl, approvalUrl: d.approvalUrl, error: d.error, createdAt: d.createdAt, updatedAt: d.updatedAt };
    const text = [
      `Proposal ${d.id} on wallet ${d.walletId}: ${d.status}${d.verdict ? ` (verdict ${d.verdict})` : ""}. ${d.summary}`,
      d.txHash ? `Transaction: ${d.txHash}${d.explorerUrl ? ` (${d.explorerUrl})` : ""}` : d.approvalUrl ? `Waiting for the owner: ${d.approvalUrl} (until ${d.approvalExpiresAt})` : "No transaction on chain.",
      ...(d.error ? [`Error: ${d.error}`] : []),
    ].join("\n");
    return ok(text, data);
  },
});

export const PROPOSAL_TOOLS = [escrowTransferTool, escrowExecuteTool, listEscrowTransactionsTool, getEscrowTransactionTool];
