/**
 * The EVM address codec of the chain port, over the one strict parser (./address.ts): EIP-55 enforced on
 * mixed case, canonical form checksummed, equality case-insensitive.
 */
import { getAddress } from "viem";
import { ChainInputError, type AddressCodec } from "../port";
import { ADDRESS_SHAPE_MESSAGE, checkEvmAddress, looksLikeEvmAddress } from "./address";

export const evmAddressCodec: AddressCodec = {
  describe: "a 0x address (20 bytes hex; EIP-55 checksum when in mixed case)",
  parse(input, field) {
    const r = checkEvmAddress(input.trim());
    if (r.ok) return r.address;
    throw new ChainInputError(r.message, field);
  },
  validate(input) {
    const r = checkEvmAddress(input.trim());
    return r.ok ? null : r.message;
  },
  normalise(address) {
    const a = address.trim();
    if (!looksLikeEvmAddress(a)) throw new ChainInputError(ADDRESS_SHAPE_MESSAGE);
    return getAddress(a.toLowerCase());
  },
  equals(a, b) {
    return looksLikeEvmAddress(a.trim()) && looksLikeEvmAddress(b.trim()) && a.trim().toLowerCase() === b.trim().toLowerCase();
  },
  display(address) {
    return looksLikeEvmAddress(address) ? `${address.slice(0, 6)}...${address.slice(-4)}` : address;
  },
};
