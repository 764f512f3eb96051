/**
 * Simulation into the neutral report (SPEC 2.8), derived from the accounts' state, not from what the
 * instructions claim: pre = getMultipleAccounts(writable accounts), post = simulateTransaction with
 * `accounts` (sigVerify off, blockhash replaced), then a diff.
 *
 * - SOL: the wallet's lamport decrease minus the fee is the SOL out, attributed to the accounts whose
 *   lamports rose (a new token account's rent goes to that account's owner); a rise of the wallet is SOL in.
 * - SPL: token accounts (Token and Token-2022 base layout) pre/post, per mint: the wallet's share
 *   (accounts it owns) is the change, the owners whose share rose are the counterparties. Recipients are
 *   token-account owners, never ATA addresses; tokens are mints.
 * - Control without movement: a delegate set on a wallet token account (Approve) is an `approval` change
 *   (u64::MAX is unlimited) and a `warn` warning; a wallet token account's owner or close authority
 *   changed (SetAuthority) or the wallet's system account assigned to a program (System Assign) is an
 *   `authority` change and a `block` warning (held for the owner whatever the verdict).
 * - Programs other than System, SPL Token, ATA, Compute Budget and Memo raise a `block` warning
 *   (`solana_unknown_program`): their effects beyond balances are not modelled, so they never run on their
 *   own. Token-2022 likewise (`solana_token_2022`: transfer fees and hooks are not decoded).
 */
import type { Address } from "@solana/kit";
import { formatUnits } from "../../lib/money";
import { ChainUnavailableError, type AssetRegistry, type WalletRef } from "../port";
import { NATIVE, type AssetChange, type ChainInfo, type ChainWarning, type RawChange, type Simulated, type SimulationReport } from "../types";
import type { SolanaClient } from "./client";
import { solanaAddressCodec } from "./codec";
import { inputError } from "./errors";
import { buildMessage, type SolanaPayload } from "./payload";
import { fetchLookupTables } from "./plan";
import { ASSOCIATED_TOKEN_PROGRAM, COMPUTE_BUDGET_PROGRAM, decodeMintAccount, decodeTokenAccount, MEMO_PROGRAM, SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, type TokenAccountState } from "./spl";
import { estimateFeeOfMessage } from "./fees";

const KNOWN_PROGRAMS = new Set([SYSTEM_PROGRAM, TOKEN_PROGRAM, ASSOCIATED_TOKEN_PROGRAM, COMPUTE_BUDGET_PROGRAM, MEMO_PROGRAM, "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo"]);
const U64_MAX = 0xffffffffffffffffn;

interface Acct {
  lamports: bigint;
  owner: string;
  data: Uint8Array;
}

export interface SimulateDeps {
  client: SolanaClient;
  assets: AssetRegistry;
  info: ChainInfo;
}

type RpcAccount = { lamports: bigint; owner: string; data: readonly [string, string] } | null;
const toAcct = (a: RpcAccount): Acct | null => (a ? { lamports: BigInt(a.lamports), owner: String(a.owner), data: new Uint8Array(Buffer.from(a.data[0], "base64")) } : null);

/** Lookup tables still hold the pinned entries? Returns the tables, or the reason they do not. */
export async function checkPinnedTables(client: SolanaClient, payload: SolanaPayload): Promise<{ tables: Record<string, string[]> } | { changed: string }> {
  if (payload.kind !== "solana_transaction" || !payload.lookups.length) return { tables: {} };
  const tables = await fetchLookupTables(client, payload.lookups.map((l) => l.table));
  for (const l of payload.lookups) {
    const t = tables[l.table];
    if (!t) return { changed: `address lookup table ${l.table} no longer exists or was deactivated` };
    for (const e of l.entries) if (t[e.index] !== e.address) return { changed: `address lookup table ${l.table} changed at index ${e.index} since the proposal was made` };
  }
  return { tables };
}

