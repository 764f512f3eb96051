/**
 * The top-up service: terms, quote, purchase (verify + settle + credit) and the recovery sweep, over the
 * rails chosen in the composition root. Transports (HTTP route, MCP tool) stay thin and call these verbs.
 */
import type { Logger } from "pino";
import type { Database } from "../../db/client";
import type { Clock } from "../../lib/clock";
import { ServiceError } from "../../lib/errors";
import type { Metrics } from "../../observability/metrics";
import { DEFAULT_MAX_TIMEOUT_SECONDS } from "../../x402";
import { getBalance } from "../ledger";
import { createClaimStore } from "./claims";
import type { TopupContext } from "./context";
import { createChainEvidence } from "./evidence";
import { buildGuide, renderGuideHtml } from "./guide";
import type { PurchaseOutcome } from "./outcomes";
import { purchase, type PurchaseRequest } from "./purchase";
import { parseQuote, quoteForCredits, type CreditLimits, type Quote } from "./quote";
import { sweepStaleClaims } from "./recover";
import type { TopupRailsChoice } from "./setup";
import { accountTerms, guideUrl, topupUrl, type TopupSettings } from "./terms";

export interface TopupServiceDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  publicUrl: string;
  limits: CreditLimits;
  rails: TopupRailsChoice;
  maxTimeoutSeconds?: number;
  /** How long a request may work on a claim before others may take it over (default 120 s). */
  leaseMs?: number;
  /** How long a duplicate submission waits for the first one's outcome (default 30 s). */
  waitForClaimMs?: number;
  pollMs?: number;
  /** Recovery sweep period (default 60 s; 0 = no timer). */
  sweepIntervalMs?: number;
  /**
   * No other process can use this database (PGlite behind the DATA_DIR lock): start() ends the leases a
   * crashed predecessor left, so its interrupted top-ups are finished at once instead of after leaseMs.
   */
  exclusiveDatabase?: boolean;
}

export const notConfigured = (reason: string) => new ServiceError("unavailable", "topup_not_configured", `top-ups are not enabled on this deployment: ${reason}`);

