/**
 * The `x402_payment` proposal kind: how the pipeline carries out, re-checks, reconciles and shows an x402
 * payment from an escrow wallet (registered with proposals.registerKind; see docs/swaps-and-payments.md).
 *
 * Execution, crash-safe in the same way as a transaction:
 *  1. Under the wallet and proposal locks: the proposal must still be in the expected status, its
 *     requestHash must match the stored payload, and the stored terms must name the payload's amount,
 *     asset and payTo. The EIP-3009 authorization is signed, and its nonce and validBefore are stored with
 *     the move to `executing` in the same transaction. Nothing is sent before that commit.
 *  2. The resource is requested again with `PAYMENT-SIGNATURE` (SSRF-guarded, no redirects).
 *  3. The token contract decides what happened (`authorizationState(from, nonce)`), not the resource's
 *     status code: used -> `executed` (the settlement transaction checked on chain), whatever the status;
 *     not used -> the proposal stays `executing` until validBefore has passed (a resource holding the
 *     signature could still submit it), then reconcile makes it `failed` ("expired unused: nothing moved").
 *     The resource's answer (status, up to 8,000 characters) is stored either way.
 */
import { evmChainOf } from "../../chains/evm/adapter";
import type { Address, Hex } from "viem";
import type { SimulationReport } from "../../chains/evm/simulate";
import { keccakCanonical } from "../../lib/hashing";
import { invalidState } from "../../proposals/errors";
import { findProposal, lockProposal, transition, type ProposalRow } from "../../proposals/repo";
import { refusedByRules } from "../../proposals/rules-guard";
import { effectiveStatus } from "../../proposals/state";
import type { ProposalKindHandler, ProposalsDeps } from "../../proposals/types";
import type { KeyHandle, WalletSigner } from "../../chains/evm/custody";
import { lockWallet } from "../../wallets/repo";
import { unclaimed } from "../../db/claim";
import { FetchFailed, FetchRefused, guardedFetch, type GuardedFetchOptions, type GuardedResponse } from "../../net/ssrf-fetch";
import { decodePaymentResponseHeader, encodePaymentSignatureHeader, PAYMENT_RESPONSE_HEADER, PAYMENT_SIGNATURE_HEADER } from "../requirements";
import { authorizationUsed, declaredPayment, findSettlementTx, isSettlementOf } from "./onchain";
import { signExactPayment } from "./sign";
import { findPayment, markCompleted, payDb, recordResponse, recordSigned, refreshTerms, type PaymentRow } from "./store";
import { chooseTerms, TermsError } from "./terms";

export const X402_KIND = "x402_payment";
/** SPEC 8: up to 8,000 characters of the resource's answer are returned. */
export const RESPONSE_TEXT_MAX = 8000;
/** A 402 answer with terms is small; anything larger is refused. */
export const TERMS_BODY_MAX = 64 * 1024;
/** Bytes read of the paid answer (more is cut: only 8,000 characters are kept). */
export const PAID_BODY_MAX = 256 * 1024;
/** Wall-clock margin past validBefore before an unused authorization is declared dead. */
const EXPIRY_MARGIN_MS = 60_000;

/** The payload the wallet's authorization answers; requestHash = keccak256 of its canonical JSON. */
export interface X402Payload {
  v: 1;
  kind: typeof X402_KIND;
  chainId: number;
  from: Address;
  url: string;
  method: "GET" | "POST";
  network: string;
  scheme: "exact";
  asset: Address;
  amount: string;
  payTo: Address;
}

export interface X402KindOptions {
  signer: WalletSigner;
  fetch: GuardedFetchOptions;
}

/** UTF-8 text of a body, storable in PostgreSQL (no NUL, no lone surrogates), cut at 8,000 characters. */
export function responseText(body: Buffer): { text: string; cut: boolean } {
  const full = body.toString("utf8").replaceAll("\u0000", "").toWellFormed();
  return { text: full.slice(0, RESPONSE_TEXT_MAX), cut: full.length > RESPONSE_TEXT_MAX };
}

