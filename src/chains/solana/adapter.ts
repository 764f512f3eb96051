/**
 * The Solana family's ChainAdapter (src/chains/port.ts): kinds `transfer` and `solana_transaction`,
 * ed25519 custody, simulation from account state, execution with a fresh blockhash.
 */
import type { AssetRegistry, ChainAdapter, WalletRef } from "../port";
import type { ChainInfo, FeeNeeds } from "../types";
import type { SolanaClient } from "./client";
import { solanaAddressCodec } from "./codec";
import type { Ed25519CustodySigner } from "./custody";
import { inputError } from "./errors";
import type { SolanaExplorer } from "./explorer";
import { requestHashOf, type SolanaPayload } from "./payload";
import { buildTransferPlan, planSolanaTransaction } from "./plan";
import { simulateSolana } from "./simulate";
import { broadcastSolana, lookupSolana, prepareSolana, signSolana, waitForFinalSolana } from "./send";
import { solanaBalances } from "./balances";

export const SOLANA_INPUT_KINDS = ["transfer", "solana_transaction"] as const;

export interface SolanaAdapter extends ChainAdapter<SolanaPayload> {
  readonly client: SolanaClient;
  readonly custody: Ed25519CustodySigner;
}

export interface CreateSolanaAdapterOptions {
  info: ChainInfo;
  client: SolanaClient;
  assets: AssetRegistry;
  custody: Ed25519CustodySigner;
  explorer: SolanaExplorer;
  receiptTimeoutMs?: number;
  pollMs?: number;
}

export function createSolanaAdapter(o: CreateSolanaAdapterOptions): SolanaAdapter {
  const simDeps = { client: o.client, assets: o.assets, info: o.info };
  const pollMs = o.pollMs ?? (o.info.sandbox ? 50 : 500);
  return {
    info: o.info,
    keyFamily: "ed25519",
    address: solanaAddressCodec,
    assets: o.assets,
    custody: o.custody,
    client: o.client,
    inputKinds: SOLANA_INPUT_KINDS,
    receiptTimeoutMs: o.receiptTimeoutMs ?? (o.info.sandbox ? 15_000 : 60_000),
    checkInputChain(input) {
      if (input.chain !== undefined && input.chain !== o.info.key) throw inputError(`wrong chain: this wallet is on solana, not ${String(input.chain)}`, "input.chain");
      if (input.caip2 !== undefined && input.caip2 !== o.info.caip2 && !o.info.names.includes(String(input.caip2).toLowerCase())) {
        throw inputError(`wrong chain: this wallet is on ${o.info.caip2}, not ${String(input.caip2)} (another Solana cluster's transaction cannot run here)`, "input.caip2");
      }
      if (!(SOLANA_INPUT_KINDS as readonly string[]).includes(input.kind)) throw inputError(`kind ${input.kind} is not available on Solana wallets (use transfer or solana_transaction)`, "input.kind");
    },
    requestHashOf: (p) => requestHashOf(p),
    buildTransfer: (wallet, t) => buildTransferPlan(o.assets, wallet, t),
    async plan(wallet: WalletRef, input) {
      if (input.kind === "transfer") return buildTransferPlan(o.assets, wallet, (input.transfer ?? {}) as { asset: string; amount: string; to: string });
      if (input.kind === "solana_transaction") return planSolanaTransaction(o.client, wallet, input.transaction);
      throw inputError(`kind ${input.kind} is not available on Solana wallets`, "input.kind");
    },
    simulate: (wallet, payload, opts) => simulateSolana(simDeps, wallet, payload, opts?.declared),
    fees: (): FeeNeeds => ({ asset: "SOL", note: "Fund the wallet with SOL for fees (5,000 lamports a signature) and rent: about 0.00204 SOL whenever a transfer creates the recipient's token account. A wallet must keep at least 0.00089 SOL or be emptied." }),
    prepare: (wallet, payload) => prepareSolana(o.client, wallet, payload),
    sign: (prepared, ctx) => signSolana(o.custody, prepared, ctx),
    broadcast: (signed) => broadcastSolana(o.client, signed),
    waitForFinal: (hash, timeoutMs) => waitForFinalSolana(o.client, hash, timeoutMs, pollMs),
    lookup: (record) => lookupSolana(o.client, record),
    balances: (address) => solanaBalances(o.client, o.assets, o.info.caip2, address),
    explorerTxUrl: (hash) => o.explorer.tx(hash),
    explorerAddressUrl: (address) => o.explorer.address(address),
  };
}
