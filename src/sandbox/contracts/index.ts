/**
 * Compiled sandbox contracts: typed ABIs (generated `as const`) and the bytecode of the committed artifacts.
 * Nothing here compiles; see ./build.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Hex } from "viem";
import { ARTIFACTS_DIR, type Artifact, type ContractName } from "./build-paths";

export {
  SandboxUSDCAbi,
  Multicall3Abi,
  WETHAbi,
  ConstantProductPoolAbi,
  BatchExecutorAbi,
  ReceiptAnchorAbi,
} from "./artifacts/abis";
export type { Artifact, ContractName };

const cache = new Map<ContractName, Artifact>();

/** The committed artifact of one contract (read once, then cached). */
export function loadArtifact(name: ContractName): Artifact {
  let a = cache.get(name);
  if (!a) {
    a = JSON.parse(readFileSync(join(ARTIFACTS_DIR, `${name}.json`), "utf8")) as Artifact;
    cache.set(name, a);
  }
  return a;
}

/** Runtime code, as placed with anvil_setCode. */
export const runtimeCode = (name: ContractName): Hex => loadArtifact(name).deployedBytecode;
