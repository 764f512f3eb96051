/**
 * Starknet addresses at the edge (the port's AddressCodec): a felt below 2^251 - 256 written as 0x-hex
 * (1 to 64 digits) or decimal, canonical form 0x + 64 lowercase hex, equality by value.
 */
import { ChainInputError, type AddressCodec } from "../port";
import { FeltError, normaliseAddress, parseFelt } from "./felt";

export const starknetAddressCodec: AddressCodec = {
  describe: "a Starknet address (a felt: 0x + up to 64 hex digits, or decimal, below 2^251 - 256)",
  parse(input, field = "address") {
    try {
      return normaliseAddress(typeof input === "string" ? input.trim() : input, field);
    } catch (e) {
      if (e instanceof FeltError) throw new ChainInputError(e.message);
      throw e;
    }
  },
  validate(input) {
    try {
      normaliseAddress(input);
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  },
  normalise(address) {
    return starknetAddressCodec.parse(address);
  },
  equals(a, b) {
    try {
      return parseFelt(a) === parseFelt(b);
    } catch {
      return false;
    }
  },
  display(address) {
    const s = (() => {
      try {
        return normaliseAddress(address);
      } catch {
        return address;
      }
    })();
    return s.length > 14 ? `${s.slice(0, 6)}...${s.slice(-4)}` : s;
  },
};
