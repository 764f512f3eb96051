/**
 * Solana's fee for a compiled message: 5,000 lamports per signature plus the priority fee
 * (ceil(ComputeBudget unit price in micro-lamports x unit limit / 1e6); the limit defaults to 200,000
 * units per non-budget instruction, at most 1,400,000). Matches litesvm and Agave to the lamport.
 */
import { getCompiledTransactionMessageDecoder } from "@solana/kit";
import { COMPUTE_BUDGET_PROGRAM } from "./spl";

const decoder = getCompiledTransactionMessageDecoder();

export interface ComputeBudget {
  unitPrice: bigint;
  unitLimit: bigint;
}

export function computeBudgetOf(messageBytes: Uint8Array): ComputeBudget & { signatures: number } {
  const msg = decoder.decode(messageBytes) as unknown as { header: { numSignerAccounts: number }; staticAccounts: string[]; instructions: { programAddressIndex: number; data?: Uint8Array }[] };
  let price = 0n;
  let limit: bigint | null = null;
  let nonBudget = 0n;
  for (const ix of msg.instructions) {
    const d = ix.data ?? new Uint8Array();
    if (msg.staticAccounts[ix.programAddressIndex] === COMPUTE_BUDGET_PROGRAM) {
      const v = new DataView(d.buffer, d.byteOffset, d.byteLength);
      if (d[0] === 2 && d.length >= 5) limit = BigInt(v.getUint32(1, true));
      else if (d[0] === 3 && d.length >= 9) price = v.getBigUint64(1, true);
    } else nonBudget++;
  }
  const dflt = nonBudget * 200_000n > 1_400_000n ? 1_400_000n : nonBudget * 200_000n;
  return { unitPrice: price, unitLimit: limit ?? dflt, signatures: msg.header.numSignerAccounts };
}

export function estimateFeeOfMessage(messageBytes: Uint8Array): bigint {
  const b = computeBudgetOf(messageBytes);
  return 5000n * BigInt(b.signatures) + (b.unitPrice * b.unitLimit + 999_999n) / 1_000_000n;
}