export async function simulateSolana(d: SimulateDeps, wallet: WalletRef, payload: SolanaPayload, declared: RawChange[] = []): Promise<Simulated> {
  const simulatedAt = new Date().toISOString();
  const base = { caip2: d.info.caip2, simulatedAt, provider: "simulateTransaction", declared: false, logsExcerpt: [] as string[], gasUsed: "0" };
  let pre: (Acct | null)[];
  let sim;
  let built;
  try {
    const pins = await checkPinnedTables(d.client, payload);
    if ("changed" in pins) return reverted(base, pins.changed, [], []);
    const latest = await d.client.call("getLatestBlockhash", () => d.client.rpc.getLatestBlockhash({ commitment: "confirmed" }).send());
    built = await buildMessage(payload, latest.value, pins.tables);
    const writable = built.writable;
    const chunks: string[][] = [];
    for (let i = 0; i < writable.length; i += 100) chunks.push(writable.slice(i, i + 100));
    pre = [];
    for (const c of chunks) {
      const r = await d.client.call("getMultipleAccounts", () => d.client.rpc.getMultipleAccounts(c as Address[], { encoding: "base64", commitment: "confirmed" }).send());
      pre.push(...r.value.map((a) => toAcct(a as RpcAccount)));
    }
    sim = await d.client.call("simulateTransaction", () =>
      d.client.rpc
        .simulateTransaction(built!.unsignedWire as never, {
          encoding: "base64",
          sigVerify: false,
          replaceRecentBlockhash: true,
          commitment: "confirmed",
          accounts: { addresses: writable as Address[], encoding: "base64" },
        })
        .send(),
    );
  } catch (err) {
    // Not an outage: the message could not be compiled here (a named transfer to a program id, which may not be
    // writable), or the node refused its shape (JSON-RPC invalid params). The caller's input; nothing to hold.
    if (!(err instanceof ChainUnavailableError) || rpcCode(err) === -32602) {
      const field = payload.kind === "transfer" ? "input.transfer.to" : "input.transaction";
      throw inputError(`${field}: the cluster cannot run this transaction: ${(err as Error).message.replace(/^Solana RPC \w+ failed: /, "").slice(0, 300)}`, field);
    }
    return unavailable(d, base, (err as Error).message, declared);
  }
  const v = sim.value;
  const logs = (v.logs ?? []).map(String);
  const gasUsed = String(v.unitsConsumed ?? 0n);
  if (v.err) {
    const errJson = JSON.stringify(v.err, (_k, x) => (typeof x === "bigint" ? Number(x) : x));
    const field = payload.kind === "transfer" ? "input.transfer.amount" : "input.transaction";
    // The wallet cannot pay the fee, or would be left below rent exemption: the caller's input, not a verdict.
    if (/InsufficientFundsForFee|"AccountNotFound"|AccountNotFound/.test(errJson) || /InsufficientFundsForRent[^}]*"account_index":0\b/.test(errJson)) {
      throw inputError(`${field}: the wallet could not pay this transaction's fee and keep its rent-exempt minimum (${errJson}); fund the wallet with SOL or send less`, field);
    }
    // A new recipient account must start rent-exempt: too little SOL to a fresh address is the amount's fault.
    if (payload.kind === "transfer" && payload.asset === NATIVE && /InsufficientFundsForRent[^}]*"account_index":[1-9]/.test(errJson)) {
      throw inputError(`input.transfer.amount: ${formatUnits(BigInt(payload.amount), 9)} SOL would leave the recipient below the rent-exempt minimum (0.00089088 SOL for an empty account); send at least that much`, "input.transfer.amount");
    }
    if (payload.kind === "transfer" && payload.asset === NATIVE && /"Custom":1\b/.test(errJson)) {
      throw inputError(`input.transfer.amount: the wallet holds less SOL than the amount plus the fee`, "input.transfer.amount");
    }
    return reverted({ ...base, gasUsed, logsExcerpt: logs.slice(-10) }, `simulation failed: ${errJson}`, [], logs);
  }
  const post = (v.accounts ?? []).map((a) => toAcct(a as unknown as RpcAccount));
  const fee = estimateFeeOfMessage(built.tx.messageBytes as unknown as Uint8Array);
  const { raw, warnings } = diff(wallet.address, built.writable, pre, post, fee);
  const programs = new Set(payload.kind === "solana_transaction" ? payload.instructions.map((i) => i.programAddress) : []);
  for (const p of programs) {
    if (p === TOKEN_2022_PROGRAM) warnings.push({ code: "solana_token_2022", severity: "block", message: "the transaction calls Token-2022, whose extensions (transfer fees, hooks, permanent delegates) this service does not decode: held for the owner" });
    else if (!KNOWN_PROGRAMS.has(p)) warnings.push({ code: "solana_unknown_program", severity: "block", message: `the transaction calls program ${p}, whose effects beyond balances this service does not model: held for the owner` });
  }
  const changes = await priceChanges(d, raw, post, built.writable);
  return { report: report({ ...base, gasUsed, logsExcerpt: logs.slice(-10) }, "clean", "", changes, warnings), warnings };
}

