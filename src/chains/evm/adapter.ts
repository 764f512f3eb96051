/**
 * The EVM family's implementation of the chain port (../port.ts) for one EVM chain (Base, or the sandbox
 * anvil standing in for it). Everything here delegates to the EVM modules beside it; the port's contract
 * (what each method promises, what it may throw) is written in ../port.ts.
 */
import { ChainInputError, ChainUnavailableError, type AssetRegistry, type ChainAdapter } from "../port";
import { NATIVE, type ChainWarning, type FeeNeeds, type ResolvedAsset } from "../types";
import { checkEvmAddress, looksLikeEvmAddress } from "./address";
import { readBalances } from "./balances";
import type { EvmChain } from "./chain";
import { evmAddressCodec } from "./codec";
import type { EvmSigner } from "./custody";
import { buildEvmProposal, checkChain, requestHashOf, simulationTxOf, transferPayload, type EvmInput, type EvmPayload } from "./plan";
import { withResidualAllowances } from "./residual";
import { broadcastEvm, lookupEvm, prepareEvm, signEvm, waitForFinalEvm } from "./send";
import { simulateEvm } from "./simulate";
import type { Clock } from "../../lib/clock";

export interface EvmAdapter extends ChainAdapter<EvmPayload> {
  /** The EVM client, for the EVM-only features beside the port (swaps, x402 payments, self-custody). */
  readonly evm: EvmChain;
  readonly custody: EvmSigner;
}

/** The EVM chain behind an adapter, or null for an adapter of another family. */
export const evmChainOf = (a: ChainAdapter | null | undefined): EvmChain | null => (a && a.info.family === "evm" ? (a as EvmAdapter).evm : null);
/** The EVM signer behind an adapter, or null for another family. */
export const evmSignerOf = (a: ChainAdapter | null | undefined): EvmSigner | null => (a && a.info.family === "evm" ? (a as EvmAdapter).custody : null);

export function evmAssets(chain: Pick<EvmChain, "tokens" | "prices">): AssetRegistry {
  const t = chain.tokens;
  return {
    native: t.native,
    tokens: t.tokens,
    resolve(asset): ResolvedAsset | null {
      const r = t.resolveAsset(asset);
      if (!r) return null;
      return r.kind === "native" ? { kind: "native", asset: t.native } : { kind: "token", token: r.token };
    },
    byAddress: (address) => t.byAddress(address),
    allowlistEntry(entry) {
      const e = entry.trim();
      if (looksLikeEvmAddress(e)) {
        const a = checkEvmAddress(e);
        if (!a.ok) throw new ChainInputError(a.message);
        return { id: a.address };
      }
      if (/^(eth|native)$/i.test(e)) return { id: NATIVE };
      const known = t.bySymbol(e);
      return known ? { id: known.address } : { unknown: e.toUpperCase() };
    },
    usd: (token) => chain.prices.usd(token === NATIVE ? NATIVE : token.toLowerCase()),
  };
}

export function evmFeeNeeds(chain: Pick<EvmChain, "sandbox"> | null): FeeNeeds {
  const base =
    "The wallet pays its own gas in ETH on Base: keep a small ETH balance besides the funds it moves (about 0.001 ETH covers many transfers on Base). " +
    "A proposal whose gas the wallet cannot pay is blocked by the simulation. The first batch (evm_calls) also delegates the wallet to the batch executor (EIP-7702), which costs a little extra gas once.";
  return { asset: "ETH", note: chain?.sandbox ? `${base} Sandbox: fund it with the faucet (POST /admin/v1/sandbox/fund, or npm run cli -- sandbox fund).` : base };
}

const coded = (message: string): ChainWarning =>
  message.startsWith("no USD price") ? { code: "unpriced_asset", severity: "info", message } : message.startsWith("the chain could not simulate") ? { code: "simulation_unavailable", severity: "warn", message } : { code: "evm_effect", severity: "warn", message };

export function createEvmAdapter(chain: EvmChain, signer: EvmSigner, o: { clock: Clock }): EvmAdapter {
  const assets = evmAssets(chain);
  return {
    evm: chain,
    info: { key: chain.info.key, family: "evm", caip2: chain.info.caip2, names: [chain.info.key], name: chain.info.name, sandbox: chain.sandbox },
    keyFamily: "secp256k1",
    address: evmAddressCodec,
    assets,
    custody: signer,
    inputKinds: ["transfer", "evm_transaction", "evm_calls"],
    receiptTimeoutMs: chain.receiptTimeoutMs,
    checkInputChain: (input) => checkChain(chain.info.key, input),
    requestHashOf: (p) => requestHashOf(p),
    buildTransfer(wallet, t) {
      const built = transferPayload(chain, evmAddressCodec.normalise(wallet.address) as EvmPayload["from"], t);
      return { kind: "transfer", ...built, requestHash: requestHashOf(built.payload) };
    },
    async plan(wallet, input) {
      return buildEvmProposal(chain, wallet, input as unknown as EvmInput);
    },
    async simulate(_wallet, payload, opts) {
      const tx = simulationTxOf(payload);
      const report = await withResidualAllowances(chain, tx, await simulateEvm(chain, tx, { clock: o.clock, declared: opts?.declared as Parameters<typeof simulateEvm>[2]["declared"] }));
      return { report, warnings: report.warnings.map(coded) };
    },
    fees: () => evmFeeNeeds(chain),
    prepare: (_wallet, payload) => prepareEvm(chain, payload),
    sign: (prepared, ctx) => signEvm(signer, prepared, ctx),
    broadcast: (s) => broadcastEvm(chain, s.raw, s.hash),
    waitForFinal: (hash, timeoutMs) => waitForFinalEvm(chain, hash, timeoutMs),
    lookup: (rec) => lookupEvm(chain, rec),
    async balances(address) {
      try {
        return await readBalances(chain, evmAddressCodec.normalise(address) as EvmPayload["from"]);
      } catch (err) {
        throw new ChainUnavailableError((err as Error).message, err);
      }
    },
    explorerTxUrl: (hash) => chain.explorerTxUrl(hash as `0x${string}`),
    explorerAddressUrl: (address) => chain.explorerAddressUrl(address),
  };
}
