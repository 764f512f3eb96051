/**
 * Parsing of the JSON-RPC transaction objects the node accepts (BROADCASTED_INVOKE_TXN v3 and
 * BROADCASTED_DEPLOY_ACCOUNT_TXN v3, JSON-RPC 0.10) into typed values. A malformed object is an
 * "Invalid params" error (-32602), as a node answers; a v0/v1 transaction is UNSUPPORTED_TX_VERSION.
 */
import { parseFelt } from "../felt";
import type { ResourceBounds } from "../tx-hash";
import { RpcError } from "./errors";

export const V3 = 3n;
export const QUERY_V3 = 2n ** 128n + 3n;

interface Common {
  version: bigint;
  signature: bigint[];
  nonce: bigint;
  resourceBounds: ResourceBounds;
  tip: bigint;
  paymasterData: bigint[];
  nonceDaMode: bigint;
  feeDaMode: bigint;
  /** The object as received, stored with the transaction. */
  raw: Record<string, unknown>;
}

export interface InvokeTx extends Common {
  type: "INVOKE";
  senderAddress: bigint;
  calldata: bigint[];
  accountDeploymentData: bigint[];
  proofFacts: bigint[];
  proof?: string;
}

export interface DeployAccountTx extends Common {
  type: "DEPLOY_ACCOUNT";
  classHash: bigint;
  salt: bigint;
  constructorCalldata: bigint[];
}

export type ParsedTx = InvokeTx | DeployAccountTx;

const bad = (msg: string): never => {
  throw new RpcError(-32602, "Invalid params", msg);
};

function felt(o: Record<string, unknown>, k: string): bigint {
  const v = o[k];
  if (typeof v !== "string") return bad(`${k} must be a FELT string`);
  try {
    return parseFelt(v, k);
  } catch (e) {
    return bad((e as Error).message);
  }
}

function felts(o: Record<string, unknown>, k: string, optional = false): bigint[] {
  const v = o[k];
  if (v === undefined && optional) return [];
  if (!Array.isArray(v)) return bad(`${k} must be an array of FELT strings`);
  return v.map((x, i) => {
    if (typeof x !== "string") return bad(`${k}[${i}] must be a FELT string`);
    try {
      return parseFelt(x, `${k}[${i}]`);
    } catch (e) {
      return bad((e as Error).message);
    }
  });
}

function daMode(o: Record<string, unknown>, k: string): bigint {
  const v = o[k];
  if (v === "L1") return 0n;
  if (v === "L2") return 1n;
  return bad(`${k} must be "L1" or "L2"`);
}

function bounds(o: Record<string, unknown>): ResourceBounds {
  const rb = o.resource_bounds;
  if (!rb || typeof rb !== "object") return bad("resource_bounds is required");
  const one = (name: string) => {
    const b = (rb as Record<string, unknown>)[name];
    if (!b || typeof b !== "object") return bad(`resource_bounds.${name} is required`);
    const r = b as Record<string, unknown>;
    const maxAmount = felt(r, "max_amount");
    const maxPricePerUnit = felt(r, "max_price_per_unit");
    if (maxAmount >= 2n ** 64n) bad(`resource_bounds.${name}.max_amount must fit in u64`);
    if (maxPricePerUnit >= 2n ** 128n) bad(`resource_bounds.${name}.max_price_per_unit must fit in u128`);
    return { maxAmount, maxPricePerUnit };
  };
  return { l1_gas: one("l1_gas"), l2_gas: one("l2_gas"), l1_data_gas: one("l1_data_gas") };
}

export function parseTx(value: unknown): ParsedTx {
  if (!value || typeof value !== "object" || Array.isArray(value)) return bad("a transaction object is required");
  const o = value as Record<string, unknown>;
  const version = felt(o, "version");
  if (version !== V3 && version !== QUERY_V3) {
    throw new RpcError(61, "The transaction version is not supported", `version ${o.version as string}: this node accepts only v3 transactions`);
  }
  const tip = felt(o, "tip");
  if (tip >= 2n ** 64n) bad("tip must fit in u64");
  const common = {
    version,
    signature: felts(o, "signature"),
    nonce: felt(o, "nonce"),
    resourceBounds: bounds(o),
    tip,
    paymasterData: felts(o, "paymaster_data"),
    nonceDaMode: daMode(o, "nonce_data_availability_mode"),
    feeDaMode: daMode(o, "fee_data_availability_mode"),
    raw: o,
  };
  if (o.type === "INVOKE") {
    const proof = o.proof;
    if (proof !== undefined && typeof proof !== "string") bad("proof must be a base64 string");
    return {
      ...common,
      type: "INVOKE",
      senderAddress: felt(o, "sender_address"),
      calldata: felts(o, "calldata"),
      accountDeploymentData: felts(o, "account_deployment_data"),
      proofFacts: felts(o, "proof_facts", true),
      ...(typeof proof === "string" ? { proof } : {}),
    };
  }
  if (o.type === "DEPLOY_ACCOUNT") {
    return {
      ...common,
      type: "DEPLOY_ACCOUNT",
      classHash: felt(o, "class_hash"),
      salt: felt(o, "contract_address_salt"),
      constructorCalldata: felts(o, "constructor_calldata"),
    };
  }
  if (o.type === "DECLARE") throw new RpcError(61, "The transaction version is not supported", "the sandbox node does not accept DECLARE: it runs no Cairo");
  return bad('type must be "INVOKE" or "DEPLOY_ACCOUNT"');
}
