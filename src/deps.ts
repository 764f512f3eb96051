import pino, { type Logger } from "pino";
import type { Hono } from "hono";
import type { Config } from "./config";
import { openDatabase, type DatabaseHandle } from "./db/client";
import { migrate } from "./db/migrate";
import { lockDataDir } from "./db/datadir-lock";
import { systemClock, type Clock } from "./lib/clock";
import { secretToken } from "./lib/ids";
import { loadOrCreateSecretFile } from "./lib/secret-file";
import { createMetrics, type Metrics } from "./observability/metrics";
import { createAccountsService } from "./accounts/service";
import { createCreditsService } from "./credits/service";
import { createVerificationService } from "./verification/service";
import { createHeartbeatService } from "./heartbeats/service";
import { createJudge } from "./judge/factory";
import type { Judge } from "./judge/types";
import { loadJudgeKey, type JudgeAccount } from "./receipts/judge-key";
import { loadJudgeDocument } from "./receipts/judge-history";
import type { JudgeDocument } from "./receipts/judge-identity";
import { createAnchoring, type Anchoring } from "./anchoring/service";
import { anchorChainFor } from "./chains/evm/anchor";
import type { AnchorReader } from "./verification/service";
import { createApp } from "./http/app";
import { parseTrustedProxies } from "./lib/client-ip";
import { createRateLimitStore } from "./rate-limits";
import { withAdvisoryLock } from "./db/claim";
import { watchMemoryPressure } from "./observability/memory-pressure";
import type { AppEnv } from "./http/types";
import type { Services } from "./services";
import { createMcpToolRegistry, type McpToolRegistry } from "./mcp/registry";
import { CORE_TOOLS } from "./mcp/tools";
import { MCP_PATH } from "./mcp/auth";
import { createDashboardAuth } from "./dashboard/auth/service";
import { randomBytes } from "node:crypto";
import { createEscrow } from "./wallets/escrow";
import { MasterKey } from "./wallets/custody/envelope";
import { createStrk20Service } from "./strk20/service";
import { STRK20_TOOLS } from "./mcp/tools/strk20";
import { WALLET_TOOLS } from "./mcp/tools/wallets";
import { PROPOSAL_TOOLS } from "./mcp/tools/proposals";
import { chooseTopupRails, createTopupService, type TopupService } from "./credits/topup";
import { createSandboxSelfService } from "./sandbox/self-service";
import { createTopupCreditsTool } from "./mcp/tools/topup";
import { createTrading } from "./swaps/wiring";
import { createSwapTools } from "./mcp/tools/swaps";
import { createPayX402Tool } from "./mcp/tools/pay-x402";
import { createOAuthService } from "./oauth/service";
import { createWebhookService } from "./webhooks/service";
import { createInsightsService } from "./insights/service";
import type { ChainRuntime } from "./chains/evm/start";
import type { StarknetRuntime } from "./chains/starknet/start";
import type { SolanaRuntime } from "./chains/solana/start";
import { startChains } from "./composition/chains";
import { appMounts } from "./composition/mounts";

/** Secrets and values never written to logs. */
export const LOG_REDACT = [
  "apiKey",
  "accessToken",
  "privateKey",
  "password",
  "req.headers.authorization",
  "req.headers['x-api-key']",
  "headers.authorization",
  "headers['x-api-key']",
  "*.apiKey",
  "*.accessToken",
  "*.privateKey",
];

export interface RuntimeOverrides {
  judge?: Judge;
  clock?: Clock;
  logger?: Logger;
  /** Tests pass an in-memory PGlite or a PostgreSQL schema of their own. */
  database?: DatabaseHandle;
  /** Tests skip the DATA_DIR lock (they use in-memory databases). */
  lockDataDir?: boolean;
}

export interface Runtime {
  config: Config;
  app: Hono<AppEnv>;
  services: Services;
  database: DatabaseHandle;
  logger: Logger;
  metrics: Metrics;
  adminToken: string;
  judgeAccount: JudgeAccount;
  /** GET /.well-known/arbiter-judge.json: the judge keys with their periods and signed rotations. */
  judgeDocument: JudgeDocument;
  /** MCP tools: capabilities register theirs here (src/mcp/registry.ts). */
  mcpTools: McpToolRegistry;
  /** Escrow wallets are configured on this deployment: the wallets capability sets it; gates escrow MCP tools. */
  escrowConfigured: boolean;
  /** Receipt anchoring (src/anchoring): `enabled` false where it is off. */
  anchoring: Anchoring;
  /** The Base chain: the sandbox (anvil, faucet, operator accounts) or BASE_RPC_URL; null when neither. */
  chain: ChainRuntime | null;
  /** The Solana chain: the litesvm sandbox cluster or SOLANA_RPC_URL; null when neither. */
  solana: SolanaRuntime | null;
  /** Starknet: the sandbox node or STARKNET_RPC_URL; null when neither. */
  starknet: StarknetRuntime | null;
  ready: boolean;
  /** Background work (recovery sweeps); stopped by close(). */
  close(): Promise<void>;
}

