/**
 * Address checks at the request edge, before the wallet (and so its chain) is known: a field that takes an
 * address accepts one that some family's codec parses. The wallet's own codec parses it strictly again
 * when the proposal is planned (ChainInputError with the field: 400 invalid_input), so an address of the
 * wrong family never reaches a payload. Each family adds its codec to FAMILY_CODECS.
 */
import { z } from "zod";
import type { AddressCodec, ChainAdapter, ChainRegistry } from "./port";
import type { AddressComparator } from "./types";
import { checkChain } from "./evm/plan";
import { evmAddressCodec } from "./evm/codec";
import { evmAssets, evmFeeNeeds } from "./evm/adapter";
import { BASE_TOKENS, TokenRegistry } from "./evm/tokens";
import { fixedPrices, type PriceSource } from "../pricing/source";
import { starknetAddressCodec } from "./starknet/codec";

const NO_PRICES: PriceSource = fixedPrices("none", {});
import { ADDRESS_SHAPE_MESSAGE, evmAddressSchema, looksLikeEvmAddress } from "./evm/address";
import { looksLikeSolanaAddress, solanaAddressCodec } from "./solana/codec";

/** One entry per family: `looks` says the string is meant as this family's address (shape only). */
export const FAMILY_CODECS: readonly { family: string; looks: (s: string) => boolean; codec: AddressCodec }[] = [
  { family: "evm", looks: looksLikeEvmAddress, codec: evmAddressCodec },
  // A felt: 0x + 1 to 64 hex digits, or a long decimal. Exactly 40 hex digits is the EVM shape, judged by the EVM
  // rules alone here (a mistyped EIP-55 checksum must not slip through as a felt); the Starknet codec still
  // accepts such an address when a Starknet wallet plans it.
  { family: "starknet", looks: (s) => (/^0x[0-9a-fA-F]{1,64}$/.test(s) && !looksLikeEvmAddress(s)) || /^[0-9]{10,78}$/.test(s), codec: starknetAddressCodec },
  { family: "solana", looks: looksLikeSolanaAddress, codec: solanaAddressCodec },
];

/** Null when some family accepts the address, else the most specific reason (a family whose shape it has). */
export function addressProblem(input: string): string | null {
  const shaped = FAMILY_CODECS.filter((f) => f.looks(input));
  if (shaped.length === 0) return FAMILY_CODECS.length === 1 ? ADDRESS_SHAPE_MESSAGE : `must be an address: ${FAMILY_CODECS.map((f) => f.codec.describe).join("; or ")}`;
  const problems = shaped.map((f) => f.codec.validate(input));
  return problems.includes(null) ? null : (problems[0] ?? null);
}

/** Whether the string has the shape of an address of any family (its checksum aside). */
export const looksLikeAddress = (input: string): boolean => FAMILY_CODECS.some((f) => f.looks(input));

/** The zod schema of an address field in a request: the string as sent, if some family accepts it. */
export function addressSchema() {
  return z
    .string()
    .superRefine((s, ctx) => {
      const p = addressProblem(s);
      if (p) ctx.addIssue({ code: "custom", message: p });
    })
    .describe(`An address of the wallet's chain: ${FAMILY_CODECS.map((f) => f.codec.describe).join("; or ")}`);
}

/** Address fields of the EVM-only input kinds (evm_transaction, evm_calls): 0x shape, EIP-55 on mixed case. */
export const evmKindAddressSchema = () => evmAddressSchema();

/** A field that takes a symbol or an address (asset, sell, buy): something shaped as an address must be a valid one. */
export function symbolOrAddressSchema(max = 100) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .superRefine((s, ctx) => {
      if (!looksLikeAddress(s)) return;
      const p = addressProblem(s);
      if (p) ctx.addIssue({ code: "custom", message: p });
    });
}

/**
 * The codec and well-known tokens of a wallet chain, without a live chain: for reading and editing rules of
 * a wallet whose chain this deployment does not serve (legacy `ethereum` rows, an unconfigured Base) and
 * for the dashboard's preview. Null for a chain no family knows.
 */
export type OfflineChain = Pick<ChainAdapter, "address" | "assets" | "fees" | "checkInputChain">;

export function offlineChain(chain: string): OfflineChain | null {
  if (chain === "base" || chain === "ethereum") {
    return { address: evmAddressCodec, assets: evmAssets({ tokens: new TokenRegistry(BASE_TOKENS), prices: NO_PRICES }), fees: () => evmFeeNeeds(null), checkInputChain: (input) => checkChain(chain, input) };
  }
  return null;
}

/** How to compare addresses of a wallet chain: its adapter's codec, else its family's offline one, else exactly. */
export function comparatorFor(registry: ChainRegistry, chain: string): AddressComparator {
  return (registry.forWallet(chain) ?? offlineChain(chain))?.address ?? { equals: (a, b) => a === b };
}