function diff(wallet: string, addresses: string[], pre: (Acct | null)[], post: (Acct | null)[], fee: bigint): { raw: RawChange[]; warnings: ChainWarning[] } {
  const raw: RawChange[] = [];
  const warnings: ChainWarning[] = [];
  const walletIdx = addresses.indexOf(wallet);
  const wPre = pre[walletIdx]?.lamports ?? 0n;
  const wPost = post[walletIdx]?.lamports ?? 0n;
  const solOut = wPre - wPost - fee;

  // SOL recipients: accounts whose lamports rose (a created token account's rent: its owner).
  const risers: { counterparty: string; amount: bigint }[] = [];
  const fallers: { counterparty: string; amount: bigint }[] = [];
  addresses.forEach((addr, i) => {
    if (i === walletIdx) return;
    const d = (post[i]?.lamports ?? 0n) - (pre[i]?.lamports ?? 0n);
    const tok = post[i] ? decodeTokenAccount(post[i]!.owner, post[i]!.data) : pre[i] ? decodeTokenAccount(pre[i]!.owner, pre[i]!.data) : null;
    const counterparty = tok ? tok.owner : addr;
    if (d > 0n) risers.push({ counterparty, amount: d });
    if (d < 0n) fallers.push({ counterparty, amount: -d });
  });
  if (solOut > 0n) {
    let left = solOut;
    const byParty = new Map<string, bigint>();
    for (const r of risers) {
      if (left <= 0n) break;
      const take = r.amount < left ? r.amount : left;
      byParty.set(r.counterparty, (byParty.get(r.counterparty) ?? 0n) + take);
      left -= take;
    }
    if (left > 0n) byParty.set("unknown", (byParty.get("unknown") ?? 0n) + left);
    for (const [counterparty, amount] of byParty) raw.push({ direction: "out", assetType: "native", changeType: "transfer", token: NATIVE, rawAmount: amount, counterparty, unlimited: false });
  } else if (solOut < 0n) {
    fallers.sort((a, b) => (b.amount > a.amount ? 1 : -1));
    raw.push({ direction: "in", assetType: "native", changeType: "transfer", token: NATIVE, rawAmount: -solOut, counterparty: fallers[0]?.counterparty ?? "unknown", unlimited: false });
  }

  // SPL: the wallet's share per mint, counterparties by share change.
  const share = new Map<string, Map<string, bigint>>(); // mint -> owner -> delta
  const add = (mint: string, owner: string, v: bigint) => {
    const m = share.get(mint) ?? new Map<string, bigint>();
    m.set(owner, (m.get(owner) ?? 0n) + v);
    share.set(mint, m);
  };
  addresses.forEach((addr, i) => {
    const a = pre[i] ? decodeTokenAccount(pre[i]!.owner, pre[i]!.data) : null;
    const b = post[i] ? decodeTokenAccount(post[i]!.owner, post[i]!.data) : null;
    if (a) add(a.mint, a.owner, -a.amount);
    if (b) add(b.mint, b.owner, b.amount);
    controlChanges(wallet, addr, a, b, raw, warnings);
  });
  for (const [mint, owners] of share) {
    const mine = owners.get(wallet) ?? 0n;
    if (mine === 0n) continue;
    const others = [...owners].filter(([o]) => o !== wallet);
    if (mine < 0n) {
      const to = others.filter(([, v]) => v > 0n).sort((x, y) => (y[1] > x[1] ? 1 : -1))[0]?.[0] ?? "unknown";
      raw.push({ direction: "out", assetType: "spl", changeType: "transfer", token: mint, rawAmount: -mine, counterparty: to, unlimited: false });
    } else {
      const from = others.filter(([, v]) => v < 0n).sort((x, y) => (x[1] > y[1] ? 1 : -1))[0]?.[0] ?? "unknown";
      raw.push({ direction: "in", assetType: "spl", changeType: "transfer", token: mint, rawAmount: mine, counterparty: from, unlimited: false });
    }
  }

  // System Assign of the wallet: its account now belongs to a program.
  const wa = pre[walletIdx];
  const wb = post[walletIdx];
  if (wa && wb && wa.owner === SYSTEM_PROGRAM && wb.owner !== SYSTEM_PROGRAM) {
    raw.push({ direction: "out", assetType: "native", changeType: "authority", token: NATIVE, rawAmount: wb.lamports, counterparty: wb.owner, unlimited: true });
    warnings.push({ code: "solana_account_assigned", severity: "block", message: `the wallet's account would be assigned to program ${wb.owner}, which could then move all its SOL` });
  }
  return { raw, warnings };
}

