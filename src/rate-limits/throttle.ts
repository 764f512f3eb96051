import { sql } from "kysely";
import type { Database } from "../db/client";
import type { Clock } from "../lib/clock";

/**
 * Failed-attempt counting in the database (works across processes sharing PostgreSQL). A bucket names what
 * is limited: `signin:email:<email>`, `signin:ip:<ip>`, `signup:ip:<ip>`, `claim:ip:<ip>`.
 */
export const THROTTLE_WINDOW_MS = 15 * 60_000;

export const LIMITS = {
  signinPerEmail: 8,
  signinPerIp: 40,
  /** Sign-ups count every attempt, not only failures: each one creates an account. */
  signupPerIp: 10,
  claimPerIp: 20,
} as const;

export function createThrottle({ db, clock }: { db: Database; clock: Clock }) {
  const since = () => new Date(clock.now().getTime() - THROTTLE_WINDOW_MS);
  return {
    /** True when any of the buckets has reached its limit within the window. */
    async exceeded(checks: { bucket: string; limit: number }[]): Promise<boolean> {
      for (const { bucket, limit } of checks) {
        const row = await db
          .selectFrom("auth_failures")
          .select(sql<number>`count(*)::int`.as("n"))
          .where("bucket", "=", bucket)
          .where("created_at", ">", since())
          .executeTakeFirstOrThrow();
        if (row.n >= limit) return true;
      }
      return false;
    },

    async record(...buckets: string[]): Promise<void> {
      if (!buckets.length) return;
      const now = clock.now();
      await db.insertInto("auth_failures").values(buckets.map((bucket) => ({ bucket, created_at: now }))).execute();
      // Old rows are kept no longer than a day; trimming here needs no background job.
      await db.deleteFrom("auth_failures").where("created_at", "<", new Date(now.getTime() - 24 * 3600_000)).execute();
    },

    /** A successful sign-in clears the failures counted against that email. */
    async clear(bucket: string): Promise<void> {
      await db.deleteFrom("auth_failures").where("bucket", "=", bucket).execute();
    },
  };
}
export type Throttle = ReturnType<typeof createThrottle>;
