/**
 * The contracts a venue's approvals go to, as the venue adapters know them: an approval "to the Aave pool" is an
 * approval whose spender is an Aave pool. Used where a list names a venue and the action is an approval (on the
 * token's chain, so its own venue is never the one the owner named): the spender says which venue it is for.
 * A spender this table does not know belongs to no venue we can name.
 */
import { POOLS as AAVE_POOLS } from "../../venues/adapters/aave";
import { ROUTERS as UNISWAP_ROUTERS } from "../../venues/adapters/uniswap/index";
import { PERMIT2 } from "../../venues/lib/evm-generic";

export { PERMIT2 };

const BY_VENUE: Record<string, readonly string[]> = {
  aave: Object.keys(AAVE_POOLS),
  // Permit2 is Uniswap's; its routers pull tokens through it.
  uniswap: [...Object.keys(UNISWAP_ROUTERS), PERMIT2],
};

/** Addresses (lower case) of the contracts a venue's approvals go to; empty when none are known. */
export function spendersOf(venue: string): readonly string[] {
  return BY_VENUE[venue] ?? [];
}

/** The venue a spender belongs to, or null. */
export function venueOfSpender(spender: string): string | null {
  const s = spender.toLowerCase();
  for (const [v, xs] of Object.entries(BY_VENUE)) if (xs.includes(s)) return v;
  return null;
}
