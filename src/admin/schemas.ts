import { z } from "zod";

/** Operator API shapes (not in SPEC; the contract in issue 2 that other tools depend on). */
export const CreateAccountRequest = z.object({
  name: z.string().trim().min(1).max(200),
  credits: z.number().int().min(0).max(100_000_000).optional(),
});
export const AdjustCreditsRequest = z.object({
  credits: z.number().int().min(-100_000_000).max(100_000_000).refine((n) => n !== 0, "must not be zero"),
  reason: z.string().trim().min(1).max(200),
});
export const IssueOAuthTokenRequest = z.object({
  scope: z.enum(["mcp", "mcp wallet"]),
  ttlSeconds: z.number().int().min(1).max(30 * 24 * 3600).optional(),
});
