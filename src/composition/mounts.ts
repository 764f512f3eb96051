/**
 * What the HTTP app serves besides the core API (src/http/app.ts), in mount order: MCP, OAuth, the judge's
 * identity document, the dashboard, wallets and swaps, the sandbox explorers, top-ups; and the admin mounts
 * (claim links, wallet admin, the sandbox faucets). The composition root (src/deps.ts) hands in what it built.
 */
import type { AppOptions } from "../http/app";
import type { Services } from "../services";
import type { TopupService } from "../credits/topup";
import type { OAuthService } from "../oauth/service";
import type { JudgeDocument } from "../receipts/judge-identity";
import type { McpToolRegistry } from "../mcp/registry";
import type { DashboardAuth } from "../dashboard/auth/service";
import type { createTrading } from "../swaps/wiring";
import type { WiredChains } from "./chains";
import { judgeIdentityMount } from "../http/routes/judge-identity";
import { mcpMount } from "../mcp/routes";
import { dashboardMount } from "../dashboard";
import { claimLinkAdminMount } from "../dashboard/admin";
import { explorerHtmlPages } from "../dashboard/explorer-page";
import { sandboxExplorerRoutes, walletAdminMount, walletRoutes } from "../http/routes/wallets";
import { topupMount } from "../http/routes/topup";
import { sandboxAdminMount } from "../http/routes/sandbox-admin";
import { solanaExplorerRoutes } from "../http/routes/solana-explorer";
import { swapRoutes } from "../http/routes/swap";
import { oauthMount } from "../http/routes/oauth";
import { starknetExplorerView } from "../chains/starknet/explorer-view";
import { evmExplorerView } from "../chains/evm/explorer";
import { solanaExplorerView } from "../chains/solana/explorer-view";

export interface MountInputs {
  publicUrl: string;
  services: Services;
  topup: TopupService;
  oauth: OAuthService;
  dashboardAuth: DashboardAuth;
  judgeAddress: string;
  judgeDocument: JudgeDocument;
  trading: ReturnType<typeof createTrading>;
  chains: Pick<WiredChains, "chain" | "solana" | "starknet">;
  /** Read at request time: capabilities register tools and set escrowConfigured after the app is built. */
  mcp: { tools: McpToolRegistry; escrowConfigured: () => boolean };
}

export function appMounts(m: MountInputs): Required<Pick<AppOptions, "mounts" | "adminMounts">> {
  const { chain, solana, starknet } = m.chains;
  return {
    mounts: [
      mcpMount(m.mcp),
      oauthMount(m.oauth),
      judgeIdentityMount(() => m.judgeDocument),
      dashboardMount({ auth: m.dashboardAuth, judgeAddress: m.judgeAddress }),
      (app, deps) => app.route("/api/v1", walletRoutes(deps)),
      (app, deps) => void app.route("/api/v1", swapRoutes(deps, m.trading.swaps)),
      // Before the explorer routes, so their JSON answers become readable pages for browsers.
      (app) => void app.use("/sandbox/explorer/*", explorerHtmlPages()),
      (app) => void (solana?.sandbox && app.route("/sandbox/explorer/solana", solanaExplorerRoutes(solanaExplorerView(solana.adapter)))),
      (app) => void (starknet?.sandbox && app.route("/sandbox/explorer/starknet", sandboxExplorerRoutes(starknetExplorerView(starknet.adapter), "the Starknet sandbox node"))),
      (app) => void (chain?.sandbox && app.route("/sandbox/explorer", sandboxExplorerRoutes(evmExplorerView(chain.base)))),
      topupMount(),
    ],
    adminMounts: [
      claimLinkAdminMount(m.dashboardAuth, m.publicUrl),
      walletAdminMount(m.services),
      ...(chain?.sandbox
        ? [sandboxAdminMount({ sandbox: chain.sandbox, topup: m.topup, solana: solana?.sandbox ? { describe: solana.describe, fund: (r) => solana.sandbox!.faucet.fund(r) } : null, starknet })]
        : []),
    ],
  };
}
