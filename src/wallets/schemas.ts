/**
 * Request shapes of the wallet API (SPEC 4.6-4.8, 4.12). One schema per shape: validation, types,
 * OpenAPI and MCP input. Error texts follow SPEC 7: `name is required`, a chain or mode message, else
 * `create_failed` with the reason.
 */
import { z } from "zod";
import { LimitsInput, LimitsPatch } from "./limits";

export const WALLET_NAME_MAX = 64;
export const MANDATE_MAX = 4000;

export const CHAIN_MESSAGE = "chain must be one of base, solana, starknet (or send chainType: ethereum, solana, starknet)";
export const MODE_MESSAGE = "mode must be autonomous or safe";

export const CreateWalletRequest = z.object({
  name: z
    .string({ error: "name is required" })
    .refine((s) => s.trim().length > 0, { message: "name is required" })
    .describe("Unique per account; 1 to 64 characters; usable in place of the id."),
  chain: z.enum(["base", "solana", "starknet"], { error: CHAIN_MESSAGE }).optional().describe("base, solana or starknet. Required unless chainType is sent."),
  chainType: z.enum(["ethereum", "solana", "starknet"], { error: CHAIN_MESSAGE }).optional().describe("Alternative to chain; ethereum creates a Base wallet."),
  mode: z.enum(["autonomous", "safe"], { error: MODE_MESSAGE }).describe("autonomous executes an ALLOW whose simulation is clean; safe holds every proposal for the owner. Fixed at creation."),
  mandate: z.string().max(MANDATE_MAX).nullable().optional().describe("Plain-language rules the judge checks every proposal against."),
  limits: z.unknown().optional().describe("Optional hard limits checked before the judge: maxPerTxUsd, dailyCapUsd (0.01 to 1e9 USD), tokenAllowlist, recipientAllowlist."),
});
export type CreateWalletRequest = z.infer<typeof CreateWalletRequest>;

/** What the create verb takes once the transport resolved `chainType`. */
export interface CreateWalletInput {
  name: string;
  chain: "base" | "solana" | "starknet";
  mode: "autonomous" | "safe";
  mandate?: string | null;
  /** Validated by the verb (LimitsInput), so a bad limit answers `create_failed` with the reason. */
  limits?: unknown;
}

export function resolveChain(body: { chain?: "base" | "solana" | "starknet"; chainType?: "ethereum" | "solana" | "starknet" }): "base" | "solana" | "starknet" | null {
  const fromType = body.chainType === "ethereum" ? "base" : body.chainType;
  if (body.chain && fromType && body.chain !== fromType) return null;
  return body.chain ?? fromType ?? null;
}

export const UpdateWalletInput = z.object({
  name: z.string().trim().min(1).max(WALLET_NAME_MAX).optional(),
  mandate: z.string().max(MANDATE_MAX).optional(),
  limits: LimitsPatch.optional(),
});
export type UpdateWalletInput = z.infer<typeof UpdateWalletInput>;

export { LimitsInput, LimitsPatch };
