/**
 * Client of a STRK20 proving service (JSON-RPC `starknet_proveTransaction`, research/starknet.md §1.5): the
 * same code talks to the production prover (STRK20_PROVER_URL) and to the sandbox's local one. The request
 * carries the wallet's viewing key inside the invocation calldata, so the URL must be one the operator
 * trusts (docs/strk20.md); nothing of the request is logged.
 */
import { normaliseAddress } from "../felt";
import { Strk20Error, PROVER_CODES } from "./errors";
import { jsonRpc, type JsonRpcOptions } from "./jsonrpc";
import type { ProofInvocation } from "./invocation";

export interface ProveResult {
  proof: string;
  proofFacts: string[];
  /** The pool's L2->L1 message payload: [pool class hash, ...server actions]. */
  poolMessage: string[];
}

export interface ProverClient {
  readonly url: string;
  specVersion(): Promise<string>;
  prove(blockNumber: number, tx: ProofInvocation, pool: string): Promise<ProveResult>;
}

export function createProverClient(url: string, o: Partial<Omit<JsonRpcOptions, "url" | "name" | "codes">> = {}): ProverClient {
  const rpc = jsonRpc({ ...o, url, name: "proving service", codes: PROVER_CODES });
  return {
    url,
    specVersion: () => rpc.call<string>("starknet_specVersion", []),
    async prove(blockNumber, tx, pool) {
      const r = await rpc.call<{ proof?: unknown; proof_facts?: unknown; l2_to_l1_messages?: unknown }>("starknet_proveTransaction", { block_id: { block_number: blockNumber }, transaction: tx });
      const facts = r?.proof_facts;
      if (typeof r?.proof !== "string" || !Array.isArray(facts) || facts.length === 0 || !facts.every((f) => typeof f === "string")) {
        throw new Strk20Error("unavailable", "the proving service answered without a proof and proof facts");
      }
      const msgs = Array.isArray(r.l2_to_l1_messages) ? (r.l2_to_l1_messages as { from_address?: unknown; payload?: unknown }[]) : [];
      const want = normaliseAddress(pool);
      const msg = msgs.find((m) => typeof m.from_address === "string" && safeEq(m.from_address, want));
      if (!msg || !Array.isArray(msg.payload) || msg.payload.length < 2) throw new Strk20Error("unavailable", "the proving service's answer has no message from the pool (nothing to apply)");
      return { proof: r.proof, proofFacts: facts as string[], poolMessage: (msg.payload as unknown[]).map(String) };
    },
  };
}

function safeEq(a: string, b: string): boolean {
  try {
    return normaliseAddress(a) === b;
  } catch {
    return false;
  }
}
