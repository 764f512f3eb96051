import type { McpToolDefinition } from "./types";

/**
 * The seam through which capabilities add MCP tools. The runtime owns one registry (`runtime.mcpTools`);
 * createRuntime registers the core tools, and each capability registers its own there, e.g.
 *
 *   runtime.mcpTools.register(...walletTools);          // scope "wallet", requiresEscrow: true
 *   if (topupsEnabled) runtime.mcpTools.register(topupCreditsTool);
 *
 * The MCP server is rebuilt per request from this list, so a registration is live on the next request.
 * An instance (not module state) so tests can register a tool without it leaking into production code.
 */
export interface McpToolRegistry {
  /** Adds tools; a duplicate name is a programming error and throws. */
  register(...tools: McpToolDefinition[]): void;
  /** Every registered tool, in registration order (the order tools/list shows). */
  all(): readonly McpToolDefinition[];
  /** The tools this deployment offers: escrow tools only when escrow wallets are configured. */
  available(escrowConfigured: boolean): readonly McpToolDefinition[];
}

export function createMcpToolRegistry(initial: readonly McpToolDefinition[] = []): McpToolRegistry {
  const tools: McpToolDefinition[] = [];
  // Cached per flag: the list is read on every MCP request and changes only on register().
  let cache: { withEscrow: McpToolDefinition[]; withoutEscrow: McpToolDefinition[] } | null = null;

  const registry: McpToolRegistry = {
    register(...defs) {
      for (const def of defs) {
        if (tools.some((t) => t.name === def.name)) throw new Error(`MCP tool ${def.name} is already registered`);
        tools.push(def);
      }
      cache = null;
    },
    all: () => tools,
    available(escrowConfigured) {
      cache ??= { withEscrow: [...tools], withoutEscrow: tools.filter((t) => !t.requiresEscrow) };
      return escrowConfigured ? cache.withEscrow : cache.withoutEscrow;
    },
  };
  registry.register(...initial);
  return registry;
}
