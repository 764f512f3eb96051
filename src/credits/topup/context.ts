/** What the top-up verbs share: settings, the facilitator, the chain reader, the claim store. Built in service.ts. */
import type { Logger } from "pino";
import type { Clock } from "../../lib/clock";
import type { Metrics } from "../../observability/metrics";
import type { Facilitator } from "../../x402";
import type { ClaimStore } from "./claims";
import type { ChainEvidence } from "./evidence";
import type { TopupSettings } from "./terms";

export interface TopupContext {
  settings: TopupSettings;
  facilitator: Facilitator;
  evidence: ChainEvidence;
  claims: ClaimStore;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  balanceOf(accountId: string): Promise<number>;
  /** Addresses the facilitator settles from (lowercase), to recognise its own transactions on chain. */
  facilitatorSigners(): Promise<ReadonlySet<string>>;
  /** How long a request waits for a concurrent request holding the same authorization. */
  waitForClaimMs: number;
  pollMs: number;
}
