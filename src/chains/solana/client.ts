/** The Solana RPC a deployment talks to (the sandbox endpoint or SOLANA_RPC_URL), through @solana/kit. */
import { createSolanaRpc, type Rpc, type SolanaRpcApi } from "@solana/kit";
import { ChainUnavailableError } from "../port";

export interface SolanaClient {
  rpc: Rpc<SolanaRpcApi>;
  rpcUrl: string;
  caip2: string;
  /** Runs one RPC round trip; any failure (unreachable, garbage) becomes ChainUnavailableError. */
  call<T>(what: string, fn: () => Promise<T>): Promise<T>;
}

export function createSolanaClient(rpcUrl: string, caip2: string): SolanaClient {
  const rpc = createSolanaRpc(rpcUrl);
  return {
    rpc,
    rpcUrl,
    caip2,
    async call(what, fn) {
      try {
        return await fn();
      } catch (err) {
        throw new ChainUnavailableError(`Solana RPC ${what} failed: ${(err as Error).message}`, err);
      }
    },
  };
}
