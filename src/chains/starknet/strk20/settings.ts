/**
 * A deployment's STRK20 settings, resolved once at start-up: the pool, the proving service and paymaster
 * endpoints, the paymaster's API key, the fee recipients a quote may pay and the fee ceilings per token.
 * Null when the deployment has no pool and prover: the STRK20 tools then answer "not available here".
 */
import { parseUnitsStrict } from "../../../lib/money";
import { STARKNET_TOKENS, tokenBySymbol } from "../constants";
import { normaliseAddress } from "../felt";

export interface Strk20Settings {
  pool: string;
  proverUrl: string;
  paymasterUrl: string | null;
  /** The paymaster's API key; never logged, never answered. */
  apiKey: string | undefined;
  feeRecipients: readonly string[];
  /** Fee ceiling per fee-token address, base units. A token with no ceiling cannot pay the relayer. */
  maxFee: ReadonlyMap<string, bigint>;
  provingLagBlocks: number;
  sandbox: boolean;
}

/** Ceilings when STRK20_MAX_RELAY_FEE is unset (whole units): generous next to the quotes seen (research §1.8). */
export const DEFAULT_MAX_RELAY_FEE = "STRK:10,ETH:0.005,USDC:5,USDT:5";

export function parseMaxRelayFee(spec: string): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const part of spec.split(",")) {
    const [sym, amount] = part.trim().split(":");
    const t = tokenBySymbol(sym ?? "");
    if (!t || !amount) throw new Error(`STRK20_MAX_RELAY_FEE: "${part.trim()}" is not SYMBOL:amount`);
    out.set(t.address, parseUnitsStrict(amount.trim(), t.decimals));
  }
  return out;
}

export function strk20Settings(o: {
  pool?: string;
  proverUrl?: string;
  paymasterUrl?: string;
  apiKey?: string;
  feeRecipients?: string;
  maxRelayFee?: string;
  provingLagBlocks?: number;
  sandbox: boolean;
}): Strk20Settings | null {
  if (!o.pool || !o.proverUrl) return null;
  return {
    pool: normaliseAddress(o.pool, "STRK20_POOL_ADDRESS"),
    proverUrl: o.proverUrl,
    paymasterUrl: o.paymasterUrl ?? null,
    apiKey: o.apiKey,
    feeRecipients: (o.feeRecipients ?? "")
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean)
      .map((x) => normaliseAddress(x, "STRK20_FEE_RECIPIENTS")),
    maxFee: parseMaxRelayFee(o.maxRelayFee ?? DEFAULT_MAX_RELAY_FEE),
    provingLagBlocks: o.provingLagBlocks ?? (o.sandbox ? 0 : 10),
    sandbox: o.sandbox,
  };
}

export const feeTokenSymbol = (address: string) => STARKNET_TOKENS.find((t) => t.address === address)?.symbol ?? address;
