import type { Config } from "../config";
import type { DatabaseHandle } from "../db/client";
import { memoryRateLimiter } from "./memory";
import { postgresRateLimiter } from "./postgres";
import { redisRateLimiter } from "./redis";
import type { RateLimiter } from "./types";

export type { RateLimiter, RateDecision } from "./types";

/** The limiter RATE_LIMIT_STORE names, with the bucket shape of RATE_LIMIT_PER_MINUTE and RATE_LIMIT_BURST. */
export function createRateLimitStore(config: Pick<Config, "RATE_LIMIT_STORE" | "RATE_LIMIT_PER_MINUTE" | "RATE_LIMIT_BURST" | "REDIS_URL">, database: DatabaseHandle): RateLimiter {
  const shape = { perMinute: config.RATE_LIMIT_PER_MINUTE, burst: config.RATE_LIMIT_BURST };
  if (!config.RATE_LIMIT_PER_MINUTE) return memoryRateLimiter(shape); // limiting is off: no connection to open
  if (config.RATE_LIMIT_STORE === "postgres") return postgresRateLimiter({ ...shape, db: database.db, pipelined: database.pipelined });
  if (config.RATE_LIMIT_STORE === "redis") return redisRateLimiter({ ...shape, url: config.REDIS_URL! });
  return memoryRateLimiter(shape);
}
