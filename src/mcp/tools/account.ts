import { z } from "zod";
import { defineTool } from "../types";
import { ok } from "../results";

const NoInput = z.object({});

/** check_connection (SPEC 4.12): lets an agent confirm its credential, balance and what it can reach. */
export const checkConnectionTool = defineTool({
  name: "check_connection",
  title: "Check the connection to Arbiter",
  description:
    "Free. Confirms that this MCP connection is authenticated and shows which account it uses, how many credits remain, how it authenticated (api_key or oauth) and whether escrow wallet tools are usable. Call it first when setting up, or when another tool reports an authentication or scope problem.",
  inputSchema: NoInput,
  annotations: { title: "Check connection", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  scope: "mcp",
  requiresEscrow: false,
  async handler(_args, ctx) {
    const { principal } = ctx;
    const [account, credits] = await Promise.all([ctx.services.accounts.get(principal.accountId), ctx.services.credits.get(principal)]);
    const authMethod = principal.authMethod === "oauth" ? "oauth" : "api_key";
    // SPEC 4.12: true only when the deployment has escrow wallets AND this credential may use them.
    const escrowTools = ctx.escrowConfigured && principal.scopes.has("wallet");
    const escrowLine = escrowTools
      ? "Escrow wallet tools: available."
      : !ctx.escrowConfigured
        ? "Escrow wallet tools: not available (escrow wallets are not configured on this deployment)."
        : "Escrow wallet tools: not available to this connection (reconnect and approve wallet access to use them).";
    const data = { ok: true, account: principal.accountId, creditsRemaining: credits.creditsRemaining, escrowTools, authMethod };
    const text = [
      `Connected to Arbiter as account ${principal.accountId} (${account.name}) with ${authMethod === "oauth" ? "an OAuth access token" : "an API key"}.`,
      `Credits remaining: ${credits.creditsRemaining}`,
      escrowLine,
    ].join("\n");
    return ok(text, data);
  },
});
