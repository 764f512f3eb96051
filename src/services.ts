import type { AccountsService } from "./accounts/service";
import type { CreditsService } from "./credits/service";
import type { HeartbeatService } from "./heartbeats/service";
import type { VerificationService } from "./verification/service";
import type { WalletsService } from "./wallets/service";
import type { ProposalsService } from "./proposals/service";
import type { TopupService } from "./credits/topup";
import type { OAuthService } from "./oauth/service";
import type { EmbeddedCustody } from "./wallets/custody/embedded-service";
import type { EndpointService } from "./webhooks/endpoints";
import type { InsightsService } from "./insights/service";
import type { SandboxSelfService } from "./sandbox/self-service";
import type { Strk20Service } from "./strk20/service";

/** The service verbs the transports (HTTP, MCP, dashboard) may call. Built in deps.ts. */
export interface Services {
  accounts: AccountsService;
  credits: CreditsService;
  verification: VerificationService;
  heartbeats: HeartbeatService;
  /** Escrow wallets (src/wallets) and their proposals (src/proposals); built in src/wallets/escrow.ts. */
  wallets: WalletsService;
  proposals: ProposalsService;
  /** Credit top-ups over x402 (src/credits/topup); `enabled` is false when the deployment has no rails. */
  topup: TopupService;
  /** OAuth 2.1 authorization server for the MCP endpoint (src/oauth, docs/oauth.md). */
  oauth: OAuthService;
  /** Self-custodial (embedded) safe wallets: SIWE connection and owner-signed confirmations (dashboard only). */
  embedded: EmbeddedCustody;
  /** The owner's webhook endpoints, their delivery log and the low-credit threshold (src/webhooks). */
  webhooks: EndpointService;
  /** Time series for the dashboard's charts (src/insights). */
  insights: InsightsService;
  /** STRK20 private actions for Starknet wallets (src/strk20, docs/strk20.md); unavailable without a pool and prover. */
  strk20: Strk20Service;
  /** Sandbox only (null otherwise): credits over the real x402 path paid from the faucet, and wallet funding. */
  sandbox?: SandboxSelfService | null;
}
