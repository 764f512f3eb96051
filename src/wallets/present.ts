/** Wire shapes of wallets (SPEC 2.5, 2.6 and the MCP additions). */
import type { EvmChain } from "../chains/evm/chain";
import type { BalanceEntry } from "../chains/evm/balances";
import type { WalletSigner } from "./custody/signer";
import { enforcement, limitsFromRow, type Limits } from "./limits";
import type { WalletView } from "./repo";

export interface Wallet {
  id: string;
  name: string;
  chain: string;
  mode: "autonomous" | "safe";
  custody: "server" | "embedded";
  address: string;
  mandate: string | null;
  limits: Limits;
  balanceUsd: number | null;
  tokenCount: number;
  pendingCount: number;
  archivedAt: string | null;
  createdAt: string;
}

export interface WalletDetails {
  provider: string;
  rules: { limits: Limits; enforcement: Record<string, "signer" | "service" | "judge"> };
  explorerAddressUrl: string | null;
  gas: { asset: "ETH"; note: string };
}

export interface Balances {
  walletId: string;
  name: string;
  chain: string;
  address: string;
  balanceUsd: number | null;
  balances: BalanceEntry[];
  /** Present when balances could not be read or some assets have no price. */
  warnings?: string[];
}

export function walletWire(row: WalletView, live: { balanceUsd: number | null; tokenCount: number }, pendingCount: number): Wallet {
  return {
    id: row.id,
    name: row.name,
    chain: row.chain,
    mode: row.mode as Wallet["mode"],
    custody: row.custody as Wallet["custody"],
    address: row.address,
    mandate: row.mandate,
    limits: limitsFromRow(row.limits),
    balanceUsd: live.balanceUsd,
    tokenCount: live.tokenCount,
    pendingCount,
    archivedAt: row.archived_at ? new Date(row.archived_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export function walletDetails(row: WalletView, chain: EvmChain | null, signer: WalletSigner): WalletDetails {
  const limits = limitsFromRow(row.limits);
  return {
    // An embedded wallet's row names the owner's wallet as its signer (custody/embedded.ts), not the custodian.
    provider: row.custody === "embedded" ? row.signer : signer.provider,
    rules: { limits, enforcement: enforcement(limits, signer.enforcesLimits, !!row.mandate) },
    explorerAddressUrl: chain?.explorerAddressUrl(row.address) ?? null,
    gas: { asset: "ETH", note: gasNote(chain) },
  };
}

export function gasNote(chain: EvmChain | null): string {
  const base =
    "The wallet pays its own gas in ETH on Base: keep a small ETH balance besides the funds it moves (about 0.001 ETH covers many transfers on Base). " +
    "A proposal whose gas the wallet cannot pay is blocked by the simulation. The first batch (evm_calls) also delegates the wallet to the batch executor (EIP-7702), which costs a little extra gas once.";
  return chain?.sandbox ? `${base} Sandbox: fund it with the faucet (POST /admin/v1/sandbox/fund, or npm run cli -- sandbox fund).` : base;
}