/** The composition root: every external system is built here, once, and handed to the services. */
export async function createRuntime(config: Config, o: RuntimeOverrides = {}): Promise<Runtime> {
  const logger = o.logger ?? pino({ level: config.LOG_LEVEL, redact: { paths: LOG_REDACT, censor: "[redacted]" } });
  const clock = o.clock ?? systemClock;
  const releaseLock = o.lockDataDir === false ? () => {} : lockDataDir(config.DATA_DIR);
  const cleanups: (() => Promise<void> | void)[] = [releaseLock];
  try {
    const database =
      o.database ??
      (await openDatabase({
        url: config.DATABASE_URL,
        schema: config.DATABASE_SCHEMA,
        dataDir: config.DATABASE_URL ? null : `${config.DATA_DIR}/pglite`,
        pgliteWorker: config.PGLITE_WORKER,
        listenUrl: config.DATABASE_LISTEN_URL,
        feed: { logger: logger.child({ component: "change-feed" }), heartbeatMs: config.CHANGE_FEED_HEARTBEAT_MS },
      }));
    if (!o.database) cleanups.unshift(() => database.close());
    const applied = await migrate(database.db);
    if (applied.length) logger.info({ applied }, "database migrated");

    const adminToken = config.ADMIN_TOKEN ?? loadOrCreateSecretFile(config.DATA_DIR, "admin-token", () => secretToken(256));
    const judgeKey = loadJudgeKey({ envKey: config.JUDGE_SIGNING_KEY, dataDir: config.DATA_DIR });
    const judgeAccount = judgeKey.account;
    const judgeDocument = loadJudgeDocument({ dataDir: config.DATA_DIR, current: judgeKey.address, now: clock.now(), warn: (msg) => logger.warn(msg) });
    const judge =
      o.judge ??
      createJudge({ provider: config.JUDGE_PROVIDER, baseUrl: config.JUDGE_BASE_URL, model: config.JUDGE_MODEL, apiKey: config.JUDGE_API_KEY, timeoutMs: config.JUDGE_TIMEOUT_MS });
    const metrics = createMetrics();
    metrics.changeFeedLive.set(database.changes.live ? 1 : 0);
    database.changes.onStatus?.((live) => {
      metrics.changeFeedLive.set(live ? 1 : 0);
      if (!live) metrics.changeFeedOutages.inc();
    });
    const db = database.db;

    const accounts = createAccountsService({ db, clock, changes: database.changes });
    // Top-up terms (SPEC 2.3) for GET /credits and out_of_credits; the top-up service is built once the chain is up.
    let topup: TopupService | null = null;
    const topupTerms = (accountId: string) => topup?.terms(accountId) ?? Promise.resolve(null);
    const credits = createCreditsService({ db, changes: database.changes, topupTermsForCode: (code) => topup?.termsForCode(code) ?? null });
    metrics.observeCache("api_key", accounts.cacheReads);
    metrics.observeCache("balance", credits.cacheReads);
    // Receipt anchoring is built once the chain is up; until then (and when off) receipts read `skipped`.
    let anchoring: Anchoring | null = null;
    const anchors: AnchorReader = {
      view: (row) => anchoring?.view(row) ?? { anchorStatus: row.anchor_tx ? "verified" : "skipped", anchorTx: row.anchor_tx, explorerTx: null },
      proof: (row) => anchoring?.proof(row) ?? Promise.resolve(null),
    };
    const verification = createVerificationService({
      anchors,
      db,
      judge,
      receiptSigner: judgeKey.signer,
      clock,
      metrics,
      logger,
      publicUrl: config.PUBLIC_URL,
      pendingGraceMs: config.VERIFY_RECOVERY_GRACE_MS,
      topupTerms,
      pipelined: database.pipelined,
    });
    const heartbeats = createHeartbeatService({ db, clock, staleMs: config.TRADER_STALE_MS });

    // Escrow wallets: the chains (src/composition/chains.ts), the local keystore custodian (keys sealed with
    // MASTER_KEY or DATA_DIR/master-key, mode 0600), wallets and proposals.
    const masterKey = new MasterKey(config.MASTER_KEY ?? loadOrCreateSecretFile(config.DATA_DIR, "master-key", () => randomBytes(32).toString("hex")));
    const wired = await startChains(config, { db, clock, logger, masterKey, cleanups });
    const { chain, solana, starknet, keystore, chains } = wired;
    const anchorChain = anchorChainFor(config, chain);
    if (anchorChain.reason && config.ANCHORING !== false && chain) logger.warn({ reason: anchorChain.reason }, "receipt anchoring is off");
    const anchorWorker = createAnchoring({
      db,
      chain: anchorChain.chain,
      clock,
      logger,
      options: {
        maxLeaves: config.ANCHOR_BATCH_MAX,
        maxWaitMs: config.ANCHOR_BATCH_MAX_WAIT_MS,
        pollMs: config.ANCHOR_POLL_MS,
        confirmations: config.ANCHOR_CONFIRMATIONS ?? (chain?.sandbox ? 1 : 3),
      },
    });
    anchoring = anchorWorker;
    cleanups.unshift(() => anchorWorker.stop());
    const escrow = createEscrow({
      db,
      clock,
      logger,
      chains,
      verification,
      publicUrl: config.PUBLIC_URL,
      approvalWindowMinutes: config.APPROVAL_WINDOW_MINUTES,
      judgeTimeoutMs: config.JUDGE_TIMEOUT_MS,
      sweepMs: config.ESCROW_SWEEP_MS,
      exclusiveDatabase: database.kind === "pglite",
    });
    cleanups.unshift(() => escrow.stop());
    // Swaps and x402 payments from escrow wallets, on the same proposal pipeline (docs/swaps-and-payments.md).
    const trading = createTrading({ config, db, clock, chains, signer: keystore, proposals: escrow.proposals });
    // Credit top-ups over x402: payTo + facilitator (remote FACILITATOR_URL, in-process with
    // FACILITATOR_PRIVATE_KEY or the sandbox relayer) on this Base chain; disabled (503) when incomplete.
    topup = createTopupService({
      db,
      clock,
      logger,
      metrics,
      publicUrl: config.PUBLIC_URL,
      limits: { minCredits: config.TOPUP_MIN_CREDITS, maxCredits: config.TOPUP_MAX_CREDITS },
      // Several processes may share the relayer key: its nonce is assigned under a database lock (PostgreSQL).
      rails: chooseTopupRails(config, chain, database.kind === "postgres" ? (relayer, fn) => withAdvisoryLock(db, "x402-relayer", relayer.toLowerCase(), fn) : undefined),
      exclusiveDatabase: database.kind === "pglite",
    });
    const topupService = topup;
    cleanups.unshift(() => topupService.stop());
    // OAuth 2.1 for the MCP endpoint: consent in the dashboard, opaque tokens stored hashed (docs/oauth.md).
    const oauth = createOAuthService({ db, clock, logger, publicUrl: config.PUBLIC_URL, mcpResource: `${config.PUBLIC_URL}${MCP_PATH}` });
    // Webhooks: events are recorded by database triggers with the change itself; delivery is claimed
    // background work in every process (docs/webhooks.md).
    const webhooks = createWebhookService({
      db,
      clock,
      logger,
      masterKey,
      publicUrl: config.PUBLIC_URL,
      pollMs: config.WEBHOOK_POLL_MS,
      traderStaleMs: config.TRADER_STALE_MS,
      delivery: {
        retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
        disableAfterFailures: config.WEBHOOK_DISABLE_AFTER_FAILURES,
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        leaseMs: Math.max(60_000, 3 * config.WEBHOOK_TIMEOUT_MS),
        batch: 20,
        fetch: { allowHttp: config.sandbox, allowLoopback: config.sandbox && config.ALLOW_LOOPBACK_FETCH === true },
      },
    });
    cleanups.unshift(() => webhooks.stop());
    const insights = createInsightsService({ db, clock });
    const services: Services = {
      accounts,
      credits,
      verification,
      heartbeats,
      wallets: escrow.wallets,
      proposals: escrow.proposals,
      topup: topupService,
      oauth,
      embedded: escrow.embedded,
      webhooks: webhooks.endpoints,
      insights,
      strk20: createStrk20Service({ db, clock, module: starknet?.strk20Module ?? null, addresses: starknet?.adapter.address ?? null }),
    };
    const dashboardAuth = createDashboardAuth({ db, clock, accounts });

    const memory = watchMemoryPressure({
      shedAt: config.SHED_HEAP_PERCENT / 100,
      onChange(shedding, live, limit) {
        metrics.memoryShedding.set(shedding ? 1 : 0);
        const fields = { liveMiB: Math.round(live / 1048576), limitMiB: Math.round(limit / 1048576) };
        if (shedding) logger.warn(fields, "memory pressure: refusing new API requests (503 overloaded) until a collection frees memory");
        else logger.info(fields, "memory pressure over: admitting requests again");
      },
    });
    metrics.heapLimit.set(memory.limitBytes);
    cleanups.unshift(() => memory.stop());

    const rateLimiter = createRateLimitStore(config, database);
    cleanups.unshift(() => rateLimiter.close());

    const runtime: Runtime = {
      config,
      services,
      database,
      logger,
      metrics,
      adminToken,
      judgeAccount,
      judgeDocument,
      anchoring: anchorWorker,
      mcpTools: createMcpToolRegistry(CORE_TOOLS),
      escrowConfigured: escrow.configured,
      chain,
      solana,
      starknet,
      ready: false,
      app: undefined as unknown as Hono<AppEnv>,
      async close() {
        for (const c of cleanups) await c();
      },
    };
    runtime.app = createApp({
      services,
      logger,
      metrics,
      publicUrl: config.PUBLIC_URL,
      adminToken,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      rateLimit: { perMinute: config.RATE_LIMIT_PER_MINUTE, burst: config.RATE_LIMIT_BURST, limiter: rateLimiter },
      admission: {
        pressure: memory,
        bodyBudgetBytes: config.INFLIGHT_BODY_BYTES ?? Math.max(4 * config.BODY_LIMIT_BYTES, Math.floor(memory.limitBytes / 16)),
        onShed: (reason) => metrics.requestsShed.inc({ reason }),
      },
      isReady: () => runtime.ready,
      cachesLive: () => database.changes.live,
      trustedProxies: parseTrustedProxies(config.TRUSTED_PROXIES),
      ...appMounts({
        publicUrl: config.PUBLIC_URL,
        services,
        topup: topupService,
        oauth,
        dashboardAuth,
        judgeAddress: judgeAccount.address,
        judgeDocument,
        trading,
        chains: wired,
        mcp: { tools: runtime.mcpTools, escrowConfigured: () => runtime.escrowConfigured },
      }),
    });

    if (chain?.sandbox && topupService.enabled) {
      const app = runtime.app;
      services.sandbox = createSandboxSelfService({
        faucet: chain.sandbox.faucet,
        starknetFaucet: starknet?.faucet ?? null,
        solanaFaucet: solana?.sandbox ? { fund: (r) => solana.sandbox!.faucet.fund(r as Parameters<typeof solana.sandbox.faucet.fund>[0]) } : null,
        credits,
        wallets: escrow.wallets,
        fetchOwn: async (request) => app.fetch(request),
        publicUrl: config.PUBLIC_URL,
        limits: topupService.limits,
      });
    }
    runtime.mcpTools.register(...WALLET_TOOLS, ...PROPOSAL_TOOLS, ...STRK20_TOOLS);
    runtime.mcpTools.register(...createSwapTools(trading.swaps), createPayX402Tool(trading.payments));
    if (topupService.enabled) runtime.mcpTools.register(createTopupCreditsTool(topupService.limits));
    await verification.recoverPending();
    await escrow.start();
    anchorWorker.start();
    await topupService.start();
    webhooks.start();
    // Often enough that an interrupted run is refunded soon after its grace period ends.
    const sweepMs = Math.min(60_000, Math.max(1_000, config.VERIFY_RECOVERY_GRACE_MS / 2));
    const sweep = setInterval(() => void verification.recoverPending().catch((err) => logger.error({ err }, "recovery sweep failed")), sweepMs);
    sweep.unref();
    cleanups.unshift(() => clearInterval(sweep));
    runtime.ready = true;
    return runtime;
  } catch (err) {
    for (const c of cleanups) await c();
    throw err;
  }
}
