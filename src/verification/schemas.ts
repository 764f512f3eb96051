import { z } from "zod";
import { ACTION_FAMILIES } from "../venues/types";

/**
 * Wire shapes of the verification API (SPEC 2.1, 2.2, 4.1, 4.2). One schema per shape: used for
 * validation, TypeScript types, the OpenAPI document and the MCP tool input.
 */
export const ReferenceInput = z.object({ source: z.string().optional(), excerpt: z.string() });

/**
 * A Starknet multicall as the labelled cases and starknet.js write it: an array of calls, each naming its
 * contract and entry point. It is the one native payload that is an array; any other array is refused
 * before a credit is taken (docs/decisions.md).
 */
const isCall = (c: Record<string, unknown>) =>
  ["contractAddress", "contract_address", "to"].some((k) => typeof c[k] === "string") && ["entrypoint", "entry_point", "entry_point_selector", "selector"].some((k) => typeof c[k] === "string");
const NOT_AN_ARRAY = "must be a non-empty string or a JSON object; the only array accepted is a Starknet multicall (calls with contractAddress and entrypoint)";
const MulticallAction = z
  .array(z.record(z.string(), z.unknown()), { error: NOT_AN_ARRAY })
  .min(1, { error: NOT_AN_ARRAY })
  .max(64, { error: "a Starknet multicall has at most 64 calls" })
  .refine((calls) => calls.every(isCall), { message: NOT_AN_ARRAY });

export const VerifyRequest = z.object({
  intent: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? "intent is required" : "must be a string (the owner's rules in plain language)") })
    .refine((s) => s.trim().length > 0, { message: "intent is required" }).describe("The owner's rules, in plain language."),
  action: z
    .union([z.string(), z.record(z.string(), z.unknown()), MulticallAction], {
      error: (iss) =>
        iss.input === undefined || iss.input === null
          ? "action is required"
          : Array.isArray(iss.input)
            ? NOT_AN_ARRAY
            : "must be a non-empty string or a JSON object",
    })
    .refine((a) => (typeof a === "string" ? a.trim().length > 0 : true), { message: "action is required" })
    .describe("The proposed action: a plain-English string, or the venue's native payload as an object."),
  venue: z.string().max(200).optional().describe("Adapter selector (e.g. hyperliquid, evm, solana). Unknown values are ignored."),
  context: z.record(z.string(), z.unknown()).optional().describe("Facts for the judge (prices, positions, counters). `reference` {source?, excerpt} is shown as untrusted background."),
  preset: z.string().max(100).optional().describe("Judge prompt: generic (default), trading, payments, escrow. Unknown values fall back to generic."),
});
export type VerifyRequest = z.infer<typeof VerifyRequest>;

/**
 * SPEC 4.1/7 sentences for a missing or blank intent or action; any other problem with them (a number for
 * `intent`, an array for `action`) is invalid_input naming the field. Shared by HTTP and MCP.
 */
export function verifyRequestIssue(issue: { path: PropertyKey[]; message: string }): { error: string; message?: string } | null {
  const field = issue.path[0];
  if ((field === "intent" || field === "action") && issue.message === `${field} is required`) return { error: `${field} is required` };
  if (field === "intent" || field === "action") return { error: "invalid_input", message: `${field}: ${issue.message}` };
  return null;
}

export const Verdict = z.enum(["ALLOW", "BLOCK", "ESCALATE"]).nullable();

/** Receipt fields common to every view of a proof (SPEC 2.2). */
const ProofCore = z.object({
  transcriptRoot: z.string(),
  outputHash: z.string(),
  signature: z.string(),
  judge: z.string(),
  attested: z.boolean(),
  anchorTx: z.string().nullable(),
});

/** The POST response and escrow results carry `anchorVerified` and links. */
export const ProofPost = ProofCore.extend({
  anchorVerified: z.boolean(),
  transcriptUri: z.string(),
  explorerTx: z.string().nullable(),
});

/** The HTTP GET carries `anchorStatus` in place of `anchorVerified`, and no links. */
export const ProofGet = ProofCore.extend({
  anchorStatus: z.enum(["verified", "pending", "skipped"]),
});

export const VerificationResult = z.object({
  id: z.string().uuid(),
  requestHash: z.string(),
  status: z.literal("COMPLETED"),
  verdict: Verdict,
  reasoning: z.string().nullable(),
  mode: z.enum(["structured", "semantic"]),
  venue: z.string().nullable(),
  actionFamily: z.enum(ACTION_FAMILIES).nullable(),
  actionType: z.string().nullable(),
  proof: ProofPost,
  creditsRemaining: z.number().int(),
});
export type VerificationResult = z.infer<typeof VerificationResult>;

export const StoredVerification = z.object({
  id: z.string().uuid(),
  requestHash: z.string(),
  status: z.literal("COMPLETED"),
  verdict: Verdict,
  reasoning: z.string().nullable(),
  proof: ProofGet,
  createdAt: z.string(),
});
export type StoredVerification = z.infer<typeof StoredVerification>;
