/**
 * A small Starknet JSON-RPC 0.10 client (named params, as starknet.js sends them) with a timeout per
 * call. Node errors arrive as StarknetRpcError with the spec code; anything else (no answer, HTTP error,
 * unparsable body) is ChainUnavailableError.
 */
import { ChainUnavailableError } from "../port";

export class StarknetRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "StarknetRpcError";
  }
  /** The node's detail (revert reason, nonce message) as one string. */
  get detail(): string {
    const d = this.data as { execution_error?: unknown; revert_error?: unknown } | string | undefined;
    if (typeof d === "string") return d;
    const inner = d?.execution_error ?? d?.revert_error;
    if (typeof inner === "string") return inner;
    return inner ? JSON.stringify(inner) : this.message;
  }
}

export interface StarknetRpc {
  readonly url: string;
  call<T>(method: string, params: Record<string, unknown>): Promise<T>;
}

export function starknetRpc(url: string, timeoutMs = 10_000): StarknetRpc {
  let id = 0;
  return {
    url,
    async call<T>(method: string, params: Record<string, unknown>): Promise<T> {
      let res: Response;
      try {
        res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (e) {
        throw new ChainUnavailableError(`Starknet RPC ${method}: no answer (${(e as Error).message})`, e);
      }
      if (!res.ok) throw new ChainUnavailableError(`Starknet RPC ${method}: HTTP ${res.status}`);
      let body: { result?: T; error?: { code: number; message: string; data?: unknown } };
      try {
        body = (await res.json()) as typeof body;
      } catch (e) {
        throw new ChainUnavailableError(`Starknet RPC ${method}: unparsable answer`, e);
      }
      if (body.error) throw new StarknetRpcError(body.error.code, body.error.message, body.error.data);
      if (!("result" in body)) throw new ChainUnavailableError(`Starknet RPC ${method}: answer without a result`);
      return body.result as T;
    },
  };
}

/** Runs `f`; a StarknetRpcError with one of `codes` becomes null (e.g. 20 contract not found). */
export async function orNullOn<T>(codes: number[], f: () => Promise<T>): Promise<T | null> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof StarknetRpcError && codes.includes(e.code)) return null;
    throw e;
  }
}

/** A node error where a transport error is expected: the chain answered something we cannot use. */
export function unavailable(e: unknown, what: string): never {
  if (e instanceof ChainUnavailableError) throw e;
  if (e instanceof StarknetRpcError) throw new ChainUnavailableError(`${what}: ${e.code} ${e.message} ${e.detail}`.trim(), e);
  throw e;
}
