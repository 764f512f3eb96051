/**
 * JSON-RPC 0.10 transaction objects the service signs and sends (INVOKE v3, DEPLOY_ACCOUNT v3), and
 * their hashes computed by starknet.js (the client a node's own hash check is written against).
 */
import { hash } from "starknet";
import { OZ_ACCOUNT_CLASS_HASH } from "./constants";
import { toFeltHex } from "./felt";
import { invokeV3Hash } from "./tx-hash";

export const QUERY_VERSION = "0x100000000000000000000000000000003";

export interface Bounds {
  l1_gas: { max_amount: string; max_price_per_unit: string };
  l2_gas: { max_amount: string; max_price_per_unit: string };
  l1_data_gas: { max_amount: string; max_price_per_unit: string };
}

export const ZERO_BOUNDS: Bounds = {
  l1_gas: { max_amount: "0x0", max_price_per_unit: "0x0" },
  l2_gas: { max_amount: "0x0", max_price_per_unit: "0x0" },
  l1_data_gas: { max_amount: "0x0", max_price_per_unit: "0x0" },
};

export interface FeeEstimate {
  l1_gas_consumed: string;
  l1_gas_price: string;
  l2_gas_consumed: string;
  l2_gas_price: string;
  l1_data_gas_consumed: string;
  l1_data_gas_price: string;
  overall_fee: string;
}

/** Estimate -> bounds with 50% headroom on amounts and prices (starknet.js's default overhead). */
export function boundsFrom(e: FeeEstimate): Bounds {
  const up = (x: string) => toFeltHex((BigInt(x) * 3n + 1n) / 2n);
  return {
    l1_gas: { max_amount: up(e.l1_gas_consumed), max_price_per_unit: up(e.l1_gas_price) },
    l2_gas: { max_amount: up(e.l2_gas_consumed), max_price_per_unit: up(e.l2_gas_price) },
    l1_data_gas: { max_amount: up(e.l1_data_gas_consumed), max_price_per_unit: up(e.l1_data_gas_price) },
  };
}

export function maxFeeOf(b: Bounds): bigint {
  return (["l1_gas", "l2_gas", "l1_data_gas"] as const).reduce((s, k) => s + BigInt(b[k].max_amount) * BigInt(b[k].max_price_per_unit), 0n);
}

const bn = (b: Bounds) => ({
  l1_gas: { max_amount: BigInt(b.l1_gas.max_amount), max_price_per_unit: BigInt(b.l1_gas.max_price_per_unit) },
  l2_gas: { max_amount: BigInt(b.l2_gas.max_amount), max_price_per_unit: BigInt(b.l2_gas.max_price_per_unit) },
  l1_data_gas: { max_amount: BigInt(b.l1_data_gas.max_amount), max_price_per_unit: BigInt(b.l1_data_gas.max_price_per_unit) },
});

type DA = Parameters<typeof hash.calculateInvokeTransactionHash>[0]["nonceDataAvailabilityMode"];
const L1 = 0 as DA;

export function invokeTx(a: { sender: string; calldata: string[]; nonce: bigint; bounds: Bounds; query?: boolean; signature?: string[]; proofFacts?: string[] }) {
  return {
    // STRK20: the proof facts travel on the transaction (hashed); the proof itself is added only when sending.
    ...(a.proofFacts && a.proofFacts.length > 0 ? { proof_facts: a.proofFacts } : {}),
    type: "INVOKE" as const,
    version: a.query ? QUERY_VERSION : "0x3",
    sender_address: a.sender,
    calldata: a.calldata,
    signature: a.signature ?? [],
    nonce: toFeltHex(a.nonce),
    resource_bounds: a.bounds,
    tip: "0x0",
    paymaster_data: [] as string[],
    account_deployment_data: [] as string[],
    nonce_data_availability_mode: "L1" as const,
    fee_data_availability_mode: "L1" as const,
  };
}

export function deployTx(a: { publicKey: string; bounds: Bounds; query?: boolean; signature?: string[] }) {
  return {
    type: "DEPLOY_ACCOUNT" as const,
    version: a.query ? QUERY_VERSION : "0x3",
    signature: a.signature ?? [],
    nonce: "0x0",
    contract_address_salt: a.publicKey,
    constructor_calldata: [a.publicKey],
    class_hash: OZ_ACCOUNT_CLASS_HASH,
    resource_bounds: a.bounds,
    tip: "0x0",
    paymaster_data: [] as string[],
    nonce_data_availability_mode: "L1" as const,
    fee_data_availability_mode: "L1" as const,
  };
}

export type InvokeTxObject = ReturnType<typeof invokeTx>;
export type DeployTxObject = ReturnType<typeof deployTx>;

export function invokeHash(tx: InvokeTxObject, chainId: string): bigint {
  if (tx.proof_facts) {
    const rb = (k: keyof Bounds) => ({ maxAmount: BigInt(tx.resource_bounds[k].max_amount), maxPricePerUnit: BigInt(tx.resource_bounds[k].max_price_per_unit) });
    return invokeV3Hash({
      version: BigInt(tx.version),
      senderAddress: BigInt(tx.sender_address),
      tip: 0n,
      resourceBounds: { l1_gas: rb("l1_gas"), l2_gas: rb("l2_gas"), l1_data_gas: rb("l1_data_gas") },
      paymasterData: [],
      chainId: BigInt(chainId),
      nonce: BigInt(tx.nonce),
      nonceDaMode: 0n,
      feeDaMode: 0n,
      accountDeploymentData: [],
      calldata: tx.calldata.map((x) => BigInt(x)),
      proofFacts: tx.proof_facts.map((x) => BigInt(x)),
    });
  }
  return BigInt(
    hash.calculateInvokeTransactionHash({
      senderAddress: tx.sender_address,
      version: tx.version as "0x3",
      compiledCalldata: tx.calldata,
      chainId: chainId as "0x534e5f4d41494e",
      nonce: tx.nonce,
      accountDeploymentData: [],
      nonceDataAvailabilityMode: L1,
      feeDataAvailabilityMode: L1,
      resourceBounds: bn(tx.resource_bounds),
      tip: 0,
      paymasterData: [],
    }),
  );
}

export function deployHash(tx: DeployTxObject, address: string, chainId: string): bigint {
  return BigInt(
    hash.calculateDeployAccountTransactionHash({
      contractAddress: address,
      classHash: tx.class_hash,
      compiledConstructorCalldata: tx.constructor_calldata,
      salt: tx.contract_address_salt,
      version: tx.version as "0x3",
      chainId: chainId as "0x534e5f4d41494e",
      nonce: 0,
      nonceDataAvailabilityMode: L1,
      feeDataAvailabilityMode: L1,
      resourceBounds: bn(tx.resource_bounds),
      tip: 0,
      paymasterData: [],
    }),
  );
}