/** The terms' amount, asset, payTo and network against the payload's; null when they agree. */
export function termsDiffer(p: X402Payload, t: { amount: bigint; asset: string; payTo: string; network: string }): string | null {
  const diffs: string[] = [];
  if (t.amount.toString() !== p.amount) diffs.push(`amount ${t.amount} instead of ${p.amount}`);
  if (t.asset.toLowerCase() !== p.asset.toLowerCase()) diffs.push(`asset ${t.asset} instead of ${p.asset}`);
  if (t.payTo.toLowerCase() !== p.payTo.toLowerCase()) diffs.push(`payTo ${t.payTo} instead of ${p.payTo}`);
  if (t.network !== p.network) diffs.push(`network ${t.network} instead of ${p.network}`);
  return diffs.length ? diffs.join(", ") : null;
}

export function createX402Kind(o: X402KindOptions): ProposalKindHandler {
  const canExecute = (h: KeyHandle) => typeof o.signer.signTypedData === "function" && o.signer.canSign(h);

  /** Reads the outcome off the chain and moves the proposal; `res` null when no answer came. */
  async function settle(deps: ProposalsDeps, row: ProposalRow, pay: PaymentRow, res: GuardedResponse | null, failure: string | null): Promise<void> {
    const p = row.payload as X402Payload;
    const chain = evmChainOf(deps.chains.forWallet((await deps.db.selectFrom("wallets").select("chain").where("id", "=", row.wallet_id).executeTakeFirstOrThrow()).chain));
    const nonce = pay.auth_nonce as Hex;
    let settlement: Record<string, unknown> | null = null;
    const header = res?.headers[PAYMENT_RESPONSE_HEADER.toLowerCase()];
    if (header) {
      try {
        settlement = decodePaymentResponseHeader(header.trim()) as unknown as Record<string, unknown>;
      } catch {
        settlement = { unreadable: true };
      }
    }
    const body = res ? responseText(res.body) : null;
    const now = deps.clock.now();
    const used = chain ? await authorizationUsed(chain, p.asset, p.from, nonce) : null;
    await recordResponse(deps.db, row.id, { status: res?.status ?? null, text: body?.text ?? null, truncated: !!(body?.cut || res?.truncated), contentType: res?.headers["content-type"]?.slice(0, 200) ?? null, settlement, completed: used ? now : null });
    if (used && chain) {
      const claimed = typeof settlement?.transaction === "string" ? settlement.transaction : null;
      const txHash = claimed && (await isSettlementOf(chain, claimed, p.asset, p.from, nonce)) ? claimed : await findSettlementTx(chain, p.asset, p.from, nonce);
      const note = res && (res.status < 200 || res.status > 299) ? `paid (the authorization was used on chain), but the resource answered HTTP ${res.status}` : null;
      await transition(deps.db, row.id, "executing", "executed", now, { cap_at: now, error: note, tx_hash: txHash }).catch(() => transition(deps.db, row.id, "executing", "executed", now, { cap_at: now, error: note }));
      deps.logger.info({ proposalId: row.id, txHash, status: res?.status }, "x402 payment executed");
      return;
    }
    const until = pay.valid_before ? new Date(pay.valid_before).toISOString() : "its validBefore";
    const why = failure
      ? `no answer from the resource (${failure})`
      : res!.status === 402
        ? `the resource refused the payment (HTTP 402${reasonOf(res!, settlement)})`
        : `the resource answered HTTP ${res!.status}`;
    const state = used === false ? "the authorization has not been used on chain" : "the chain could not be read";
    const error = `${why}; ${state}. Nothing has moved yet; the signed authorization stays valid until ${until}, so this proposal stays executing until then and becomes failed if it is never used.`;
    await deps.db.updateTable("proposals").set({ error: error.slice(0, 1000), updated_at: now }).where("id", "=", row.id).where("status", "=", "executing").execute();
    deps.logger.warn({ proposalId: row.id, status: res?.status, used }, "x402 payment not settled");
  }

  return {
    canExecute,

    async execute(deps, id, from) {
      const { db, clock, logger } = deps;
      const row = await findProposal(db, null, id);
      const pay = await findPayment(db, id);
      const p = row.payload as X402Payload;
      const fail = async (error: string) => {
        await transition(db, id, from, "failed", clock.now(), { error });
        logger.warn({ proposalId: id, error }, "x402 payment failed before signing");
      };
      if (!pay) return fail("the payment's terms are missing; nothing was signed");
      const signed = await db.transaction().execute(async (tx) => {
        const w = await lockWallet(tx, row.wallet_id);
        const cur = await lockProposal(tx, id);
        const now = clock.now();
        if (effectiveStatus(cur.status, cur.approval_expires_at, now) !== from) return null;
        const refuse = async (error: string) => {
          await transition(tx, id, from, "failed", now, { error });
          return null;
        };
        if (await refusedByRules(deps, tx, cur, w, from, now)) return null;
        if (keccakCanonical(cur.payload) !== cur.request_hash) return refuse("requestHash mismatch: the stored payload does not hash to the proposal's requestHash; refused to sign");
        const fresh = (await findPayment(tx, id))!;
        const differ = termsDiffer(p, { amount: BigInt(fresh.accepted.amount), asset: fresh.accepted.asset, payTo: fresh.accepted.payTo, network: fresh.accepted.network });
        if (differ) return refuse(`the stored terms do not match the proposal (${differ}); refused to sign`);
        const handle = { walletId: w.id, address: w.address, keyRef: w.key_ref };
        if (!canExecute(handle)) return refuse("the custodian cannot sign this payment for this wallet");
        const s = await signExactPayment(o.signer, handle, { from: p.from, chainId: p.chainId, accepted: fresh.accepted, resource: fresh.resource, nowSeconds: Math.floor(Date.now() / 1000) });
        const moved = await tx.updateTable("proposals").set({ status: "executing", signed_at: now, error: null, updated_at: now }).where("id", "=", id).where("status", "=", from).executeTakeFirst();
        if (moved.numUpdatedRows === 0n) return null;
        await recordSigned(tx, id, { nonce: s.nonce, validBefore: new Date(s.validBefore * 1000), at: now });
        return s;
      });
      if (!signed) return;
      logger.info({ proposalId: id, url: p.url, nonce: signed.nonce }, "x402 payment signed; sending");
      let res: GuardedResponse | null = null;
      let failure: string | null = null;
      try {
        res = await guardedFetch(p.url, { method: p.method, headers: { [PAYMENT_SIGNATURE_HEADER]: encodePaymentSignatureHeader(signed.payload) } }, { ...o.fetch, maxBytes: PAID_BODY_MAX, onOversize: "truncate" });
      } catch (err) {
        if (err instanceof FetchRefused) {
          // Refused before connecting: the signature never left this process (and was never stored), so it can never be used.
          const at = clock.now();
          await transition(db, id, "executing", "failed", at, { error: `refused before sending the payment: ${err.message}; nothing was sent or moved`.slice(0, 1000) });
          await markCompleted(db, id, at);
          return;
        }
        failure = (err as Error).message.slice(0, 300);
      }
      await settle(deps, await findProposal(db, null, id), (await findPayment(db, id))!, res, failure);
    },

    async resimulate(deps, row) {
      const p = row.payload as X402Payload;
      const chain = evmChainOf(deps.chains.forWallet((await deps.db.selectFrom("wallets").select("chain").where("id", "=", row.wallet_id).executeTakeFirstOrThrow()).chain));
      if (!chain) throw invalidState("this wallet's chain is not configured on this deployment");
      const blocked = (block: string): { simulation: SimulationReport; block: string } => ({ simulation: row.simulation as SimulationReport, block });
      let res: GuardedResponse;
      try {
        res = await guardedFetch(p.url, { method: p.method }, { ...o.fetch, maxBytes: TERMS_BODY_MAX, onOversize: "error" });
      } catch (err) {
        if (err instanceof FetchRefused) return blocked(`the resource is refused now: ${err.message}`);
        if (err instanceof FetchFailed) throw invalidState(`the resource could not be reached to re-read its terms (${err.message}); nothing was paid; retry the confirmation`);
        throw err;
      }
      if (res.redirectTo !== null) return blocked(`the resource now redirects (HTTP ${res.status}); redirects are refused`);
      if (res.status !== 402) return blocked(`the resource no longer asks for a payment (HTTP ${res.status}); nothing was paid`);
      let terms;
      try {
        terms = chooseTerms(res, { network: p.network, isKnownToken: (a) => chain.tokens.byAddress(a) !== null });
      } catch (err) {
        if (err instanceof TermsError) return blocked(`the resource's terms changed since the proposal: ${err.message}`);
        throw err;
      }
      const differ = termsDiffer(p, { ...terms, network: terms.option.network });
      if (differ) return blocked(`the resource's terms changed since the proposal (${differ}); nothing was paid; propose again`);
      await refreshTerms(deps.db, row.id, terms.option, terms.resource, deps.clock.now());
      return { simulation: await declaredPayment(chain, { from: p.from, asset: p.asset, amount: BigInt(p.amount), payTo: p.payTo, url: p.url }, deps.clock) };
    },

    async reconcile(deps, { minAgeMs }) {
      const now = deps.clock.now();
      const rows = await payDb(deps.db)
        .selectFrom("proposals")
        .innerJoin("x402_payments", "x402_payments.proposal_id", "proposals.id")
        .select(["proposals.id"])
        .where("proposals.kind", "=", X402_KIND)
        .where("proposals.status", "=", "executing")
        .where("proposals.updated_at", "<=", new Date(now.getTime() - minAgeMs))
        .where("x402_payments.auth_nonce", "is not", null)
        .limit(200)
        .execute();
      const out = { executed: 0, failed: 0 };
      const claim = deps.claim ?? unclaimed;
      for (const { id } of rows) {
        // One process at a time per proposal (another sweeping process skips it); read once claimed.
        await claim("proposal", id, async () => {
          const row = await findProposal(deps.db, null, id);
          if (row.status !== "executing") return;
          const pay = (await findPayment(deps.db, id))!;
          const p = row.payload as X402Payload;
          const chain = evmChainOf(deps.chains.forWallet((await deps.db.selectFrom("wallets").select("chain").where("id", "=", row.wallet_id).executeTakeFirstOrThrow()).chain));
          if (!chain) return;
          const used = await authorizationUsed(chain, p.asset, p.from, pay.auth_nonce as Hex);
          const at = deps.clock.now();
          if (used) {
            const txHash = await findSettlementTx(chain, p.asset, p.from, pay.auth_nonce as Hex);
            if (await transition(deps.db, id, "executing", "executed", at, { cap_at: at, tx_hash: txHash, error: "settled on chain after the resource answered" })) out.executed++;
            await markCompleted(deps.db, id, at);
          } else if (used === false && pay.valid_before && Date.now() > new Date(pay.valid_before).getTime() + EXPIRY_MARGIN_MS) {
            if (await transition(deps.db, id, "executing", "failed", at, { error: "the signed authorization expired unused: nothing moved" })) out.failed++;
            await markCompleted(deps.db, id, at);
          }
        });
      }
      return out;
    },

    async present(deps, row) {
      const pay = await findPayment(deps.db, row.id);
      if (!pay) return null;
      const p = row.payload as X402Payload;
      const change = (row.simulation as SimulationReport | null)?.changes?.[0];
      const asked = (row.input as { payment?: { amount?: string; asset?: string } } | null)?.payment;
      const s = pay.settlement as Record<string, unknown> | null;
      return {
        payment: {
          url: p.url,
          method: p.method,
          network: p.network,
          asset: p.asset,
          symbol: change?.symbol ?? asked?.asset ?? null,
          amount: p.amount,
          amountHuman: change?.amount ?? asked?.amount ?? null,
          payTo: p.payTo,
          signed: pay.signed_at !== null,
          validBefore: pay.valid_before ? new Date(pay.valid_before).toISOString() : null,
          responseStatus: pay.response_status,
          response: pay.response_text,
          responseTruncated: pay.response_truncated ?? false,
          responseContentType: pay.response_content_type,
          settlement: s ? { success: s.success ?? null, transaction: s.transaction ?? null, network: s.network ?? null, payer: s.payer ?? null, errorReason: s.errorReason ?? null } : null,
          ...(row.status === "executing" && row.error ? { pending: row.error } : {}),
        },
      };
    },
  };
}

function reasonOf(res: GuardedResponse, settlement: Record<string, unknown> | null): string {
  if (typeof settlement?.errorReason === "string") return `: ${settlement.errorReason.slice(0, 120)}`;
  try {
    const j = JSON.parse(res.body.toString("utf8")) as Record<string, unknown>;
    if (typeof j.error === "string") return `: ${j.error.slice(0, 120)}`;
  } catch {
    // not JSON
  }
  return "";
}
