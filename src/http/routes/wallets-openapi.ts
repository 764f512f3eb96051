/** OpenAPI paths of the wallet and proposal routes (SPEC 2.5-2.10, 4.6-4.11), from the same zod schemas. */
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { AUTH_ERRORS, errors, jsonBody, jsonResponse, openApiContributors } from "../openapi";
import { CreateWalletRequest } from "../../wallets/schemas";
import { LimitsInput } from "../../wallets/limits";
import { ListProposalsQuery, ProposalInput, ProposalStatusSchema, ProposeStatusSchema } from "../../proposals/schemas";

const security: Record<string, string[]>[] = [{ apiKey: [] }, { bearer: [] }];
const id = z.object({ id: z.string().describe("Wallet id (wal_...) or name") });

const Wallet = z.object({
  id: z.string(),
  name: z.string(),
  chain: z.enum(["base", "solana", "starknet", "ethereum"]),
  mode: z.enum(["autonomous", "safe"]),
  custody: z.enum(["server", "embedded"]),
  address: z.string(),
  mandate: z.string().nullable(),
  limits: LimitsInput,
  balanceUsd: z.number().nullable(),
  tokenCount: z.number().int(),
  pendingCount: z.number().int(),
  archivedAt: z.string().nullable(),
  createdAt: z.string(),
});
const WalletCreated = Wallet.extend({
  provider: z.string(),
  rules: z.object({
    limits: LimitsInput,
    enforcement: z.record(z.string(), z.enum(["signer", "service", "judge"])),
    whoMayLoosen: z.enum(["agent", "owner"]).describe("agent: a loosening change sent by an agent applies. owner: it waits for the owner's approval in the dashboard (set by the owner)."),
  }),
  explorerAddressUrl: z.string().nullable(),
  gas: z.object({ asset: z.literal("ETH"), note: z.string() }),
  warnings: z.array(z.string()).optional(),
});
const Balance = z.object({
  symbol: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  tokenAddress: z.string().describe("Token contract, or native for ETH"),
  amount: z.string().describe("Base units"),
  amountFormatted: z.string().describe("Whole units"),
  decimals: z.number().int(),
  usdValue: z.number().nullable().describe("Null when no price is known"),
  caip2: z.string(),
});
const Balances = z.object({ walletId: z.string(), name: z.string(), chain: z.string(), address: z.string(), balanceUsd: z.number().nullable(), balances: z.array(Balance), warnings: z.array(z.string()).optional() });
const Change = z.object({
  direction: z.enum(["in", "out"]),
  assetType: z.enum(["native", "erc20", "erc721", "erc1155"]),
  changeType: z.enum(["transfer", "approval", "approval_for_all"]),
  symbol: z.string(),
  name: z.string(),
  contractAddress: z.string(),
  rawAmount: z.string(),
  decimals: z.number().int(),
  amount: z.string(),
  usdValue: z.number().nullable(),
  counterparty: z.string(),
  logoUrl: z.string().nullable(),
  unlimited: z.boolean().optional(),
});
const Simulation = z.object({
  ok: z.boolean(),
  status: z.enum(["clean", "reverted", "unavailable"]),
  declared: z.boolean().describe("True when the changes come from the input because the chain could not simulate"),
  wouldRevert: z.boolean(),
  error: z.string(),
  caip2: z.string(),
  changes: z.array(Change),
  totalUsdOut: z.number(),
  totalUsdIn: z.number(),
  gasUsed: z.string(),
  logsExcerpt: z.array(z.string()),
  warnings: z.array(z.string()),
  simulatedAt: z.string(),
  provider: z.string(),
});
const ProposalResult = z.object({
  txId: z.string(),
  status: ProposeStatusSchema,
  verdict: z.enum(["ALLOW", "BLOCK", "ESCALATE"]).nullable(),
  reasoning: z.string(),
  requestHash: z.string(),
  simulation: Simulation.nullable(),
  approvalUrl: z.string().optional(),
  approvalExpiresAt: z.string().optional(),
  txHash: z.string().optional(),
  explorerUrl: z.string().optional(),
  scanId: z.string().nullable(),
  creditsRemaining: z.number().int().nullable(),
  proof: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().optional(),
});
const ProposalStatus = z.object({
  id: z.string(),
  status: ProposalStatusSchema,
  verdict: z.enum(["ALLOW", "BLOCK", "ESCALATE"]).nullable(),
  txHash: z.string().nullable(),
  approvalUrl: z.string().nullable(),
  explorerUrl: z.string().nullable(),
});

