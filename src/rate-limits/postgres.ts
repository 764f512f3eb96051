/**
 * Token buckets in the shared database (RATE_LIMIT_STORE=postgres, migration 011): one statement per take,
 * on the database's clock (processes on several hosts agree on time through it). The upsert's row lock
 * serialises concurrent takes of one key across processes, so the budget is exact. Full buckets are deleted
 * once a minute (an absent row is a full bucket).
 */
import { sql, type CompiledQuery } from "kysely";
import type { Database } from "../db/client";
import type { PipelinedExecutor } from "../db/pglite-dialect";
import { bucketShape, decision, type BucketShape, type RateLimiter } from "./types";

const NOW_MS = sql`extract(epoch from clock_timestamp()) * 1000`;

export function postgresRateLimiter(opts: BucketShape & { db: Database; pipelined?: PipelinedExecutor | null; pruneEveryMs?: number }): RateLimiter {
  const { capacity, perMs } = bucketShape(opts);
  const take = (key: string, n: number): CompiledQuery => {
    const refilled = sql`least(${capacity}::float8, b.tokens + (excluded.at_ms - b.at_ms) * ${perMs}::float8)`;
    return sql`
      insert into rate_limit_buckets as b (key, tokens, at_ms, granted)
      values (${key}, case when ${capacity}::float8 >= ${n}::float8 then ${capacity}::float8 - ${n}::float8 else ${capacity}::float8 end, ${NOW_MS}, ${capacity}::float8 >= ${n}::float8)
      on conflict (key) do update set
        tokens = case when ${refilled} >= ${n}::float8 then ${refilled} - ${n}::float8 else ${refilled} end,
        granted = ${refilled} >= ${n}::float8,
        at_ms = excluded.at_ms
      returning tokens, granted`.compile(opts.db);
  };
  const prune = setInterval(() => {
    void sql`delete from rate_limit_buckets where tokens + (${NOW_MS} - at_ms) * ${perMs}::float8 >= ${capacity}::float8`.execute(opts.db).catch(() => {});
  }, opts.pruneEveryMs ?? 60_000);
  prune.unref();
  return {
    store: "postgres",
    async take(key, n = 1) {
      const q = take(key, n);
      const r = opts.pipelined ? await opts.pipelined(q, { prepareAs: "arbiter_rate_take" }) : await opts.db.executeQuery(q);
      const row = r.rows[0] as { tokens: number; granted: boolean };
      return decision(row.granted, Number(row.tokens), n, perMs, capacity);
    },
    async close() {
      clearInterval(prune);
    },
  };
}
