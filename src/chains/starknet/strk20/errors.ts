/**
 * What the STRK20 clients and custody throw. `kind` decides the tool's answer: `refused` (the service will
 * not do it: a custody rule), `rejected` (the prover or paymaster refused: its code and message are kept),
 * `unavailable` (no answer, timeout, HTTP 5xx, busy after the retries: try later), `unconfigured`
 * (this deployment has no prover, paymaster or pool). Messages never carry keys, API keys or calldata.
 */
export type Strk20ErrorKind = "refused" | "rejected" | "unavailable" | "unconfigured";

export class Strk20Error extends Error {
  constructor(
    readonly kind: Strk20ErrorKind,
    message: string,
    /** The remote JSON-RPC error code, when there was one. */
    readonly code?: number,
  ) {
    super(message);
    this.name = "Strk20Error";
  }
}

/** Proving-service error codes (starknet_proving_api_openrpc.json) as sentences. */
export const PROVER_CODES: Record<number, string> = {
  24: "block not found (the proving block is unknown to the prover)",
  55: "account validation failed (the wallet's signature over the proof invocation was refused, or its account is not deployed at the proving block)",
  1000: "invalid input",
  1001: "unsupported transaction type",
  10000: "blocked by screening (deposits are screened; this one was refused)",
  [-32005]: "the proving service is busy",
  [-32603]: "the proving service failed internally",
};

/** SNIP-29 / AVNU paymaster error codes as sentences. */
export const PAYMASTER_CODES: Record<number, string> = {
  151: "the fee token is not supported by the paymaster",
  156: "the paymaster could not execute the transaction",
  163: "the paymaster refused the request",
  165: "the fee withdraw action is missing from the proven actions",
  167: "the fee withdraw amount is below the quote",
  168: "the proof was refused by the paymaster",
  169: "the transaction needs too much L2 gas",
};
