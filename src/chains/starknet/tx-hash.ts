/**
 * Starknet v3 transaction hashes and counterfactual addresses, written from the protocol definition
 * (research §2.2-2.4) on the curve primitives only, so the sandbox node recomputes hashes independently
 * of the client that sent them. Tests compare every function here with starknet.js's own results.
 */
import { ec } from "starknet";
import { shortString } from "./felt";

const poseidon = (xs: bigint[]): bigint => ec.starkCurve.poseidonHashMany(xs);
const pedersen = (a: bigint, b: bigint): bigint => BigInt(ec.starkCurve.pedersen(a, b));

export interface ResourceBound {
  maxAmount: bigint;
  maxPricePerUnit: bigint;
}
export interface ResourceBounds {
  l1_gas: ResourceBound;
  l2_gas: ResourceBound;
  l1_data_gas: ResourceBound;
}

const L1_GAS = shortString("L1_GAS");
const L2_GAS = shortString("L2_GAS");
const L1_DATA = shortString("L1_DATA");
const INVOKE = shortString("invoke");
const DEPLOY_ACCOUNT = shortString("deploy_account");
const CONTRACT_ADDRESS_PREFIX = shortString("STARKNET_CONTRACT_ADDRESS");
const ADDRESS_BOUND = 2n ** 251n - 256n;

const packBound = (name: bigint, b: ResourceBound): bigint => (name << 192n) + (b.maxAmount << 128n) + b.maxPricePerUnit;

export function feeFieldHash(tip: bigint, rb: ResourceBounds): bigint {
  return poseidon([tip, packBound(L1_GAS, rb.l1_gas), packBound(L2_GAS, rb.l2_gas), packBound(L1_DATA, rb.l1_data_gas)]);
}

/** DA modes: L1 = 0, L2 = 1; nonce mode in the upper half. */
export const daModeHash = (nonceMode: bigint, feeMode: bigint): bigint => (nonceMode << 32n) + feeMode;

export interface InvokeV3HashInput {
  version: bigint;
  senderAddress: bigint;
  tip: bigint;
  resourceBounds: ResourceBounds;
  paymasterData: bigint[];
  chainId: bigint;
  nonce: bigint;
  nonceDaMode: bigint;
  feeDaMode: bigint;
  accountDeploymentData: bigint[];
  calldata: bigint[];
  proofFacts?: bigint[];
}

export function invokeV3Hash(t: InvokeV3HashInput): bigint {
  const fields = [
    INVOKE,
    t.version,
    t.senderAddress,
    feeFieldHash(t.tip, t.resourceBounds),
    poseidon(t.paymasterData),
    t.chainId,
    t.nonce,
    daModeHash(t.nonceDaMode, t.feeDaMode),
    poseidon(t.accountDeploymentData),
    poseidon(t.calldata),
  ];
  if (t.proofFacts && t.proofFacts.length > 0) fields.push(poseidon(t.proofFacts));
  return poseidon(fields);
}

export interface DeployAccountV3HashInput {
  version: bigint;
  contractAddress: bigint;
  tip: bigint;
  resourceBounds: ResourceBounds;
  paymasterData: bigint[];
  chainId: bigint;
  nonce: bigint;
  nonceDaMode: bigint;
  feeDaMode: bigint;
  constructorCalldata: bigint[];
  classHash: bigint;
  salt: bigint;
}

export function deployAccountV3Hash(t: DeployAccountV3HashInput): bigint {
  return poseidon([
    DEPLOY_ACCOUNT,
    t.version,
    t.contractAddress,
    feeFieldHash(t.tip, t.resourceBounds),
    poseidon(t.paymasterData),
    t.chainId,
    t.nonce,
    daModeHash(t.nonceDaMode, t.feeDaMode),
    poseidon(t.constructorCalldata),
    t.classHash,
    t.salt,
  ]);
}

/** Pedersen chain hash with the length appended (Starknet's `compute_hash_on_elements`). */
export function pedersenArray(xs: bigint[]): bigint {
  let acc = 0n;
  for (const x of xs) acc = pedersen(acc, x);
  return pedersen(acc, BigInt(xs.length));
}

/**
 * Pedersen hashing in JS costs milliseconds per call, and an address takes nine: a wallet's address is asked for
 * on every simulation of its undeployed account (and by the sandbox node for each DEPLOY_ACCOUNT it dry-runs), so
 * recent answers are kept. A pure function of its inputs, so caching cannot change an answer.
 */
const addressCache = new Map<string, bigint>();
const ADDRESS_CACHE_MAX = 2048;

export function contractAddress(salt: bigint, classHash: bigint, constructorCalldata: bigint[], deployer = 0n): bigint {
  const key = `${salt}:${classHash}:${deployer}:${constructorCalldata.join(",")}`;
  const hit = addressCache.get(key);
  if (hit !== undefined) return hit;
  const address = pedersenArray([CONTRACT_ADDRESS_PREFIX, deployer, salt, classHash, pedersenArray(constructorCalldata)]) % ADDRESS_BOUND;
  if (addressCache.size >= ADDRESS_CACHE_MAX) addressCache.delete(addressCache.keys().next().value!);
  addressCache.set(key, address);
  return address;
}

/** Stark-curve ECDSA verification of `[r, s]` over `msgHash` against a public key (the x coordinate). */
export function verifyStarkSignature(publicKey: bigint, msgHash: bigint, signature: bigint[]): boolean {
  if (signature.length !== 2) return false;
  const [r, s] = signature as [bigint, bigint];
  const x = publicKey.toString(16).padStart(64, "0");
  let sig: InstanceType<typeof ec.starkCurve.Signature>;
  try {
    sig = new ec.starkCurve.Signature(r, s);
  } catch {
    return false;
  }
  // The stored key is the x coordinate only; like Cairo's check_ecdsa_signature, accept either y.
  for (const prefix of ["02", "03"]) {
    try {
      if (ec.starkCurve.verify(sig, "0x" + msgHash.toString(16), prefix + x)) return true;
    } catch {
      // not a point on the curve, or a malformed signature
    }
  }
  return false;
}
