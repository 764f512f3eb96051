/**
 * The proof invocation (research/starknet.md §1.4; starknet-privacy proof-invocation-factory.ts): an INVOKE v3
 * whose sender is the pool and whose calldata is `__execute__([{pool, compile_actions, calldata}])`. The
 * wallet's key signs this transaction's hash; the proving service runs it in a virtual block, where the
 * pool asks the wallet's account whether the signature is valid. Only hashes computed here are signed.
 */
import { selector } from "../constants";
import { toFeltHex } from "../felt";
import { invokeV3Hash } from "../tx-hash";

export const SEL_COMPILE_ACTIONS = selector("compile_actions");
export const SEL_APPLY_ACTIONS = selector("apply_actions");

/** The SDK's fixed resource bounds for the virtual transaction (all prices zero, as the pool's __validate__ requires). */
const BOUNDS = { l1_gas: { max_amount: "0x1", max_price_per_unit: "0x0" }, l2_gas: { max_amount: "0x5f5e100", max_price_per_unit: "0x0" }, l1_data_gas: { max_amount: "0x1", max_price_per_unit: "0x0" } };

export interface ProofInvocation {
  type: "INVOKE";
  version: "0x3";
  sender_address: string;
  calldata: string[];
  signature: string[];
  nonce: string;
  resource_bounds: typeof BOUNDS;
  tip: "0x0";
  paymaster_data: string[];
  account_deployment_data: string[];
  nonce_data_availability_mode: "L1";
  fee_data_availability_mode: "L1";
}

export function proofInvocation(pool: string, compileCalldata: readonly string[], poolNonce: bigint): ProofInvocation {
  const calldata = [toFeltHex(1n), toFeltHex(BigInt(pool)), toFeltHex(SEL_COMPILE_ACTIONS), toFeltHex(BigInt(compileCalldata.length)), ...compileCalldata.map((x) => toFeltHex(BigInt(x)))];
  return {
    type: "INVOKE",
    version: "0x3",
    sender_address: toFeltHex(BigInt(pool)),
    calldata,
    signature: [],
    nonce: toFeltHex(poolNonce),
    resource_bounds: BOUNDS,
    tip: "0x0",
    paymaster_data: [],
    account_deployment_data: [],
    nonce_data_availability_mode: "L1",
    fee_data_availability_mode: "L1",
  };
}

export function proofInvocationHash(tx: Pick<ProofInvocation, "sender_address" | "calldata" | "nonce" | "resource_bounds">, chainId: bigint): bigint {
  const rb = (k: keyof typeof BOUNDS) => ({ maxAmount: BigInt(tx.resource_bounds[k].max_amount), maxPricePerUnit: BigInt(tx.resource_bounds[k].max_price_per_unit) });
  return invokeV3Hash({
    version: 3n,
    senderAddress: BigInt(tx.sender_address),
    tip: 0n,
    resourceBounds: { l1_gas: rb("l1_gas"), l2_gas: rb("l2_gas"), l1_data_gas: rb("l1_data_gas") },
    paymasterData: [],
    chainId,
    nonce: BigInt(tx.nonce),
    nonceDaMode: 0n,
    feeDaMode: 0n,
    accountDeploymentData: [],
    calldata: tx.calldata.map((x) => BigInt(x)),
  });
}
