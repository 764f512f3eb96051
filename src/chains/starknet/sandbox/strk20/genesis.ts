/**
 * Installs the STRK20 pool in a sandbox node's state (at genesis, or on opening a state file from before
 * the pool): the pool contract record, the proof-attestation key, and the paymaster's relayer account,
 * funded with STRK and with a standing allowance for the pool fee (the pool pulls it from its caller).
 */
import { randomBytes } from "node:crypto";
import { ec } from "starknet";
import { OZ_ACCOUNT_CLASS_HASH, STRK_ADDRESS } from "../../constants";
import { toAddress } from "../../felt";
import { contractAddress } from "../../tx-hash";
import { allowanceKey, balanceKey, supplyKey, writeAccount } from "../contracts";
import { Layer, type RootStorage } from "../storage";
import type { Strk20Genesis } from "../node";
import { SANDBOX_FEE_COLLECTOR, SANDBOX_POOL_ADDRESS, SANDBOX_POOL_FEE } from "./model";
import { writePool } from "./pool";

const RELAYER_STRK = 1_000_000n * 10n ** 18n;

export function installStrk20(root: RootStorage, validityBlocks: bigint): Strk20Genesis {
  const privateKey = "0x" + (BigInt("0x" + randomBytes(31).toString("hex")) + 1n).toString(16);
  const pub = BigInt(ec.starkCurve.getStarkKey(privateKey));
  const address = contractAddress(pub, BigInt(OZ_ACCOUNT_CLASS_HASH), [pub]);
  const layer = new Layer(root);
  const pool = BigInt(SANDBOX_POOL_ADDRESS);
  const strk = BigInt(STRK_ADDRESS);
  writePool(layer, pool, { fee: SANDBOX_POOL_FEE, collector: BigInt(SANDBOX_FEE_COLLECTOR), validityBlocks });
  writeAccount(layer, address, { classHash: BigInt(OZ_ACCOUNT_CLASS_HASH), publicKey: pub });
  layer.set(balanceKey(strk, address), RELAYER_STRK);
  layer.set(supplyKey(strk), layer.get(supplyKey(strk)) + RELAYER_STRK);
  layer.set(allowanceKey(strk, address, pool), 2n ** 256n - 1n);
  layer.commit();
  return { attestKey: randomBytes(32).toString("hex"), relayer: { address: toAddress(address), privateKey } };
}
