/**
 * Composition of swaps and x402 payments from escrow wallets (called once from createRuntime): the quote
 * provider the configuration names and the payment kind registered on the proposal pipeline. The HTTP swap
 * route and the MCP tools are mounted by the composition root (src/deps.ts): a capability never imports a
 * transport (docs/architecture.md, enforced by eslint.config.js).
 *
 * Provider: SWAP_PROVIDER, else `sandbox` on the sandbox chain, `0x` when ZEROX_API_KEY is set, else none
 * (swaps answer 503). With 0x in production the Settler a quote targets must be the one the 0x registry
 * names on chain; the sandbox chain has no registry, so that check is off there (tests with a fake 0x).
 * Outbound x402 requests: https only and no loopback in production; the sandbox allows http, and loopback
 * only with ALLOW_LOOPBACK_FETCH (config refuses it outside the sandbox).
 */
import type { Config } from "../config";
import type { Database } from "../db/client";
import type { Clock } from "../lib/clock";
import type { EvmChain } from "../chains/evm/chain";
import type { ProposalsService } from "../proposals/service";
import type { EvmSigner } from "../chains/evm/custody";
import type { ChainRegistry } from "../chains/port";
import { evmChainOf } from "../chains/evm/adapter";
import { createX402PayService } from "../x402/pay/service";
import { createSandboxPoolProvider } from "./sandbox-pool";
import { createSwapService } from "./service";
import type { QuoteProvider } from "./types";
import { createZeroExProvider, settlerFromRegistry } from "./zerox";

export const DEFAULT_ZEROX_API_URL = "https://api.0x.org";

export interface TradingOptions {
  config: Config;
  db: Database;
  clock: Clock;
  /** The chain adapters escrow wallets use (swaps and x402 payments run on the EVM ones). */
  chains: ChainRegistry;
  signer: EvmSigner;
  proposals: ProposalsService;
}

export function chooseQuoteProvider(config: Config, chain: EvmChain): QuoteProvider | null {
  const kind = config.SWAP_PROVIDER ?? (config.sandbox ? "sandbox" : config.ZEROX_API_KEY ? "0x" : "none");
  if (kind === "sandbox") return chain.sandbox ? createSandboxPoolProvider(chain) : null;
  if (kind === "0x" && config.ZEROX_API_KEY) {
    return createZeroExProvider({
      apiUrl: config.ZEROX_API_URL ?? DEFAULT_ZEROX_API_URL,
      apiKey: config.ZEROX_API_KEY,
      isSettler: chain.sandbox ? undefined : settlerFromRegistry((args) => chain.client.readContract(args)),
    });
  }
  return null;
}

export function createTrading(o: TradingOptions) {
  const chains = o.chains;
  const base = evmChainOf(chains.forWallet("base"));
  const provider = base ? chooseQuoteProvider(o.config, base) : null;
  const swaps = createSwapService({ db: o.db, chains, proposals: o.proposals, provider: (c) => (c === base ? provider : null) });
  const payments = createX402PayService({
    db: o.db,
    clock: o.clock,
    chains,
    signer: o.signer,
    proposals: o.proposals,
    fetch: { allowHttp: o.config.sandbox, allowLoopback: o.config.sandbox && o.config.ALLOW_LOOPBACK_FETCH === true },
  });
  return { swaps, payments, swapsConfigured: provider !== null };
}
