/** The wallet verbs the transports call (HTTP, MCP, dashboard, admin). One file per verb. */
import type { Principal } from "../accounts/principal";
import { archiveWallet, unarchiveWallet } from "./archive";
import { getBalances } from "./balances";
import { createWallet } from "./create";
import { getWallet, listWallets } from "./list";
import type { CreateWalletInput, UpdateWalletInput } from "./schemas";
import { limitsChainOf, type WalletsDeps } from "./types";
import { mergeLimits, type Limits, type LimitsPatch } from "./limits";
import { updateWallet } from "./update";
import { approveRuleChange, defaultWhoMayLoosen, expireRuleChanges, rejectRuleChange, ruleChanges, setDefaultWhoMayLoosen, setWhoMayLoosen } from "./rule-decisions";
import type { WhoMayLoosen } from "./rule-changes";

export function createWalletsService(deps: WalletsDeps) {
  return {
    /** Whether escrow wallets can be created and used on this deployment (a Base chain is configured). */
    configured: () => deps.chains.all().length > 0,
    /** The chains wallets can be created on here, in registration order (the dashboard's chain choice). */
    chains: () => deps.chains.all().map((a) => ({ key: a.info.key, name: a.info.name, safeMode: a.info.safeMode !== false, address: a.address.describe })),
    /** What an update's limits would become (the dashboard's preview), with the wallet chain's codec and tokens. */
    previewLimits: (chain: string, current: Limits, patch: LimitsPatch) => mergeLimits(current, patch, limitsChainOf(deps, chain)),
    create: (p: Principal, input: CreateWalletInput) => createWallet(deps, p, input),
    list: (p: Principal, opts?: { includeArchived?: boolean }) => listWallets(deps, p, opts),
    get: (p: Principal, ref: string) => getWallet(deps, p, ref),
    balances: (p: Principal, ref: string) => getBalances(deps, p, ref),
    update: (p: Principal, ref: string, input: UpdateWalletInput) => updateWallet(deps, p, ref, input),
    /** The owner's (dashboard session only): who may loosen a wallet's rules, and the account's default for new wallets. */
    setWhoMayLoosen: (p: Principal, ref: string, value: WhoMayLoosen) => setWhoMayLoosen(deps, p, ref, value),
    setDefaultWhoMayLoosen: (p: Principal, value: WhoMayLoosen) => setDefaultWhoMayLoosen(deps, p, value),
    defaultWhoMayLoosen: (p: Principal) => defaultWhoMayLoosen(deps, p),
    /** The owner's: the wallet's rule-change audit trail (pending changes included), and the decisions about pending ones. */
    ruleChanges: (p: Principal, ref: string, limit?: number) => ruleChanges(deps, p, ref, limit),
    approveRuleChange: (p: Principal, ref: string, changeId: string) => approveRuleChange(deps, p, ref, changeId),
    rejectRuleChange: (p: Principal, ref: string, changeId: string) => rejectRuleChange(deps, p, ref, changeId),
    /** Background (the escrow sweep): pending rule changes past their window become `expired`. */
    expireRuleChanges: () => expireRuleChanges(deps),
    /** Operators only (admin API): by globally unique wallet id. */
    archive: (walletId: string) => archiveWallet(deps, walletId),
    unarchive: (walletId: string) => unarchiveWallet(deps, walletId),
  };
}
export type WalletsService = ReturnType<typeof createWalletsService>;