function controlChanges(wallet: string, addr: string, a: TokenAccountState | null, b: TokenAccountState | null, raw: RawChange[], warnings: ChainWarning[]) {
  if (!b) return;
  const walletOwned = (a?.owner ?? b.owner) === wallet;
  if (!walletOwned) return;
  if (a && a.owner === wallet && b.owner !== wallet) {
    raw.push({ direction: "out", assetType: "spl", changeType: "authority", token: b.mint, rawAmount: b.amount, counterparty: b.owner, unlimited: true });
    warnings.push({ code: "solana_authority_change", severity: "block", message: `token account ${addr} (${b.mint}) would be handed to ${b.owner} (SetAuthority: account owner)` });
  }
  if (b.owner === wallet && b.delegate && (a?.delegate !== b.delegate || b.delegatedAmount > (a?.delegatedAmount ?? 0n))) {
    raw.push({ direction: "out", assetType: "spl", changeType: "approval", token: b.mint, rawAmount: b.delegatedAmount, counterparty: b.delegate, unlimited: b.delegatedAmount === U64_MAX });
    warnings.push({ code: "solana_token_delegate", severity: "warn", message: `${b.delegate} would be allowed to move ${b.delegatedAmount === U64_MAX ? "all" : b.delegatedAmount.toString()} base units of ${b.mint} from the wallet (token Approve)` });
  }
  if (b.owner === wallet && b.closeAuthority && b.closeAuthority !== wallet && a?.closeAuthority !== b.closeAuthority) {
    raw.push({ direction: "out", assetType: "spl", changeType: "authority", token: b.mint, rawAmount: b.amount, counterparty: b.closeAuthority, unlimited: true });
    warnings.push({ code: "solana_authority_change", severity: "block", message: `${b.closeAuthority} would become the close authority of the wallet's token account ${addr} (SetAuthority: close account)` });
  }
}

