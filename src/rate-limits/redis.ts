/**
 * Token buckets in Redis (RATE_LIMIT_STORE=redis, REDIS_URL): one Lua script per take, atomic in Redis and
 * on Redis's clock, so every process shares one exact budget. A bucket's key expires once it would be full
 * again (an absent key is a full bucket): memory stays bounded without a sweep.
 */
import { Redis } from "ioredis";
import { bucketShape, decision, type BucketShape, type RateLimiter } from "./types";

const TAKE = `
local cap = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local b = redis.call('HMGET', KEYS[1], 't', 'a')
local tokens = cap
if b[1] then tokens = math.min(cap, tonumber(b[1]) + (now - tonumber(b[2])) * per_ms) end
local ok = 0
if tokens >= n then
  tokens = tokens - n
  ok = 1
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'a', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((cap - tokens) / per_ms) + 1000)
return {ok, tostring(tokens)}
`;

export function redisRateLimiter(opts: BucketShape & { url: string; prefix?: string }): RateLimiter {
  const { capacity, perMs } = bucketShape(opts);
  const redis = new Redis(opts.url, { lazyConnect: false, enableOfflineQueue: true, maxRetriesPerRequest: 1 });
  // Connection errors surface on the commands that fail (the middleware logs them); without a listener
  // ioredis would print each reconnect attempt's error.
  redis.on("error", () => {});
  redis.defineCommand("arbiterRateTake", { numberOfKeys: 1, lua: TAKE });
  const prefix = opts.prefix ?? "arbiter:rate:";
  type WithTake = Redis & { arbiterRateTake(key: string, cap: number, perMs: number, n: number): Promise<[number, string]> };
  return {
    store: "redis",
    async take(key, n = 1) {
      const [ok, tokens] = await (redis as WithTake).arbiterRateTake(prefix + key, capacity, perMs, n);
      return decision(ok === 1, Number(tokens), n, perMs, capacity);
    },
    async close() {
      redis.disconnect();
    },
  };
}
