/**
 * Custody `embedded` (SPEC 2.5): a self-custodial safe wallet. Its address is the owner's own externally
 * owned account, proven with Sign-In with Ethereum; the key stays in the owner's browser wallet and never
 * reaches the service. Every proposal runs the whole pipeline (simulate, limits, judge) and then waits for
 * the owner, whose wallet signs and sends the exact recorded transaction (embedded-confirm.ts).
 *
 * This file holds the rules other code asks about, with no dependencies on the pipeline:
 * - what an embedded wallet cannot do (EIP-7702 batches, x402 payments, service-side signing), and
 * - SPEC 7's "safe wallet from before self-custodial safe mode that can no longer transact" (legacy).
 *
 * For the x402 tool (`escrow_pay_x402`): call `assertCanPayX402(wallet)` (or read `canPayX402`) before
 * anything else; SPEC 4.12 says a self-custodial safe wallet cannot pay this way.
 */
import { ServiceError } from "../../lib/errors";

/** `provider` shown for embedded wallets: the owner's own wallet signs, not a custodian. */
export const EMBEDDED_PROVIDER = "owner-wallet";
/** What `wallets.key_ref` holds for an embedded wallet: no key, only a marker (the column is NOT NULL). */
export const EMBEDDED_KEY_REF = JSON.stringify({ custody: "embedded", key: "held by the owner's wallet; never sent to Arbiter" });

export interface CustodyFacts {
  custody: string;
  legacy_safe?: boolean | null;
}

export const isEmbedded = (w: CustodyFacts): boolean => w.custody === "embedded";

export const LEGACY_SAFE_MESSAGE =
  "this safe wallet was created before self-custodial safe mode and can no longer transact; withdraw its funds from the dashboard and create a new safe wallet (connect your own wallet to keep custody)";

/** SPEC 4.12: `escrow_pay_x402` is refused for self-custodial safe wallets (and for legacy ones). */
export function canPayX402(w: CustodyFacts): { ok: true } | { ok: false; reason: string } {
  if (isEmbedded(w)) return { ok: false, reason: "a self-custodial safe wallet cannot pay x402 invoices: the payment authorization would have to be signed by the service, which never holds this wallet's key" };
  if (w.legacy_safe) return { ok: false, reason: LEGACY_SAFE_MESSAGE };
  return { ok: true };
}

export function assertCanPayX402(w: CustodyFacts): void {
  const r = canPayX402(w);
  if (!r.ok) throw new ServiceError(w.legacy_safe ? "conflict" : "invalid_input", "propose_failed", r.reason);
}

/**
 * Checked for every proposal before it is recorded (proposeBuilt): legacy safe wallets answer 409
 * `propose_failed`; an embedded wallet refuses what its owner's wallet cannot sign as one plain
 * transaction: x402 payments and EIP-7702 batches (`evm_calls`, swaps needing an approval).
 */
export function checkCustody(w: CustodyFacts, built: { kind: string; payload?: unknown }): void {
  if (w.legacy_safe) throw new ServiceError("conflict", "propose_failed", LEGACY_SAFE_MESSAGE);
  if (!isEmbedded(w)) return;
  if (built.kind === "x402_payment") assertCanPayX402(w);
  const delegate = (built.payload as { delegate?: string | null } | undefined)?.delegate;
  if (delegate) {
    throw new ServiceError(
      "invalid_input",
      "propose_failed",
      "a self-custodial wallet cannot run batches: they need an EIP-7702 delegation that browser wallets do not sign; propose the calls one at a time (evm_transaction)",
    );
  }
}
