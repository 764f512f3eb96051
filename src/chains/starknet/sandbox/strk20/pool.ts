/**
 * The STRK20 privacy pool as the sandbox node models it natively (it runs no Cairo). `apply_actions` makes
 * the checks of the real pool's `validate_proof` that need no STARK verifier (research/starknet.md §1.6, §5.3):
 * the proof-facts layout, program and OS-config hashes, the base block (known, its hash matching, older than
 * the current block, within `proof_validity_blocks`), and the message hash equal to the hash of the submitted
 * actions; then it pulls the pool fee from the caller and applies the actions atomically. WriteOnce slots
 * refuse a second write (`NON_ZERO_VALUE`), so a nullifier spent twice fails: that is the double-spend check.
 * Whether the proof itself is a valid STARK is NOT checked anywhere in the sandbox (see sandbox/strk20/attest.ts).
 */
import { SEL, STRK_ADDRESS, selector } from "../../constants";
import { toU256 } from "../../felt";
import { messageHash, osConfigHash, parseProofFacts } from "../../strk20/proof-facts";
import { invoke, Panic, type ExecContext, type Invocation } from "../contracts";
import type { Reader } from "../storage";
import { decodeServerActions, poolKey, poolSlotKey, SANDBOX_POOL_CLASS_HASH, SANDBOX_PROGRAM_HASH, slot } from "./model";

const SEL_POOL = {
  apply_actions: selector("apply_actions"),
  compile_actions: selector("compile_actions"),
  get_fee_amount: selector("get_fee_amount"),
  get_fee_collector: selector("get_fee_collector"),
  get_proof_validity_blocks: selector("get_proof_validity_blocks"),
  get_version: selector("get_version"),
  nullifier_exists: selector("nullifier_exists"),
  get_public_key: selector("get_public_key"),
  get_note: selector("get_note"),
};

export const POOL_VERSION = 0x322e30n; // '2.0'

export function isPool(s: Reader, address: bigint): boolean {
  return s.get(poolKey(address, "class")) !== 0n;
}

export interface PoolParams {
  fee: bigint;
  collector: bigint;
  validityBlocks: bigint;
}

export function writePool(s: { set(k: string, v: bigint): void }, address: bigint, p: PoolParams): void {
  s.set(poolKey(address, "class"), BigInt(SANDBOX_POOL_CLASS_HASH));
  s.set(poolKey(address, "fee"), p.fee);
  s.set(poolKey(address, "collector"), p.collector);
  s.set(poolKey(address, "validity"), p.validityBlocks);
}

export const readSlot = (s: Reader, pool: bigint, key: bigint): bigint => s.get(poolSlotKey(pool, key));

const arg = (cd: bigint[], i: number): bigint => {
  const v = cd[i];
  if (v === undefined) throw new Panic(`Failed to deserialize param #${i + 1}`);
  return v;
};

export function poolContract(ctx: ExecContext, inv: Invocation, self: bigint, caller: bigint, sel: bigint, cd: bigint[]): bigint[] {
  const s = ctx.storage;
  switch (sel) {
    case SEL_POOL.get_fee_amount:
      return [s.get(poolKey(self, "fee"))];
    case SEL_POOL.get_fee_collector:
      return [s.get(poolKey(self, "collector"))];
    case SEL_POOL.get_proof_validity_blocks:
      return [s.get(poolKey(self, "validity"))];
    case SEL_POOL.get_version:
      return [POOL_VERSION];
    case SEL_POOL.nullifier_exists:
      return [readSlot(s, self, arg(cd, 0)) !== 0n ? 1n : 0n];
    case SEL_POOL.get_public_key:
      return [readSlot(s, self, slot.viewingKey(arg(cd, 0)))];
    case SEL_POOL.get_note:
      // The sandbox stores note amounts in clear (a real pool stores encrypted notes).
      return [readSlot(s, self, arg(cd, 0))];
    case SEL_POOL.compile_actions:
      throw new Panic("compile_actions runs in the proving service's virtual block, not on the sandbox node");
    case SEL_POOL.apply_actions:
      return applyActions(ctx, inv, self, caller, cd);
    default:
      throw new Panic(`Entry point EntryPointSelector(0x${sel.toString(16)}) not found in contract 0x${self.toString(16)}.`);
  }
}

function applyActions(ctx: ExecContext, inv: Invocation, self: bigint, caller: bigint, cd: bigint[]): bigint[] {
  const s = ctx.storage;
  const env = ctx.env;
  if (!env) throw new Panic("apply_actions needs a transaction");
  let decoded: ReturnType<typeof decodeServerActions>;
  try {
    decoded = decodeServerActions(cd);
  } catch (e) {
    throw new Panic((e as Error).message);
  }
  // Option<ScreeningAttestation>: [1] = None, [0, issued_at, sig_r, sig_s] = Some (outside the proof commitment).
  const rest = cd.slice(decoded.end);
  if (!((rest.length === 1 && rest[0] === 1n) || (rest.length === 4 && rest[0] === 0n))) throw new Panic("Failed to deserialize param #2");

  const facts = env.proofFacts;
  if (facts.length === 0) throw new Panic("MISSING_PROOF_FACTS");
  const f = parseProofFacts(facts);
  if (!f) throw new Panic("INVALID_PROOF_FACTS");
  if (f.programHash !== SANDBOX_PROGRAM_HASH) throw new Panic("INVALID_PROGRAM_HASH");
  if (f.configHash !== osConfigHash(env.chainId, BigInt(STRK_ADDRESS))) throw new Panic("Virtual OS config hash mismatch");
  const validity = s.get(poolKey(self, "validity"));
  if (f.baseBlockNumber >= env.blockNumber) throw new Panic("INVALID_BASE_BLOCK");
  if (env.blockNumber > f.baseBlockNumber + validity) throw new Panic("PROOF_EXPIRED");
  if (env.blockHash(f.baseBlockNumber) !== f.baseBlockHash) throw new Panic("INVALID_BASE_BLOCK_HASH");
  const serialized = cd.slice(0, decoded.end);
  if (messageHash(self, BigInt(SANDBOX_POOL_CLASS_HASH), serialized) !== f.messageHash) throw new Panic("INVALID_PROOF_MSG");

  // The pool fee, pulled from whoever called (the relayer, or the wallet itself).
  const fee = s.get(poolKey(self, "fee"));
  if (fee > 0n) inv.calls.push(invoke(ctx, self, BigInt(STRK_ADDRESS), SEL.transfer_from, [caller, s.get(poolKey(self, "collector")), ...toU256(fee)]));

  for (const a of decoded.actions) {
    if (a.type === "WriteOnce") {
      if (a.value === 0n) throw new Panic("ZERO_VALUE");
      if (readSlot(s, self, a.key) !== 0n) throw new Panic("NON_ZERO_VALUE");
      s.set(poolSlotKey(self, a.key), a.value);
    } else if (a.type === "TransferFrom") {
      inv.calls.push(invoke(ctx, self, a.token, SEL.transfer_from, [a.from, self, ...toU256(a.amount)]));
    } else {
      inv.calls.push(invoke(ctx, self, a.token, SEL.transfer, [a.to, ...toU256(a.amount)]));
    }
  }
  return [];
}
