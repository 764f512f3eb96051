/** JSON-RPC errors with the Starknet spec's codes and messages (starknet-specs 0.10 starknet_errors). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const errors = {
  contractNotFound: () => new RpcError(20, "Contract not found"),
  entrypointNotFound: () => new RpcError(21, "Requested entry point does not exist in the contract"),
  blockNotFound: () => new RpcError(24, "Block not found"),
  classHashNotFound: () => new RpcError(28, "Class hash not found"),
  txHashNotFound: () => new RpcError(29, "Transaction hash not found"),
  pageSizeTooBig: () => new RpcError(31, "Requested page size is too big"),
  invalidContinuationToken: () => new RpcError(33, "The supplied continuation token is invalid or unknown"),
  contractError: (revertError: string) => new RpcError(40, "Contract error", { revert_error: revertError }),
  txExecutionError: (index: number, executionError: string) =>
    new RpcError(41, "Transaction execution error", { transaction_index: index, execution_error: executionError }),
  invalidNonce: (detail: string) => new RpcError(52, "Invalid transaction nonce", detail),
  insufficientResources: () => new RpcError(53, "The transaction's resources don't cover validation or the minimal transaction fee"),
  insufficientBalance: () =>
    new RpcError(54, "Account balance is smaller than the transaction's maximal fee (calculated as the sum of each resource's limit x max price)"),
  validationFailure: (detail: string) => new RpcError(55, "Account validation failed", detail),
  duplicateTx: () => new RpcError(59, "A transaction with the same hash already exists in the mempool"),
  invalidProof: () => new RpcError(69, "Invalid proof", "the proof does not match its proof facts (the sandbox checks the local prover's MAC, not a STARK)"),
  unsupportedTxVersion: (detail: string) => new RpcError(61, "The transaction version is not supported", detail),
};
