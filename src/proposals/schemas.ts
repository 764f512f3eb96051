/**
 * Proposal inputs (SPEC 4.9). The route validates shape here (a failure is `invalid_input` naming the
 * field); the propose verb then refuses what is well-formed but not allowed (wrong chain, unsupported
 * asset or kind, `from` not the wallet, fee fields above 1 ETH: `propose_failed`).
 */
import { z } from "zod";
import { ServiceError } from "../lib/errors";
import { addressSchema, evmKindAddressSchema, symbolOrAddressSchema } from "../chains/codecs";
import { PROPOSAL_STATUSES, PROPOSE_STATUSES } from "./state";

export const NOTE_MAX = 2000;
export const MAX_BATCH_CALLS = 20;
/** 100 KB of calldata per call: far above any real call, far below the body limit. */
const MAX_DATA_HEX = 200_002;

const address = addressSchema();
const evmAddress = evmKindAddressSchema();
const hexData = z
  .string()
  .regex(/^0x(?:[0-9a-fA-F]{2})*$/, "must be 0x-prefixed hex bytes")
  .max(MAX_DATA_HEX, "calldata too long");
/** Wei: a decimal integer string, a 0x hex string, or a safe integer. */
export const weiValue = z.union([
  z.string().regex(/^(?:\d{1,78}|0x[0-9a-fA-F]{1,64})$/, "must be wei as a decimal integer or 0x hex string"),
  z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
]);
const plainAmount = z
  .string({ error: "must be a string of whole units, e.g. \"1.5\"" })
  .regex(/^(?:0|[1-9]\d*)(?:\.\d+)?$/, "must be a plain decimal string (no sign, no exponent)")
  .refine((s) => /[1-9]/.test(s), "must be greater than zero");

const chainFields = {
  caip2: z.string().max(100).optional().describe("eip155:8453 (Base), eip155:1, solana:<genesis>, starknet:SN_MAIN"),
  chain: z.string().max(20).optional().describe("base, ethereum, solana or starknet"),
};

export const TransferInput = z.object({
  kind: z.literal("transfer"),
  ...chainFields,
  transfer: z.object({
    asset: symbolOrAddressSchema().describe("ETH, USDC, WETH, USDT, DAI, cbBTC (or a registry token address)"),
    amount: plainAmount.describe("Whole units, e.g. \"2.5\" USDC"),
    to: address,
  }),
});

export const EvmTransactionInput = z.object({
  kind: z.literal("evm_transaction"),
  ...chainFields,
  transaction: z.object({
    to: evmAddress,
    value: weiValue.optional(),
    data: hexData.optional(),
    from: evmAddress.optional(),
    gas: weiValue.optional(),
    gasLimit: weiValue.optional(),
    gasPrice: weiValue.optional(),
    maxFeePerGas: weiValue.optional(),
    maxPriorityFeePerGas: weiValue.optional(),
  }),
});

export const EvmCall = z.object({ to: evmAddress, data: hexData.optional(), value: weiValue.optional() });

export const EvmCallsInput = z.object({
  kind: z.literal("evm_calls"),
  ...chainFields,
  calls: z.array(EvmCall).min(1, "must hold at least one call").max(MAX_BATCH_CALLS, `at most ${MAX_BATCH_CALLS} calls`),
});

/** Accepted in shape only: a Base wallet refuses them (wrong chain); Solana and Starknet wallets come later. */
export const SolanaTransactionInput = z.object({ kind: z.literal("solana_transaction"), ...chainFields, transaction: z.string().max(1_500_000) });
export const StarknetCallsInput = z.object({ kind: z.literal("starknet_calls"), ...chainFields, calls: z.array(z.unknown()).max(100), proof: z.unknown().optional() });
export const X402PaymentInput = z.object({ kind: z.literal("x402_payment"), ...chainFields }).passthrough();

export const ProposalInput = z.discriminatedUnion("kind", [TransferInput, EvmTransactionInput, EvmCallsInput, SolanaTransactionInput, StarknetCallsInput, X402PaymentInput]);
export type ProposalInput = z.infer<typeof ProposalInput>;
export type EvmCall = z.infer<typeof EvmCall>;

export const KNOWN_KINDS = ["transfer", "evm_transaction", "evm_calls", "solana_transaction", "starknet_calls", "x402_payment"] as const;

export const ProposeBody = z.object({
  input: z.record(z.string(), z.unknown()),
  note: z.string().optional(),
});

export interface ProposeRequest {
  input: ProposalInput;
  note?: string | null;
}

/** Cut untrusted narration to SPEC's 2,000 characters (never an error). */
export const cutNote = (note: string | null | undefined): string | null => {
  if (typeof note !== "string") return null;
  const t = note.trim();
  return t ? t.slice(0, NOTE_MAX) : null;
};

export const toWei = (v: string | number | undefined): bigint => (v === undefined ? 0n : BigInt(v));

/** Zod forms of the one status list (proposals/state.ts), for every transport's schema. */
export const ProposalStatusSchema = z.enum(PROPOSAL_STATUSES);
export const ProposeStatusSchema = z.enum(PROPOSE_STATUSES);

export const ListProposalsQuery = z.object({
  wallet: z.string().max(100).optional(),
  status: ProposalStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type ListProposalsQuery = z.infer<typeof ListProposalsQuery>;

export const WithdrawRequest = z.object({
  asset: symbolOrAddressSchema(),
  amount: plainAmount,
  to: address,
});
export type WithdrawRequest = z.infer<typeof WithdrawRequest>;

/**
 * Validates a propose body (HTTP) or the input an MCP tool composed. Errors follow SPEC 7: a missing
 * input is `input is required`; a malformed field is `invalid_input` naming it; an unknown kind is
 * `propose_failed` (unsupported kind).
 */
export function parseProposeBody(body: unknown): ProposeRequest {
  const o = body as Record<string, unknown>;
  const input = o.input;
  if (input === undefined || input === null || typeof input !== "object" || Array.isArray(input)) throw new ServiceError("invalid_input", "input is required", "send input: { kind, chain or caip2, ... }");
  if (o.note !== undefined && o.note !== null && typeof o.note !== "string") throw new ServiceError("invalid_input", "invalid_input", "note: must be a string");
  const kind = (input as Record<string, unknown>).kind;
  if (typeof kind !== "string" || kind.trim() === "") throw new ServiceError("invalid_input", "invalid_input", `input.kind: required (one of ${KNOWN_KINDS.join(", ")})`);
  if (!(KNOWN_KINDS as readonly string[]).includes(kind)) throw new ServiceError("invalid_input", "propose_failed", `unsupported kind "${kind.slice(0, 40)}": use one of ${KNOWN_KINDS.join(", ")}`);
  const parsed = ProposalInput.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ServiceError("invalid_input", "invalid_input", `input.${issue.path.join(".")}: ${issue.message}`);
  }
  const i = parsed.data;
  if (i.chain === undefined && i.caip2 === undefined) throw new ServiceError("invalid_input", "invalid_input", "input.chain or input.caip2 is required (base or eip155:8453 for a Base wallet)");
  return { input: i, note: typeof o.note === "string" ? o.note : null };
}
