import path from "node:path";
import { z } from "zod";
import { parseTrustedProxies } from "./lib/client-ip";

/**
 * Every setting comes from the environment and is validated once here; a bad value stops start-up with a
 * message naming the variable. Nothing else reads process.env.
 */
const bool = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"])
  .transform((v) => ["true", "1", "yes", "on"].includes(v));

const optionalUrl = z.string().url().optional();

const EnvSchema = z.object({
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  /**
   * Where the change feed (cache invalidation, src/db/change-feed.ts) LISTENs: a direct connection to the
   * same database when DATABASE_URL goes through a pooler that cannot LISTEN (PgBouncer in transaction mode).
   * Default: DATABASE_URL.
   */
  DATABASE_LISTEN_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  /** The change feed's heartbeat: it is declared stalled (caches read through) after 3 missed beats. */
  CHANGE_FEED_HEARTBEAT_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
  /** PostgreSQL schema to use (tests and CI isolate runs with it). */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a lowercase SQL identifier")
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ADMIN_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),

  JUDGE_PROVIDER: z.enum(["rules", "openai", "anthropic"]).default("rules"),
  JUDGE_BASE_URL: optionalUrl,
  JUDGE_MODEL: z.string().min(1).optional(),
  JUDGE_API_KEY: z.string().min(1).optional(),
  JUDGE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /**
   * How old a PENDING verification (its process died mid-run) must be before recovery refunds it. It must
   * exceed JUDGE_TIMEOUT_MS (the deadline of the whole model call) by at least 1 s: with several processes
   * on one PostgreSQL, a younger run may still be judged by a live process. Default: JUDGE_TIMEOUT_MS + 60 s.
   */
  VERIFY_RECOVERY_GRACE_MS: z.coerce.number().int().min(1_000).optional(),
  JUDGE_SIGNING_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x followed by 64 hex digits")
    .optional(),

  SANDBOX: bool.optional(),
  SANDBOX_RPC_PORT: z.coerce.number().int().min(0).max(65535).default(8545),
  BASE_RPC_URL: optionalUrl,
  /** Production Solana RPC (turns the Solana sandbox off); SOLANA_WS_URL is its PubSub endpoint, if clients need one. */
  SOLANA_RPC_URL: optionalUrl,
  SOLANA_WS_URL: optionalUrl,
  /** Solana sandbox JSON-RPC port (WebSocket on port + 1). Unset: 8899 when free, else any free pair. */
  SOLANA_SANDBOX_RPC_PORT: z.coerce.number().int().min(0).max(65534).optional(),
  /** Production Starknet node (JSON-RPC 0.10, SN_MAIN); unset in the sandbox = the local sandbox Starknet node. */
  STARKNET_RPC_URL: optionalUrl,
  FACILITATOR_URL: optionalUrl,
  /**
   * STRK20 private actions (docs/strk20.md). Production needs the pool address and a proving service it
   * trusts with viewing keys; relaying needs a paymaster and its API key. The sandbox runs a local pool,
   * prover and paymaster and ignores these.
   */
  STRK20_POOL_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{1,64}$/, "must be a 0x-hex Starknet address")
    .optional(),
  STRK20_PROVER_URL: optionalUrl,
  STRK20_PAYMASTER_URL: optionalUrl,
  STRK20_PAYMASTER_API_KEY: z.string().min(1).optional(),
  /** Comma-separated fee recipients (the paymaster's forwarder) a quote may pay; any other is refused. */
  STRK20_FEE_RECIPIENTS: z.string().optional(),
  /** Ceiling on the relayer's fee, per fee token: `SYMBOL:whole-amount` pairs, comma-separated. */
  STRK20_MAX_RELAY_FEE: z
    .string()
    .regex(/^(\s*(STRK|ETH|USDC|USDT):\d+(\.\d+)?\s*)(,\s*(STRK|ETH|USDC|USDT):\d+(\.\d+)?\s*)*$/i, "must be SYMBOL:amount pairs, e.g. STRK:10,USDC:5")
    .optional(),
  /** Proofs are made against head minus this many blocks (state read must be settled); default 10, sandbox 0. */
  STRK20_PROVING_LAG_BLOCKS: z.coerce.number().int().min(0).max(1_000).optional(),
  /**
   * Receipt anchoring (docs/receipts.md): batch roots written to the anchor contract. On by default where a
   * chain runs (the sandbox: its own key and contract; Base: needs ANCHOR_PRIVATE_KEY and
   * ANCHOR_CONTRACT_ADDRESS). Off: every receipt's anchorStatus is `skipped`.
   */
  ANCHORING: bool.optional(),
  ANCHOR_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x followed by 64 hex digits")
    .optional(),
  ANCHOR_CONTRACT_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address")
    .optional(),
  /** A batch is formed when it holds this many receipts, or when its oldest receipt waited ANCHOR_BATCH_MAX_WAIT_MS. */
  ANCHOR_BATCH_MAX: z.coerce.number().int().min(1).max(100_000).default(512),
  ANCHOR_BATCH_MAX_WAIT_MS: z.coerce.number().int().min(0).default(60_000),
  ANCHOR_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(2_000),
  /** Blocks (the anchor's included) before a batch is re-read and verified; default 1 in the sandbox, 3 on Base. */
  ANCHOR_CONFIRMATIONS: z.coerce.number().int().min(1).max(1_000).optional(),
  /** Production: the BatchExecutor (src/sandbox/contracts/BatchExecutor.sol) deployed on Base, for atomic evm_calls. */
  BATCH_EXECUTOR_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address")
    .optional(),
  FACILITATOR_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x followed by 64 hex digits")
    .optional(),
  TOPUP_PAY_TO: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address")
    .optional(),
  TOPUP_MIN_CREDITS: z.coerce.number().int().min(1).default(20),
  TOPUP_MAX_CREDITS: z.coerce.number().int().min(1).default(10_000),
  MASTER_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex digits (32 bytes)")
    .optional(),
  APPROVAL_WINDOW_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  /** How often each process runs the proposal reconcile/expiry sweep (src/wallets/escrow.ts). */
  ESCROW_SWEEP_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  /** Swap quotes (docs/swaps-and-payments.md): "sandbox" (the sandbox pool), "0x" (the 0x Swap API), "none". Default: sandbox in the sandbox, 0x when ZEROX_API_KEY is set, else none. */
  SWAP_PROVIDER: z.enum(["sandbox", "0x", "none"]).optional(),
  ZEROX_API_URL: optionalUrl,
  ZEROX_API_KEY: z.string().min(1).optional(),
  /** Tests and the sandbox only: lets escrow_pay_x402 reach loopback hosts. Refused outside the sandbox. */
  ALLOW_LOOPBACK_FETCH: bool.optional(),

  /** Webhooks (docs/webhooks.md): how often each process looks for due deliveries. */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  /** First retry delay after a failed delivery; later ones double (with jitter) up to 2 hours, for 24 hours. */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(10_000),
  /** An endpoint is disabled after this many failed deliveries in a row (or one that failed for 24 hours). */
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).max(10_000).default(20),
  /** One delivery's whole exchange (connect, headers, body). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** A trader that has sent no heartbeat for this long is stale (dashboard, `trader.stale`). */
  TRADER_STALE_MS: z.coerce.number().int().min(1_000).default(5 * 60_000),

  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(16 * 1024 * 1024).default(1024 * 1024),
  /**
   * Reverse proxies / load balancers (comma-separated CIDRs or addresses) whose X-Forwarded-For is believed
   * for the client address of per-IP throttles (src/lib/client-ip.ts). Unset: the socket's peer.
   */
  TRUSTED_PROXIES: z.string().optional(),
  /** Requests per minute per API key, OAuth token or top-up code on /api/v1 and /api/mcp; 0 = no limit. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  /**
   * Where the rate-limit buckets live: this process's memory (default; exact for one process), or shared by
   * every process: `postgres` (the service's database) or `redis` (REDIS_URL). src/rate-limits.
   */
  RATE_LIMIT_STORE: z.enum(["memory", "postgres", "redis"]).default("memory"),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL").optional(),
  /** Requests a credential may make at once after a quiet period (default: RATE_LIMIT_PER_MINUTE). */
  RATE_LIMIT_BURST: z.coerce.number().int().min(1).optional(),
  /**
   * Embedded database (no DATABASE_URL) on its own worker thread (default) or on the event loop (false).
   * The worker roughly doubles verification throughput on two cores (docs/performance.md).
   */
  PGLITE_WORKER: bool.default(true),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /**
   * Admission control (src/http/admission.ts): new API requests get 503 `overloaded` while live heap data
   * fills this share of V8's heap limit (0 = never), and while the bodies of admitted requests exceed
   * INFLIGHT_BODY_BYTES (default: a sixteenth of the heap limit, at least 4 x BODY_LIMIT_BYTES).
   */
  SHED_HEAP_PERCENT: z.coerce.number().min(0).max(100).default(85),
  INFLIGHT_BODY_BYTES: z.coerce.number().int().min(1024).optional(),
  /** A client must send its request headers within this time, and the whole request within the next (408). */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config extends Omit<Env, "VERIFY_RECOVERY_GRACE_MS"> {
  VERIFY_RECOVERY_GRACE_MS: number;
  PUBLIC_URL: string;
  DATA_DIR: string;
  /** True when the service runs its own local chain (no BASE_RPC_URL). */
  sandbox: boolean;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(EnvSchema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== "") picked[key] = v;
  }
  const parsed = EnvSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message} (got ${JSON.stringify(picked[String(i.path[0])] ?? null)})`);
    throw new ConfigError(`invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  // The margin covers signing and writing the receipt after the model answers, and the sweep's own timing.
  if (e.VERIFY_RECOVERY_GRACE_MS !== undefined && e.VERIFY_RECOVERY_GRACE_MS < e.JUDGE_TIMEOUT_MS + 1_000) throw new ConfigError("invalid configuration:\n  VERIFY_RECOVERY_GRACE_MS must exceed JUDGE_TIMEOUT_MS by at least 1000 ms (a run is refunded only once its judge deadline has passed)");
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) throw new ConfigError("invalid configuration:\n  HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS");
  if (e.TOPUP_MIN_CREDITS > e.TOPUP_MAX_CREDITS) throw new ConfigError("invalid configuration:\n  TOPUP_MIN_CREDITS must not exceed TOPUP_MAX_CREDITS");
  if (e.JUDGE_PROVIDER !== "rules" && !e.JUDGE_MODEL) throw new ConfigError(`invalid configuration:\n  JUDGE_MODEL is required when JUDGE_PROVIDER=${e.JUDGE_PROVIDER}`);
  const sandbox = e.SANDBOX ?? !e.BASE_RPC_URL;
  if (sandbox && e.BASE_RPC_URL) throw new ConfigError("invalid configuration:\n  SANDBOX=true conflicts with BASE_RPC_URL (production chain)");
  if (e.ALLOW_LOOPBACK_FETCH && !sandbox) throw new ConfigError("invalid configuration:\n  ALLOW_LOOPBACK_FETCH=true is for the sandbox only (it would let agents make the service call its own host)");
  if (e.SWAP_PROVIDER === "sandbox" && !sandbox) throw new ConfigError("invalid configuration:\n  SWAP_PROVIDER=sandbox needs the sandbox chain");
  if (e.SWAP_PROVIDER === "0x" && !e.ZEROX_API_KEY) throw new ConfigError("invalid configuration:\n  SWAP_PROVIDER=0x needs ZEROX_API_KEY");
  if (e.STRK20_PROVER_URL && !e.STRK20_POOL_ADDRESS) throw new ConfigError("invalid configuration:\n  STRK20_PROVER_URL needs STRK20_POOL_ADDRESS (the pool the proofs are for)");
  if (e.STRK20_PAYMASTER_URL && !e.STRK20_POOL_ADDRESS) throw new ConfigError("invalid configuration:\n  STRK20_PAYMASTER_URL needs STRK20_POOL_ADDRESS");
  if (e.RATE_LIMIT_STORE === "redis" && !e.REDIS_URL) throw new ConfigError("invalid configuration:\n  RATE_LIMIT_STORE=redis needs REDIS_URL");
  try {
    parseTrustedProxies(e.TRUSTED_PROXIES);
  } catch (err) {
    throw new ConfigError(`invalid configuration:\n  TRUSTED_PROXIES: ${(err as Error).message}`);
  }
  const host = e.HOST.includes(":") ? `[${e.HOST}]` : e.HOST;
  return {
    ...e,
    DATA_DIR: path.resolve(e.DATA_DIR),
    VERIFY_RECOVERY_GRACE_MS: e.VERIFY_RECOVERY_GRACE_MS ?? e.JUDGE_TIMEOUT_MS + 60_000,
    PUBLIC_URL: (e.PUBLIC_URL ?? `http://${host}:${e.PORT}`).replace(/\/+$/, ""),
    sandbox,
  };
}
