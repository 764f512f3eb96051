/** Paths and types shared by the build (./build.ts, which loads solc) and the runtime loader (./index.ts). */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const CONTRACTS_DIR = dirname(fileURLToPath(import.meta.url));
export const ARTIFACTS_DIR = join(CONTRACTS_DIR, "artifacts");

/** Every contract we compile, by source file. All are placed with anvil_setCode, so none may use immutables. */
export const CONTRACT_NAMES = ["SandboxUSDC", "Multicall3", "WETH", "ConstantProductPool", "BatchExecutor", "ReceiptAnchor"] as const;
export type ContractName = (typeof CONTRACT_NAMES)[number];

export interface Artifact {
  contractName: string;
  sourceName: string;
  abi: unknown[];
  bytecode: `0x${string}`;
  deployedBytecode: `0x${string}`;
  solcVersion: string;
  settings: { optimizer: { enabled: boolean; runs: number }; evmVersion: string };
  sourceHash: string;
}