function walletsOpenApi(r: OpenAPIRegistry) {
  r.registerPath({
    method: "get",
    path: "/api/v1/wallets",
    summary: "List escrow wallets with live balances (free)",
    security,
    request: { query: z.object({ includeArchived: z.enum(["true", "false"]).optional() }) },
    responses: { 200: jsonResponse(z.object({ wallets: z.array(Wallet) }), "Wallets"), ...errors(...AUTH_ERRORS) },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/wallets",
    summary: "Create an escrow wallet (free; 25 live wallets per account)",
    security,
    request: jsonBody(CreateWalletRequest),
    responses: {
      201: jsonResponse(WalletCreated, "The wallet, its rules and gas guidance"),
      ...errors([400, "invalid JSON body | name is required | chain or mode message | create_failed"], ...AUTH_ERRORS, [503, "escrow_unconfigured"]),
    },
  });
  r.registerPath({ method: "get", path: "/api/v1/wallets/{id}", summary: "One wallet (free)", security, request: { params: id }, responses: { 200: jsonResponse(WalletCreated, "The wallet"), ...errors(...AUTH_ERRORS, [404, "not_found"]) } });
  r.registerPath({
    method: "get",
    path: "/api/v1/wallets/{id}/balances",
    summary: "Live balances: ETH and known tokens (free)",
    security,
    request: { params: id },
    responses: { 200: jsonResponse(Balances, "Balances"), ...errors(...AUTH_ERRORS, [404, "not_found"], [502, "chain_unavailable"], [503, "chain_unavailable (no RPC for the wallet's chain)"]) },
  });
  r.registerPath({
    method: "post",
    path: "/api/v1/wallets/{id}/propose",
    summary: "Propose a transaction: simulated, checked against the limits (free refusal), judged (1 credit), executed or held",
    security,
    request: { params: id, ...jsonBody(z.object({ input: ProposalInput, note: z.string().optional().describe("Untrusted narration, cut at 2,000 characters") })) },
    responses: {
      200: jsonResponse(ProposalResult, "The proposal result"),
      ...errors(
        [400, "invalid JSON body | input is required | invalid_input | propose_failed (wrong chain, unsupported asset or kind, from not the wallet, fee fields above 1 ETH)"],
        ...AUTH_ERRORS,
        [402, "propose_failed (out of credits; the proposal is recorded as blocked; txId in the body)"],
        [404, "not_found"],
        [409, "propose_failed (wallet archived)"],
        [500, "propose_failed"],
        [502, "propose_failed (judge failed; credit refunded; recorded as blocked)"],
      ),
    },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/escrow-transactions",
    summary: "List proposals, newest first (free)",
    security,
    request: { query: ListProposalsQuery },
    responses: { 200: jsonResponse(z.object({ transactions: z.array(z.record(z.string(), z.unknown())) }), "Proposals"), ...errors(...AUTH_ERRORS, [404, "not_found (wallet)"]) },
  });
  r.registerPath({
    method: "get",
    path: "/api/v1/escrow-transactions/{txId}",
    summary: "A proposal's status (free)",
    security,
    request: { params: z.object({ txId: z.string() }) },
    responses: { 200: jsonResponse(ProposalStatus, "Status"), ...errors(...AUTH_ERRORS, [404, "not_found"]) },
  });
}
openApiContributors.push(walletsOpenApi);
