/**
 * Escrow wallet tools (SPEC 4.12): create_escrow_wallet, update_escrow_wallet, list_escrow_wallets,
 * get_escrow_balances. Scope `wallet`; listed only when escrow wallets are configured. Thin: the same
 * service verbs as the HTTP routes.
 */
import { z } from "zod";
import { LimitsPatch } from "../../wallets/limits";
import type { Wallet, WalletDetails } from "../../wallets/present";
import { MANDATE_MAX, WALLET_NAME_MAX } from "../../wallets/schemas";
import { defineTool } from "../types";
import { ok } from "../results";

const walletParam = z.string().min(1).max(100).describe("The wallet's id (wal_...) or its name.");
const limitsDescription =
  "Optional hard limits the service checks against the simulated effects before the judge runs: maxPerTxUsd and dailyCapUsd (USD, 0.01 to 1,000,000,000; the daily cap is a rolling 24 hours), tokenAllowlist (token addresses; ETH for native ETH; a well-known symbol like USDC resolves to its one real address on the chain, any other symbol permits nothing) and recipientAllowlist (0x addresses).";

const CreateInput = z.object({
  name: z.string().min(1).max(WALLET_NAME_MAX).describe("Unique per account; usable in place of the id."),
  chain: z.enum(["base", "solana", "starknet"]).describe("The chain: base, solana or starknet (a chain this deployment does not serve is refused, naming those it does). Solana wallets are autonomous only; their named transfers always wait for the owner."),
  mode: z.enum(["autonomous", "safe"]).describe("autonomous: executes an ALLOW whose simulation is clean on its own. safe: every proposal waits for the owner. Fixed at creation."),
  mandate: z.string().min(1).max(MANDATE_MAX).describe("The owner's rules in plain language; the judge checks every proposal against them."),
  limits: z.record(z.string(), z.unknown()).optional().describe(limitsDescription),
});

const UpdateInput = z.object({
  wallet: walletParam,
  name: z.string().min(1).max(WALLET_NAME_MAX).optional().describe("New name."),
  mandate: z.string().max(MANDATE_MAX).optional().describe("New mandate (replaces the old text)."),
  limits: LimitsPatch.optional().describe(`Limits to change, merged into the current ones; null removes a limit. ${limitsDescription}`),
});

const WalletOnly = z.object({ wallet: walletParam });
const NoInput = z.object({});

function limitsLine(w: WalletDetails): string {
  const l = w.rules.limits;
  const parts: string[] = [];
  if (l.maxPerTxUsd !== undefined) parts.push(`max $${l.maxPerTxUsd} per transaction`);
  if (l.dailyCapUsd !== undefined) parts.push(`$${l.dailyCapUsd} per rolling 24 hours`);
  if (l.tokenAllowlist) parts.push(`tokens: ${l.tokenAllowlist.join(", ")}`);
  if (l.recipientAllowlist) parts.push(`recipients: ${l.recipientAllowlist.join(", ")}`);
  const enforced = Object.entries(w.rules.enforcement).map(([k, v]) => `${k} by the ${v}`);
  return `Limits: ${parts.length ? parts.join("; ") : "none"}.${enforced.length ? ` Enforced: ${enforced.join(", ")}.` : ""}`;
}

const mcpWallet = (w: Wallet & WalletDetails) => ({
  id: w.id,
  name: w.name,
  chain: w.chain,
  mode: w.mode,
  custody: w.custody,
  address: w.address,
  mandate: w.mandate,
  limits: w.limits,
  balanceUsd: w.balanceUsd,
  tokenCount: w.tokenCount,
  pendingCount: w.pendingCount,
  archivedAt: w.archivedAt,
  createdAt: w.createdAt,
  provider: w.provider,
  rules: w.rules,
  explorerAddressUrl: w.explorerAddressUrl,
});

