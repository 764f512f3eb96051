import type { Logger } from "pino";
import type { Principal } from "../accounts/principal";
import type { Services } from "../services";

export interface AppEnv {
  Variables: {
    principal: Principal;
    /** Set on /api/mcp when rate limiting is on: takes up to `n` tokens (src/http/rate-limit.ts). */
    rateShare?: (n: number) => Promise<{ granted: number; retryAfterSeconds: number; message: string }>;
  };
}

/** What every route module receives: the service verbs, a logger and the public URL. */
export interface RouteDeps {
  services: Services;
  logger: Logger;
  publicUrl: string;
  /** BODY_LIMIT_BYTES: what a body may hold besides a STRK20 proof (src/http/body-limit.ts holdToLimit). */
  bodyLimitBytes: number;
}