async function priceChanges(d: SimulateDeps, raw: RawChange[], post: (Acct | null)[], _writable: string[]): Promise<AssetChange[]> {
  // Decimals of mints the registry does not know: read the mint accounts once.
  const unknown = [...new Set(raw.filter((r) => r.token !== NATIVE && !d.assets.byAddress(r.token)).map((r) => r.token))];
  const decimals = new Map<string, number>();
  if (unknown.length) {
    try {
      const r = await d.client.call("getMultipleAccounts", () => d.client.rpc.getMultipleAccounts(unknown as Address[], { encoding: "base64" }).send());
      r.value.forEach((a, i) => {
        const m = a ? decodeMintAccount(String(a.owner), new Uint8Array(Buffer.from(a.data[0], "base64"))) : null;
        if (m) decimals.set(unknown[i]!, m.decimals);
      });
    } catch {
      /* unpriced and unformatted below */
    }
  }
  void post;
  const out: AssetChange[] = [];
  for (const r of raw) out.push(await priceOne(d, r, decimals));
  return out;
}

export async function priceOne(d: { assets: AssetRegistry }, r: RawChange, decimalsOf: Map<string, number> = new Map()): Promise<AssetChange> {
  const token = r.token === NATIVE ? null : d.assets.byAddress(r.token);
  const decimals = r.token === NATIVE ? d.assets.native.decimals : (token?.decimals ?? decimalsOf.get(r.token) ?? 0);
  const price = await d.assets.usd(r.token).catch(() => null);
  const amount = formatUnits(r.rawAmount, decimals);
  const usd = price === null ? null : Math.round(Number(amount) * price * 1e6) / 1e6;
  return {
    direction: r.direction,
    assetType: r.assetType,
    changeType: r.changeType,
    symbol: r.token === NATIVE ? d.assets.native.symbol : (token?.symbol ?? `${r.token.slice(0, 4)}...`),
    name: r.token === NATIVE ? d.assets.native.name : (token?.name ?? "Unknown SPL token"),
    contractAddress: r.token,
    rawAmount: r.rawAmount.toString(),
    decimals,
    amount,
    usdValue: usd,
    counterparty: r.counterparty === "unknown" ? "unknown" : r.counterparty,
    logoUrl: token?.logoUrl ?? null,
    ...(r.changeType === "approval" || r.changeType === "authority" ? { unlimited: r.unlimited } : {}),
  };
}

function report(base: Pick<SimulationReport, "caip2" | "simulatedAt" | "provider" | "declared" | "logsExcerpt" | "gasUsed">, status: SimulationReport["status"], error: string, changes: AssetChange[], warnings: ChainWarning[]): SimulationReport {
  const sum = (dir: "in" | "out") => Math.round(changes.filter((c) => c.direction === dir && c.changeType === "transfer").reduce((s, c) => s + (c.usdValue ?? 0), 0) * 1e6) / 1e6;
  return {
    ok: status === "clean",
    status,
    declared: base.declared,
    wouldRevert: status === "reverted",
    error,
    caip2: base.caip2,
    changes,
    totalUsdOut: sum("out"),
    totalUsdIn: sum("in"),
    gasUsed: base.gasUsed,
    logsExcerpt: base.logsExcerpt,
    warnings: warnings.map((w) => w.message),
    simulatedAt: base.simulatedAt,
    provider: base.provider,
  };
}

function reverted(base: Parameters<typeof report>[0], error: string, changes: AssetChange[], logs: string[]): Simulated {
  return { report: report({ ...base, logsExcerpt: logs.slice(-10) }, "reverted", error, changes, []), warnings: [] };
}

async function unavailable(d: SimulateDeps, base: Parameters<typeof report>[0], error: string, declared: RawChange[]): Promise<Simulated> {
  const changes = await Promise.all(declared.map((r) => priceOne(d, r)));
  const warnings: ChainWarning[] = [{ code: "simulation_unavailable", severity: "block", message: `the Solana RPC could not simulate: ${error.slice(0, 200)}` }];
  return { report: report({ ...base, declared: true, provider: "none" }, "unavailable", error.slice(0, 500), changes, warnings), warnings };
}

/** The JSON-RPC error code behind a failed RPC call (kit's SolanaError context), if any. */
const rpcCode = (err: unknown): number | undefined => (err as { cause?: { context?: { __code?: number } } }).cause?.context?.__code;

export const _forTests = { diff, display: solanaAddressCodec.display };
