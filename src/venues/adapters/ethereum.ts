/**
 * `ethereum` (alias `evm`): any EVM transaction or batch. Protocol calldata is handed to the protocol's
 * adapter (so a Uniswap swap reports venue `uniswap` even when the caller said `evm`); plain token and
 * native moves are described here; an unrecognised contract call is still reported (family `unknown`)
 * because its chain, target and value are facts the rules can check.
 */
import type { Facts, VenueAdapter } from "../types";
import { finish, type FactsInit } from "../lib/facts";
import { parseEvmBatch, parseEvmTx, type EvmTx } from "../lib/evm";
import { mergeCalls, type EvmProtocol } from "../lib/evm-adapter";
import { describeGeneric, describeUnknownCall } from "../lib/evm-generic";
import { aave } from "./aave";
import { aerodrome } from "./aerodrome";
import { gmx } from "./gmx";
import { lido } from "./lido";
import { morpho } from "./morpho";
import { pendle } from "./pendle";
import { uniswap } from "./uniswap";

type Ctx = Record<string, unknown> | null | undefined;

export const EVM_PROTOCOLS: EvmProtocol[] = [uniswap, aave, lido, morpho, aerodrome, gmx, pendle].map((a) => a.protocol);

function describeTx(tx: EvmTx, ctx: Ctx): FactsInit {
  for (const p of EVM_PROTOCOLS) {
    if (!p.matchesTx(tx)) continue;
    const f = p.describeTx(tx, ctx);
    if (f) return f;
  }
  return describeGeneric(tx, ctx, "ethereum") ?? describeUnknownCall(tx, ctx, "ethereum");
}

function describe(action: unknown, ctx?: Ctx): Facts | null {
  const tx = parseEvmTx(action);
  if (tx) return finish(describeTx(tx, ctx));
  const batch = parseEvmBatch(action);
  if (!batch) return null;
  const parts = batch.map((t) => describeTx(t, ctx));
  const venues = [...new Set(parts.map((p) => p.venue).filter((v) => v !== "ethereum"))];
  return finish(mergeCalls(venues.length === 1 ? venues[0] : "ethereum", parts));
}

function matches(action: unknown): boolean {
  return parseEvmTx(action) !== null || parseEvmBatch(action) !== null;
}

export const ethereum: VenueAdapter = {
  id: "ethereum",
  aliases: ["evm", "eth", "base", "mainnet", "ethereummainnet", "arbitrum", "arb", "optimism", "op", "polygon", "matic", "erc20", "erc721", "erc4626", "nft", "weth", "token", "evmtransaction"],
  matches,
  describe,
};
