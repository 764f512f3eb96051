import type { McpToolDefinition } from "../types";
import { checkConnectionTool } from "./account";
import { getVerificationTool, verifyIntentTool } from "./verification";

/**
 * The tools every deployment offers. Other capabilities register theirs on `runtime.mcpTools` in
 * createRuntime (src/deps.ts), one file per area under src/mcp/tools/:
 *   - topup.ts      `topup_credits`, scope "mcp", requiresEscrow false, registered when top-ups are enabled;
 *                   reads `ctx.meta["x402/payment"]` and returns `_meta["x402/payment-response"]` /
 *                   `_meta["x402/payment-required"]` on its result.
 *   - wallets.ts, proposals.ts, strk20.ts: scope "wallet" (except `strk20_relay_status`: "mcp"),
 *                   requiresEscrow true; proposal tools `destructiveHint: true`, read-only ones
 *                   `readOnlyHint: true`, `update_escrow_wallet` `idempotentHint: true`.
 */
export const CORE_TOOLS: readonly McpToolDefinition[] = [verifyIntentTool, getVerificationTool, checkConnectionTool];
