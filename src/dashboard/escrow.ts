import type { Services } from "../services";
import { LIMIT_NAMES, loosenedBy, type Limits, type LimitsPatch } from "../wallets/limits";

/** Shapes the wallet and proposal verbs return, as the pages use them. */
export type Wallet = Awaited<ReturnType<Services["wallets"]["list"]>>[number];
export type Balances = Awaited<ReturnType<Services["wallets"]["balances"]>>;
export type ProposalItem = Awaited<ReturnType<Services["proposals"]["list"]>>[number];
export type ProposalFull = Awaited<ReturnType<Services["proposals"]["result"]>>;
export type AssetChange = NonNullable<ProposalFull["simulation"]>["changes"][number];
export type { Limits };

/** Escrow wallets need a chain; without one the pages say so instead of failing. */
export const escrowEnabled = (services: Services): boolean => services.wallets.configured();

/** The rules form, as typed: numbers and one-entry-per-line lists; blank means "no such limit". */
export interface RulesForm {
  name: string;
  mandate: string;
  maxPerTxUsd: string;
  dailyCapUsd: string;
  tokenAllowlist: string;
  recipientAllowlist: string;
}

export const lines = (s: string): string[] =>
  s
    .split(/[\n,]/)
    .map((x) => x.trim())
    .filter(Boolean);

function usdField(label: string, raw: string): number | null {
  const t = raw.trim().replace(/^\$/, "").replace(/,/g, "");
  if (!t) return null;
  const n = Number(t);
  if (!Number.isFinite(n)) throw new RulesFormError(`${label} must be a number of US dollars, like 250 or 99.50.`);
  return n;
}

export class RulesFormError extends Error {}

/** The limits object for wallet creation (blank fields left out). */
export function limitsFromForm(f: RulesForm): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const max = usdField("Per-transaction cap", f.maxPerTxUsd);
  const day = usdField("Daily cap", f.dailyCapUsd);
  if (max !== null) out.maxPerTxUsd = max;
  if (day !== null) out.dailyCapUsd = day;
  if (lines(f.tokenAllowlist).length) out.tokenAllowlist = lines(f.tokenAllowlist);
  if (lines(f.recipientAllowlist).length) out.recipientAllowlist = lines(f.recipientAllowlist);
  return Object.keys(out).length ? out : undefined;
}

/** The update patch: only what differs from the wallet now (a cleared limit is `null`: removed). */
export function patchFromForm(w: Wallet, f: RulesForm): { name?: string; mandate?: string; limits?: LimitsPatch } {
  const patch: { name?: string; mandate?: string; limits?: LimitsPatch } = {};
  if (f.name.trim() && f.name.trim() !== w.name) patch.name = f.name.trim();
  if (f.mandate.trim() !== (w.mandate ?? "")) patch.mandate = f.mandate.trim();
  const limits: LimitsPatch = {};
  const max = usdField("Per-transaction cap", f.maxPerTxUsd);
  const day = usdField("Daily cap", f.dailyCapUsd);
  if (max !== (w.limits.maxPerTxUsd ?? null)) limits.maxPerTxUsd = max;
  if (day !== (w.limits.dailyCapUsd ?? null)) limits.dailyCapUsd = day;
  for (const k of ["tokenAllowlist", "recipientAllowlist"] as const) {
    const next = lines(f[k]);
    const cur = w.limits[k] ?? [];
    // Exact: base58 addresses differ by case alone; an EVM address re-typed in another case is merely re-normalised.
    const same = next.length === cur.length && next.every((x, i) => x === cur[i]);
    if (!same) limits[k] = next.length ? next : null;
  }
  if (Object.keys(limits).length) patch.limits = limits;
  return patch;
}

/**
 * What saving the patch would loosen, computed before saving with the wallet verbs' own rules
 * (`merge` is the wallets service's previewLimits: mergeLimits with the wallet chain's codec and tokens;
 * loosenedBy). The update verb's own answer, shown after saving, is authoritative.
 */
export function previewLoosening(
  w: Wallet,
  patch: ReturnType<typeof patchFromForm>,
  merge: (current: Limits, patch: LimitsPatch) => { limits: Limits; notes: string[] },
): { loosened: string[]; next: Limits; notes: string[] } {
  const loosened: string[] = [];
  if (patch.mandate !== undefined) {
    loosened.push(
      patch.mandate === ""
        ? "mandate cleared: the judge has no rules to check, so proposals escalate to you"
        : "mandate replaced: the judge will apply the new text, which may permit actions the old one did not",
    );
  }
  let next: Limits = w.limits;
  let notes: string[] = [];
  if (patch.limits) {
    ({ limits: next, notes } = merge(w.limits, patch.limits));
    loosened.push(...loosenedBy(w.limits, next));
  }
  return { loosened, next, notes };
}

export const LIMIT_LABELS: Record<string, string> = {
  maxPerTxUsd: "Per-transaction cap",
  dailyCapUsd: "Daily cap (rolling 24 h)",
  tokenAllowlist: "Allowed tokens",
  recipientAllowlist: "Allowed recipients",
  mandate: "Mandate",
};

export const ENFORCEMENT_TEXT: Record<string, string> = {
  signer: "enforced by the custodian's signer",
  service: "enforced by Arbiter before signing",
  judge: "weighed by the judge",
};

export { LIMIT_NAMES };
