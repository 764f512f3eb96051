/**
 * keccak256 for the server's hot paths: libkeccak compiled to WebAssembly (hash-wasm), ~10x faster than the
 * JavaScript keccak in viem on these machines (docs/performance.md). Same function, same output: the
 * browser-side receipt check keeps viem's keccak, and test/receipts/fast-signing.test.ts checks they agree.
 *
 * One hasher serves the process: init/update/digest run synchronously with no await in between, so
 * concurrent requests can never interleave inside one hash.
 */
import { createKeccak } from "hash-wasm";
import type { Hex } from "./hex";

const hasher = await createKeccak(256);

export function keccak256Fast(data: Uint8Array | string): Hex {
  hasher.init();
  hasher.update(data);
  return `0x${hasher.digest("hex")}`;
}
