/**
 * A 0x-prefixed hex string: the same type as viem's `Hex`, declared here so code outside src/chains/<family>
 * (lib, ids, hashes) can name it without importing a chain SDK (docs/architecture.md).
 */
export type Hex = `0x${string}`;
