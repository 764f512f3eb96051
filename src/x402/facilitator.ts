/**
 * x402 facilitators: the party that checks a payment payload and settles it on chain.
 *
 * - `createLocalFacilitator`: in-process, `x402Facilitator` + the exact-EVM scheme over our RPC, with a
 *   relayer key paying gas (the sandbox default; also usable against a real Base RPC).
 * - `createRemoteFacilitator`: `HTTPFacilitatorClient` against a facilitator URL (production).
 *
 * Both return payment *outcomes* as data (`isValid: false`, `success: false`). When the facilitator itself
 * cannot be reached (remote down, timeout, garbage response; or, locally, the RPC node down), they throw a
 * `FacilitatorUnavailableError`, a ServiceError that the HTTP layer turns into
 * 502 {error: "facilitator_unavailable"} with Retry-After.
 */
import { x402Facilitator } from "@x402/core/facilitator";
import { HTTPFacilitatorClient, type FacilitatorConfig } from "@x402/core/http";
import type { Network, PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import { createWalletClient, http, publicActions, type Hex, type PrivateKeyAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ServiceError } from "../lib/errors";
import { SANDBOX_NETWORK } from "../sandbox/addresses";
import { mineIfStale, sandboxChain, withAccountLock } from "../sandbox/chain";

export interface Facilitator {
  readonly kind: "local" | "remote";
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
  supported(): Promise<SupportedResponse>;
}

export type FacilitatorOperation = "verify" | "settle" | "supported";

export const DEFAULT_RETRY_AFTER_SECONDS = 5;

/** The facilitator could not be asked (not: it said no). Maps to 502 facilitator_unavailable + Retry-After. */
export class FacilitatorUnavailableError extends ServiceError {
  readonly operation: FacilitatorOperation;
  readonly retryAfterSeconds: number;
  /** HTTP status the remote facilitator answered with, when it answered at all. */
  readonly status: number | undefined;
  /**
   * True for a settle whose request may have reached the facilitator (timeout, 5xx): the transfer may
   * have happened. Retrying with the same payload is safe (EIP-3009 nonces are single-use).
   */
  readonly indeterminate: boolean;

  constructor(
    operation: FacilitatorOperation,
    detail: string,
    opts: { cause?: unknown; retryAfterSeconds?: number; status?: number; indeterminate?: boolean } = {},
  ) {
    const retryAfterSeconds = opts.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
    super("upstream_failed", "facilitator_unavailable", detail, {
      headers: { "Retry-After": String(retryAfterSeconds) },
      cause: opts.cause,
    });
    this.name = "FacilitatorUnavailableError";
    this.operation = operation;
    this.retryAfterSeconds = retryAfterSeconds;
    this.status = opts.status;
    this.indeterminate = opts.indeterminate ?? false;
  }
}

export const isFacilitatorUnavailable = (e: unknown): e is FacilitatorUnavailableError => e instanceof FacilitatorUnavailableError;

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Walks `cause` chains for transport-level failures (viem HTTP/timeout errors, fetch/socket errors). */
function isTransportError(e: unknown): boolean {
  let cur: unknown = e;
  for (let i = 0; i < 8 && cur && typeof cur === "object"; i++) {
    const { name, message, code } = cur as { name?: string; message?: string; code?: string };
    if (name === "HttpRequestError" || name === "TimeoutError" || name === "AbortError" || name === "WebSocketRequestError") return true;
    if (code && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE|UND_ERR_\w+)$/.test(code)) return true;
    if (message && /fetch failed|ECONNREFUSED|socket hang up|other side closed/i.test(message)) return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}

// ------------------------------------------------------------------ local (in-process)

export interface LocalFacilitatorOptions {
  rpcUrl: string;
  /** Relayer: pays gas for settlement. Private key or viem account. */
  relayer: Hex | PrivateKeyAccount;
  /** CAIP-2 networks served; default ["eip155:8453"]. All must be the RPC's chain. */
  network?: Network;
  /** Re-simulate in settle (default false, as upstream). */
  simulateInSettle?: boolean;
  /** Receipt wait bound (default 60 s; anvil mines instantly). */
  confirmationTimeoutMs?: number;
  retryAfterSeconds?: number;
  /**
   * Sandbox (anvil) only: before verifying or settling, mine an empty block when the latest block is older
   * than this many seconds, so simulations run at a current timestamp (see mineIfStale). Unset = never.
   */
  mineWhenStaleSeconds?: number;
  /**
   * How often a settlement's receipt (and the block number) is polled; default 1 s (Base makes a block
   * every 2 s). viem's own default is 4 s: a receipt missed by the first poll cost a top-up 4 s (the p99 of
   * the sandbox top-up benchmark, docs/performance.md). The sandbox passes 100 ms.
   */
  pollingIntervalMs?: number;
  /**
   * Serialises the relayer's nonce assignment and broadcast across processes (several service processes
   * sharing one relayer key): the composition root passes a PostgreSQL advisory lock on the relayer address
   * (src/db/claim.ts withAdvisoryLock). Within one process broadcasts are serialised anyway.
   */
  relayerLock?: RelayerLock;
}

export type RelayerLock = <T>(relayer: string, fn: () => Promise<T>) => Promise<T>;

/**
 * Relayer-side refusals that say nothing about the payment: another broadcast took the nonce, the node
 * already has it, or the relayer cannot pay gas right now. Retrying the same payload can succeed.
 */
const TRANSIENT_RELAYER = /nonce too low|nonce too high|nonce has already been used|replacement transaction underpriced|already known|transaction underpriced|insufficient funds for gas/i;

export interface LocalFacilitator extends Facilitator {
  readonly kind: "local";
  readonly relayerAddress: `0x${string}`;
  /** The wrapped x402Facilitator (for hooks). */
  readonly inner: x402Facilitator;
}

type FacilitatorSignerInput = Parameters<typeof toFacilitatorEvmSigner>[0];

export function createLocalFacilitator(opts: LocalFacilitatorOptions): LocalFacilitator {
  const network = opts.network ?? SANDBOX_NETWORK;
  const expectedChainId = Number(network.split(":")[1]);
  if (!network.startsWith("eip155:") || !Number.isSafeInteger(expectedChainId)) throw new Error(`not an EVM network: ${network}`);
  const account = typeof opts.relayer === "string" ? privateKeyToAccount(opts.relayer) : opts.relayer;
  const retryAfterSeconds = opts.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;

  const client = createWalletClient({
    account,
    chain: sandboxChain(opts.rpcUrl, expectedChainId),
    transport: http(opts.rpcUrl, { retryCount: 1, retryDelay: 100, timeout: 15_000 }),
    pollingInterval: opts.pollingIntervalMs ?? 1_000,
  }).extend(publicActions);

  // viem's client has the right methods but not the exact structural types the x402 signer declares
  // (generic ABI types, `address` lives on `account`): two casts.
  const base = toFacilitatorEvmSigner(
    Object.assign(client, { address: account.address }) as unknown as FacilitatorSignerInput,
    { confirmationTimeoutMs: opts.confirmationTimeoutMs ?? 60_000 },
  );
  // Serialise broadcasts from the relayer so concurrent settlements never pick the same nonce: in this
  // process first (no pool connection is held while waiting for our own), then across processes.
  const acrossProcesses: RelayerLock = opts.relayerLock ?? ((_r, fn) => fn());
  const serialised = <T>(fn: () => Promise<T>) => withAccountLock(account.address, () => acrossProcesses(account.address, fn));
  const signer: typeof base = {
    ...base,
    writeContract: (args) => serialised(() => base.writeContract(args)),
    sendTransaction: (args) => serialised(() => base.sendTransaction(args)),
  };

  // What registerExactEvmScheme does, minus its x402 v1 registration for every EVM network it knows:
  // this facilitator reaches one chain, and the service takes v2 payments only.
  const inner = new x402Facilitator();
  inner.register(network, new ExactEvmScheme(signer, { simulateInSettle: opts.simulateInSettle }));

  /** The RPC must answer, on the right chain, or we cannot judge any payment. */
  const checkRpc = async (operation: FacilitatorOperation) => {
    let chainId: number;
    try {
      chainId = await client.getChainId();
    } catch (e) {
      throw new FacilitatorUnavailableError(operation, `RPC node unreachable: ${errorText(e)}`, { cause: e, retryAfterSeconds });
    }
    if (chainId !== expectedChainId) {
      throw new FacilitatorUnavailableError(operation, `RPC node is on chain ${chainId}, expected ${expectedChainId}`, {
        retryAfterSeconds,
      });
    }
  };
  const prepare = async (operation: FacilitatorOperation) => {
    await checkRpc(operation);
    if (opts.mineWhenStaleSeconds !== undefined) {
      try {
        await mineIfStale(opts.rpcUrl, opts.mineWhenStaleSeconds);
      } catch (e) {
        throw new FacilitatorUnavailableError(operation, `RPC node refused to mine: ${errorText(e)}`, { cause: e, retryAfterSeconds });
      }
    }
  };

  /** Wrong shape or unsupported scheme/network: a payment problem, not an outage. */
  const rejectInput = (e: unknown): VerifyResponse => ({ isValid: false, invalidReason: "invalid_payload", invalidMessage: errorText(e) });

  return {
    kind: "local",
    relayerAddress: account.address,
    inner,
    async verify(payload, requirements) {
      await prepare("verify");
      let result: VerifyResponse;
      try {
        result = await inner.verify(payload, requirements);
      } catch (e) {
        if (isTransportError(e)) throw new FacilitatorUnavailableError("verify", errorText(e), { cause: e, retryAfterSeconds });
        return rejectInput(e);
      }
      // The scheme swallows RPC errors into "invalid" answers: if the node went away meanwhile, say so.
      if (!result.isValid) await checkRpc("verify");
      return result;
    },
    async settle(payload, requirements) {
      await prepare("settle");
      let result: SettleResponse;
      try {
        result = await inner.settle(payload, requirements);
      } catch (e) {
        if (isTransportError(e)) {
          throw new FacilitatorUnavailableError("settle", errorText(e), { cause: e, retryAfterSeconds, indeterminate: true });
        }
        const r = rejectInput(e);
        return { success: false, errorReason: r.invalidReason, errorMessage: r.invalidMessage, transaction: "", network: requirements.network };
      }
      if (!result.success && !result.transaction && TRANSIENT_RELAYER.test(result.errorMessage ?? "")) {
        // Not the payment's fault: the payer must retry the same signature, not sign a new one.
        throw new FacilitatorUnavailableError("settle", `the relayer's transaction was not accepted (${result.errorMessage}); retry with the same PAYMENT-SIGNATURE`, { retryAfterSeconds: 1 });
      }
      if (!result.success && !result.transaction) {
        try {
          await checkRpc("settle");
        } catch (e) {
          (e as { indeterminate: boolean }).indeterminate = false;
          throw e;
        }
      }
      return result;
    },
    async supported() {
      return inner.getSupported() as SupportedResponse;
    },
  };
}

// ------------------------------------------------------------------ remote (HTTP)

export interface RemoteFacilitatorOptions {
  url: string;
  /** Per-request timeout (default 30 s). */
  timeoutMs?: number;
  createAuthHeaders?: FacilitatorConfig["createAuthHeaders"];
  retryAfterSeconds?: number;
}

export interface RemoteFacilitator extends Facilitator {
  readonly kind: "remote";
  readonly url: string;
}

interface VerifyErrorLike {
  name: "VerifyError";
  statusCode: number;
  invalidReason?: string;
  invalidMessage?: string;
  payer?: string;
}
interface SettleErrorLike {
  name: "SettleError";
  statusCode: number;
  errorReason?: string;
  errorMessage?: string;
  payer?: string;
  transaction?: string;
  network?: Network;
}

export function createRemoteFacilitator(opts: RemoteFacilitatorOptions): RemoteFacilitator {
  const client = new HTTPFacilitatorClient({
    url: opts.url,
    timeoutMs: opts.timeoutMs ?? 30_000,
    createAuthHeaders: opts.createAuthHeaders,
  });
  const retryAfterSeconds = opts.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;

  const unavailable = (operation: FacilitatorOperation, e: unknown): FacilitatorUnavailableError => {
    const msg = errorText(e);
    const status = Number(/failed \((\d{3})\)/.exec(msg)?.[1]) || undefined;
    const name = (e as { name?: string })?.name;
    // A settle request that may have been processed: timeout, or the server answered (with an error).
    const indeterminate = operation === "settle" && (name === "FacilitatorTimeoutError" || status !== undefined || name === "FacilitatorResponseError");
    return new FacilitatorUnavailableError(operation, `facilitator ${opts.url}: ${msg}`, {
      cause: e,
      retryAfterSeconds,
      status,
      indeterminate,
    });
  };

  return {
    kind: "remote",
    url: client.url,
    async verify(payload, requirements) {
      try {
        return await client.verify(payload, requirements);
      } catch (e) {
        // A 4xx JSON verify answer is still an answer ("invalid"); a 5xx is an outage.
        if ((e as { name?: string })?.name === "VerifyError") {
          const v = e as VerifyErrorLike;
          if (v.statusCode < 500) {
            return { isValid: false, invalidReason: v.invalidReason ?? "invalid_payload", invalidMessage: v.invalidMessage, payer: v.payer };
          }
        }
        throw unavailable("verify", e);
      }
    },
    async settle(payload, requirements) {
      try {
        return await client.settle(payload, requirements);
      } catch (e) {
        if ((e as { name?: string })?.name === "SettleError") {
          const s = e as SettleErrorLike;
          if (s.statusCode < 500) {
            return {
              success: false,
              errorReason: s.errorReason ?? "settle_failed",
              errorMessage: s.errorMessage,
              payer: s.payer,
              transaction: s.transaction ?? "",
              network: s.network ?? requirements.network,
            };
          }
        }
        throw unavailable("settle", e);
      }
    },
    async supported() {
      try {
        return await client.getSupported();
      } catch (e) {
        throw unavailable("supported", e);
      }
    },
  };
}

// ------------------------------------------------------------------ configuration

export type FacilitatorConfigInput =
  | ({ mode: "local" } & LocalFacilitatorOptions)
  | ({ mode: "remote" } & RemoteFacilitatorOptions);

/** One entry point for the service's configuration: facilitator URL set -> remote, else local. */
export function createFacilitator(cfg: FacilitatorConfigInput): Facilitator {
  return cfg.mode === "remote" ? createRemoteFacilitator(cfg) : createLocalFacilitator(cfg);
}
