import type { AccountsService } from "./accounts/service";
import type { CreditsService } from "./credits/service";
import type { HeartbeatService } from "./heartbeats/service";
import type { VerificationService } from "./verification/service";

/** The service verbs the transports (HTTP, MCP, dashboard) may call. Built in deps.ts. */
export interface Services {
  accounts: AccountsService;
  credits: CreditsService;
  verification: VerificationService;
  heartbeats: HeartbeatService;
}
