/**
 * x402 payments from an escrow wallet (MCP `escrow_pay_x402`, SPEC 4.12): the service requests the URL
 * itself, reads the x402 v2 terms of its 402 answer, and proposes exactly that payment through the same
 * pipeline as every other proposal: a declared simulation (the transfer the authorization allows, checked
 * against the wallet's balance), the wallet's limits, the judge, then execution (kind.ts) on an autonomous
 * wallet or the owner's confirmation on a safe one.
 *
 * Refused before anything is recorded or charged (400 propose_failed): a non-EVM or self-custodial
 * (`custody: embedded`) wallet, a URL the SSRF guard refuses, a redirect, an answer that is not a 402 with
 * terms this wallet can pay, an invoice above `maxAmount`. An unreachable resource is 502 propose_failed.
 */
import { evmChainOf } from "../../chains/evm/adapter";
import { getAddress, type Address } from "viem";
import type { Principal } from "../../accounts/principal";
import { ServiceError } from "../../lib/errors";
import { formatUnits, parseUnitsStrict } from "../../lib/money";
import { proposeConflict, proposeFailed } from "../../proposals/errors";
import type { ProposalResult } from "../../proposals/present";
import type { ProposalsService } from "../../proposals/service";
import { keccakCanonical } from "../../lib/hashing";
import type { WalletSigner } from "../../chains/evm/custody";
import { assertCanPayX402 } from "../../wallets/custody/embedded";
import { findWallet } from "../../wallets/repo";
import type { EscrowChains } from "../../wallets/types";
import type { Database } from "../../db/client";
import type { Clock } from "../../lib/clock";
import { FetchFailed, FetchRefused, guardedFetch, type GuardedFetchOptions } from "../../net/ssrf-fetch";
import { createX402Kind, TERMS_BODY_MAX, X402_KIND, type X402Payload } from "./kind";
import { declaredPayment, tokenInfo } from "./onchain";
import { insertPayment } from "./store";
import { chooseTerms, TermsError } from "./terms";

export interface X402PayOptions {
  db: Database;
  clock: Clock;
  chains: EscrowChains;
  signer: WalletSigner;
  proposals: ProposalsService;
  /** SSRF guard settings: production leaves them off (https only, no loopback). */
  fetch: GuardedFetchOptions;
}

export interface PayRequest {
  wallet: string;
  url: string;
  method?: "GET" | "POST";
  /** Whole tokens; the invoice must not be higher. */
  maxAmount?: string;
  note?: string;
}

export type PayResult = ProposalResult & { payment?: Record<string, unknown> };

const short = (a: string) => `${a.slice(0, 6)}...${a.slice(-4)}`;

export function createX402PayService(o: X402PayOptions) {
  o.proposals.registerKind(X402_KIND, createX402Kind({ signer: o.signer, fetch: o.fetch }));

  return {
    async pay(principal: Principal, req: PayRequest): Promise<PayResult> {
      const wallet = await findWallet(o.db, principal.accountId, req.wallet);
      if (wallet.archived_at) throw proposeConflict("the wallet is archived and cannot transact; an operator can unarchive it");
      const chain = evmChainOf(o.chains.forWallet(wallet.chain));
      if (wallet.chain !== "base" && wallet.chain !== "ethereum") throw proposeFailed(`x402 payments from a wallet are available on EVM wallets only; this wallet is on ${wallet.chain}`);
      // Before any outbound request: a self-custodial wallet has no key here, a legacy safe wallet cannot transact.
      assertCanPayX402(wallet);
      if (!chain) throw proposeConflict(`this ${wallet.chain} wallet cannot transact on this deployment (no ${wallet.chain} chain is configured)`);
      const method = req.method ?? "GET";

      let res;
      try {
        res = await guardedFetch(req.url, { method }, { ...o.fetch, maxBytes: TERMS_BODY_MAX, onOversize: "error" });
      } catch (err) {
        if (err instanceof FetchRefused) throw proposeFailed(`refused to request ${req.url.slice(0, 200)}: ${err.message}`);
        if (err instanceof FetchFailed) throw new ServiceError("upstream_failed", "propose_failed", `the resource could not be reached: ${err.message}; nothing was recorded or paid`);
        throw err;
      }
      if (res.redirectTo !== null) throw proposeFailed(`the resource answered a redirect (HTTP ${res.status}${res.redirectTo ? ` to ${res.redirectTo.slice(0, 200)}` : ""}); redirects are refused: call the final URL`);
      if (res.status !== 402) throw proposeFailed(`the resource answered HTTP ${res.status} without asking for a payment; nothing was recorded or paid`);
      let terms;
      try {
        terms = chooseTerms(res, { network: chain.info.caip2, isKnownToken: (a) => chain.tokens.byAddress(a) !== null });
      } catch (err) {
        if (err instanceof TermsError) throw proposeFailed(err.message);
        throw err;
      }
      const token = await tokenInfo(chain, terms.asset);
      if (!token) throw proposeFailed(`the payment asset ${terms.asset} does not answer as an ERC-20 token on ${chain.info.name}`);
      const human = formatUnits(terms.amount, token.decimals);
      if (req.maxAmount !== undefined) {
        let max: bigint;
        try {
          max = parseUnitsStrict(req.maxAmount.trim(), token.decimals);
        } catch (e) {
          throw proposeFailed(`maxAmount: ${(e as Error).message} (${token.symbol} has ${token.decimals} decimals)`);
        }
        if (terms.amount > max) throw proposeFailed(`the invoice asks ${human} ${token.symbol}, above maxAmount ${req.maxAmount} ${token.symbol}: refused; nothing was recorded or paid`);
      }

      const from = getAddress(wallet.address.toLowerCase()) as Address;
      const payload: X402Payload = {
        v: 1,
        kind: X402_KIND,
        chainId: chain.info.chainId,
        from,
        url: req.url,
        method,
        network: terms.option.network,
        scheme: "exact",
        asset: terms.asset,
        amount: terms.amount.toString(),
        payTo: terms.payTo,
      };
      const summary = `x402 payment of ${human} ${token.symbol} to ${short(terms.payTo)} for ${method} ${req.url.slice(0, 120)}`;
      const input = {
        kind: X402_KIND,
        chain: wallet.chain,
        url: req.url,
        method,
        ...(req.maxAmount !== undefined ? { maxAmount: req.maxAmount } : {}),
        payment: { amount: human, asset: token.symbol, assetAddress: terms.asset, payTo: terms.payTo, network: terms.option.network, scheme: "exact" },
      };
      const simulation = await declaredPayment(chain, { from, asset: terms.asset, amount: terms.amount, payTo: terms.payTo, url: req.url }, o.clock);
      const at = o.clock.now();
      return (await o.proposals.proposeBuilt(principal, wallet, {
        built: { kind: X402_KIND, payload, requestHash: keccakCanonical(payload), summary },
        input,
        note: req.note,
        source: "mcp",
        simulate: async () => simulation,
        onRecorded: (tx, proposalId) => insertPayment(tx, { proposalId, url: req.url, method, accepted: terms.option, resource: terms.resource, at }),
      })) as PayResult;
    },
  };
}
export type X402PayService = ReturnType<typeof createX402PayService>;