export const createEscrowWalletTool = defineTool({
  name: "create_escrow_wallet",
  title: "Create an escrow wallet",
  description:
    "Free. Creates an escrow wallet whose key the service holds: funds leave it only through proposals (escrow_transfer, escrow_execute) that are simulated, checked against the limits and judged against the mandate. Returns the address to fund and what the wallet needs for gas.",
  inputSchema: CreateInput,
  annotations: { title: "Create escrow wallet", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  scope: "wallet",
  requiresEscrow: true,
  async handler(args, ctx) {
    const { notes, ...w } = await ctx.services.wallets.create(ctx.principal, { name: args.name, chain: args.chain, mode: args.mode, mandate: args.mandate, limits: args.limits });
    const text = [
      `Created escrow wallet "${w.name}" (${w.id}) on ${w.chain}, mode ${w.mode}${w.mode === "safe" ? " (every proposal waits for the owner)" : " (an ALLOW with a clean simulation executes on its own)"}.`,
      `Address to fund: ${w.address}${w.explorerAddressUrl ? ` (${w.explorerAddressUrl})` : ""}`,
      `Gas: ${w.gas.note}`,
      limitsLine(w),
      ...notes.map((n) => `Note: ${n}`),
    ].join("\n");
    return ok(text, { id: w.id, name: w.name, chain: w.chain, mode: w.mode, address: w.address, mandate: w.mandate, limits: w.limits, provider: w.provider, rules: w.rules, explorerAddressUrl: w.explorerAddressUrl, gas: w.gas, ...(notes.length ? { warnings: notes } : {}) });
  },
});

export const updateEscrowWalletTool = defineTool({
  name: "update_escrow_wallet",
  title: "Update an escrow wallet's name, mandate or limits",
  description:
    "Free, idempotent. Changes the name, mandate or limits (at least one). Mode and chain cannot change. A change that loosens the rules is applied and the reply lists exactly what it loosened, unless the wallet's owner alone may loosen them (rules.whoMayLoosen is owner): then what loosens (a raised or removed cap or allowlist, a new allowlist entry, a new mandate) is not applied but waits for the owner's approval, and the tool answers owner_approval_required with the dashboard link; what tightens applies at once. Proposals still awaiting the owner are re-checked against new limits and blocked if they no longer pass.",
  inputSchema: UpdateInput,
  annotations: { title: "Update escrow wallet", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: "wallet",
  requiresEscrow: true,
  async handler(args, ctx) {
    const { wallet: ref, ...patch } = args;
    const r = await ctx.services.wallets.update(ctx.principal, ref, patch);
    const w = r.wallet;
    const text = [
      r.changed.length ? `Updated wallet "${w.name}" (${w.id}): ${r.changed.join("; ")}.` : `Nothing changed on wallet "${w.name}" (${w.id}).`,
      r.loosened.length ? `Loosened: ${r.loosened.join("; ")}.` : "Nothing was loosened.",
      limitsLine(w),
      ...(r.blockedProposals.length ? [`Blocked because they no longer pass the new limits: ${r.blockedProposals.join(", ")}.`] : []),
      ...r.notes.map((n) => `Note: ${n}`),
    ].join("\n");
    return ok(text, { wallet: w.id, name: w.name, mode: w.mode, mandate: w.mandate, limits: w.limits, changed: r.changed, loosened: r.loosened, blockedProposals: r.blockedProposals, rules: w.rules });
  },
});

export const listEscrowWalletsTool = defineTool({
  name: "list_escrow_wallets",
  title: "List escrow wallets",
  description: "Free. The account's live escrow wallets (archived ones excluded) with balances in USD, pending proposals, limits and who enforces each one, and explorer links.",
  inputSchema: NoInput,
  annotations: { title: "List escrow wallets", readOnlyHint: true, openWorldHint: false },
  scope: "wallet",
  requiresEscrow: true,
  async handler(_args, ctx) {
    const wallets = await ctx.services.wallets.list(ctx.principal);
    const lines = wallets.map(
      (w) =>
        `- ${w.name} (${w.id}), ${w.chain}, ${w.mode}: ${w.address}; balance ${w.balanceUsd === null ? "unknown" : `$${w.balanceUsd.toFixed(2)}`}; ${w.pendingCount} awaiting the owner. ${limitsLine(w)}`,
    );
    const gas = wallets[0]?.gas.note;
    const text = wallets.length ? [`${wallets.length} escrow wallet${wallets.length === 1 ? "" : "s"}:`, ...lines, ...(gas ? [`Gas: ${gas}`] : [])].join("\n") : "No escrow wallets yet. Create one with create_escrow_wallet.";
    return ok(text, { wallets: wallets.map(mcpWallet) });
  },
});

export const getEscrowBalancesTool = defineTool({
  name: "get_escrow_balances",
  title: "Escrow wallet balances",
  description: "Free. Live balances of one escrow wallet: ETH (for gas) and every known token held, in base units and whole units, with USD values.",
  inputSchema: WalletOnly,
  annotations: { title: "Escrow balances", readOnlyHint: true, openWorldHint: false },
  scope: "wallet",
  requiresEscrow: true,
  async handler(args, ctx) {
    const b = await ctx.services.wallets.balances(ctx.principal, args.wallet);
    const lines = b.balances.map((e) => `- ${e.amountFormatted} ${e.symbol}${e.usdValue === null ? "" : ` ($${e.usdValue.toFixed(2)})`}`);
    const text = [`Wallet "${b.name}" (${b.walletId}) at ${b.address}: ${b.balanceUsd === null ? "USD value unknown" : `$${b.balanceUsd.toFixed(2)}`}`, ...lines, ...(b.warnings ?? []).map((w) => `Note: ${w}`)].join("\n");
    return ok(text, { walletId: b.walletId, name: b.name, address: b.address, balanceUsd: b.balanceUsd, balances: b.balances });
  },
});

export const WALLET_TOOLS = [createEscrowWalletTool, updateEscrowWalletTool, listEscrowWalletsTool, getEscrowBalancesTool];