export function createTopupService(deps: TopupServiceDeps) {
  const { db, clock, logger } = deps;
  const rails = deps.rails.ok ? deps.rails.rails : null;
  const disabledReason = deps.rails.ok ? null : deps.rails.reason;
  const settings: TopupSettings | null = rails
    ? {
        publicUrl: deps.publicUrl,
        network: rails.network,
        asset: rails.asset,
        payTo: rails.payTo,
        minCredits: deps.limits.minCredits,
        maxCredits: deps.limits.maxCredits,
        maxTimeoutSeconds: deps.maxTimeoutSeconds ?? DEFAULT_MAX_TIMEOUT_SECONDS,
        sandbox: rails.sandbox,
      }
    : null;

  let signers: Promise<ReadonlySet<string>> | null = null;
  const facilitatorSigners = (): Promise<ReadonlySet<string>> => {
    if (!rails) return Promise.resolve(new Set());
    const f = rails.facilitator;
    if ("relayerAddress" in f) return Promise.resolve(new Set([String(f.relayerAddress).toLowerCase()]));
    signers ??= f
      .supported()
      .then((s) => new Set(Object.values(s.signers ?? {}).flat().map((a) => a.toLowerCase())))
      .catch((e: unknown) => {
        signers = null;
        throw e;
      });
    return signers;
  };

  const ctx: TopupContext | null =
    rails && settings
      ? {
          settings,
          facilitator: rails.facilitator,
          evidence: createChainEvidence(rails.client),
          claims: createClaimStore({ db, clock, leaseMs: deps.leaseMs ?? 120_000 }),
          clock,
          logger: logger.child({ component: "topup" }),
          metrics: deps.metrics,
          balanceOf: async (accountId) => (await getBalance(db, accountId)) ?? 0,
          facilitatorSigners,
          waitForClaimMs: deps.waitForClaimMs ?? 30_000,
          pollMs: deps.pollMs ?? 100,
        }
      : null;

  const requireCtx = (): TopupContext => {
    if (!ctx) throw notConfigured(disabledReason ?? "not configured");
    return ctx;
  };

  let timer: NodeJS.Timeout | null = null;
  let sweeping: Promise<unknown> | null = null;

  const termsByCode = new Map<string, Record<string, unknown>>();
  const service = {
    enabled: ctx !== null,
    disabledReason,
    settings,
    limits: deps.limits,
    facilitator: rails?.facilitator ?? null,

    /** SPEC 2.3 `topup` for an account; null while top-ups are disabled (the field is then omitted). */
    async terms(accountId: string): Promise<Record<string, unknown> | null> {
      if (!settings) return null;
      const row = await db.selectFrom("accounts").select("topup_code").where("id", "=", accountId).executeTakeFirst();
      return row ? accountTerms(settings, row.topup_code) : null;
    },

    /**
     * The same terms from the account's top-up code (no query: GET /credits reads the code with the balance).
     * Settings and codes never change, so the terms are built once per code (bounded, oldest dropped first).
     */
    termsForCode(topupCode: string): Record<string, unknown> | null {
      if (!settings) return null;
      let t = termsByCode.get(topupCode);
      if (!t) {
        if (termsByCode.size >= 10_000) termsByCode.delete(termsByCode.keys().next().value as string);
        termsByCode.set(topupCode, (t = accountTerms(settings, topupCode)));
      }
      return t;
    },

    /** Throws 503 topup_not_configured while top-ups are disabled. */
    assertEnabled(): void {
      requireCtx();
    },

    /** Parses `usd` / `credits` (400 on bad values). */
    quote: (input: { usd?: string | null; credits?: string | null }): Quote => parseQuote(input, deps.limits),
    quoteForCredits: (credits: number): Quote => quoteForCredits(credits),

    /** Where the payer repeats the request (PaymentRequired.resource.url). */
    resourceUrl(quote: Quote, accountCode?: string): string {
      const s = requireCtx().settings;
      return topupUrl(s, { credits: quote.credits, ...(accountCode ? { account: accountCode } : {}) });
    },

    guideUrl: (): string | null => (settings ? guideUrl(settings) : null),

    /** Verify, settle and credit (or say what payment is required). 503 while disabled. */
    purchase: (req: PurchaseRequest): Promise<PurchaseOutcome> => purchase(requireCtx(), req),

    guide() {
      return buildGuide(requireCtx().settings);
    },
    guideHtml(): string {
      return renderGuideHtml(requireCtx().settings);
    },

    /** Recovers claims whose request died (credits settled ones, releases expired ones). */
    async sweep() {
      if (!ctx) return { credited: 0, released: 0 };
      sweeping ??= sweepStaleClaims(ctx).finally(() => (sweeping = null));
      return sweeping as Promise<{ credited: number; released: number }>;
    },

    /** Call before serving: with an exclusive database it first ends the leases of a dead predecessor. */
    async start() {
      if (!ctx || timer) return;
      if (deps.exclusiveDatabase) {
        const expired = await ctx.claims.expireHeldLeases();
        if (expired > 0) logger.warn({ claims: expired }, "top-ups interrupted by the previous process's exit: finishing them now");
      }
      const period = deps.sweepIntervalMs ?? 60_000;
      void service.sweep().catch((err) => logger.error({ err }, "top-up sweep failed"));
      if (period > 0) {
        timer = setInterval(() => void service.sweep().catch((err) => logger.error({ err }, "top-up sweep failed")), period);
        timer.unref();
      }
    },

    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await sweeping?.catch(() => {});
    },

    /** For the operator (GET /admin/v1/sandbox). */
    describe() {
      if (!rails || !settings) return { enabled: false, reason: disabledReason };
      const f = rails.facilitator;
      return {
        enabled: true,
        payTo: settings.payTo,
        asset: settings.asset,
        network: settings.network,
        facilitator: "relayerAddress" in f ? { kind: f.kind, relayer: f.relayerAddress } : { kind: f.kind, url: (f as { url?: string }).url ?? null },
        minCredits: settings.minCredits,
        maxCredits: settings.maxCredits,
      };
    },
  };
  return service;
}

export type TopupService = ReturnType<typeof createTopupService>;
