/**
 * The contracts the sandbox node models natively (it runs no Cairo): the four ERC-20s at their mainnet
 * addresses (OpenZeppelin ERC20 component semantics, Cairo 1 event layout) and the OpenZeppelin account
 * (SRC-6: __validate__, __execute__, is_valid_signature). Each entry point behaves as the Cairo code does
 * for the cases custody cares about; failures are Cairo panics with the OpenZeppelin error strings.
 */
import { fromU256, shortString, toFeltHex, toU256 } from "../felt";
import { OZ_ACCOUNT_CLASS_HASH, SANDBOX_ERC20_CLASS_HASH, SEL, STARKNET_TOKENS } from "../constants";
import { verifyStarkSignature } from "../tx-hash";
import type { Layer, Reader } from "./storage";
import { isPool, poolContract } from "./strk20/pool";
import { SANDBOX_POOL_CLASS_HASH } from "./strk20/model";

/** A Cairo panic: the felt reason string travels up to the transaction's revert_reason. */
export class Panic extends Error {
  /** The call stack at the failure, outermost first (filled in as the panic unwinds). */
  readonly frames: { address: bigint; classHash: string; selector: bigint }[] = [];
  constructor(readonly reason: string) {
    super(reason);
  }

  /** The revert reason in the shape a Starknet node writes it. */
  format(): string {
    const lines = this.frames.map(
      (f, i) => `${i}: Error in the called contract (contract address: ${toFeltHex(f.address)}, class hash: ${f.classHash}, selector: ${toFeltHex(f.selector)}):`,
    );
    let reason: string;
    try {
      reason = `${toFeltHex(shortString(this.reason))} ('${this.reason}')`;
    } catch {
      reason = this.reason;
    }
    return ["Transaction execution has failed:", ...lines, `Execution failed. Failure reason:\n${reason}.`].join("\n");
  }
}

export interface OrderedEvent {
  order: number;
  keys: string[];
  data: string[];
}

export interface Invocation {
  contract_address: string;
  entry_point_selector: string;
  calldata: string[];
  caller_address: string;
  class_hash: string;
  entry_point_type: "EXTERNAL";
  call_type: "CALL";
  result: string[];
  calls: Invocation[];
  events: OrderedEvent[];
  messages: [];
  execution_resources: { l1_gas: number; l2_gas: number };
  is_reverted: boolean;
}

export interface AccountRecord {
  classHash: string;
  publicKey: string;
}

/** What a call can see and touch while a transaction executes. */
export interface ExecContext {
  storage: Layer;
  txHash: bigint;
  nextOrder(): number;
  /** Calls made so far (the sandbox's measure of work for gas). */
  callCount: number;
  /** The transaction's block context (what `get_execution_info` gives a contract); absent in read-only calls. */
  env?: TxEnv;
}

export interface TxEnv {
  /** The number of the block the transaction goes into. */
  blockNumber: bigint;
  blockHash(n: bigint): bigint | undefined;
  chainId: bigint;
  /** The transaction's proof facts (STRK20); empty for an ordinary invoke. */
  proofFacts: bigint[];
}

export const VALID = shortString("VALID");
const U128 = 2n ** 128n;
const MAX_U256 = 2n ** 256n - 1n;
const SRC6_ID = 0x2ceccef7f994940b3962a6c67e0ba4fcd37df7d131417c604f91e03caecc1cdn;
const SRC5_ID = 0x3f918d17e5ee77373b56385708f855659a07f75997f365cf87748628532a055n;

const hex = (x: bigint) => toFeltHex(x);
const addrKey = (x: bigint) => x.toString(16);
export const balanceKey = (token: bigint, owner: bigint) => `erc20:${addrKey(token)}:bal:${addrKey(owner)}`;
export const allowanceKey = (token: bigint, owner: bigint, spender: bigint) => `erc20:${addrKey(token)}:allow:${addrKey(owner)}:${addrKey(spender)}`;
export const supplyKey = (token: bigint) => `erc20:${addrKey(token)}:supply`;

const TOKENS = new Map(STARKNET_TOKENS.map((t) => [BigInt(t.address), t]));

export const nonceKey = (account: bigint) => `acct:${addrKey(account)}:nonce`;
const accountClassKey = (account: bigint) => `acct:${addrKey(account)}:class`;
const accountPubKey = (account: bigint) => `acct:${addrKey(account)}:pub`;

/** Deployed accounts live in the same layered storage, so a simulated deployment is seen by its own calls. */
export function accountRecord(s: Reader, address: bigint): AccountRecord | undefined {
  const cls = s.get(accountClassKey(address));
  if (cls === 0n) return undefined;
  return { classHash: "0x" + cls.toString(16).padStart(64, "0"), publicKey: hex(s.get(accountPubKey(address))) };
}

export function writeAccount(s: Layer, address: bigint, rec: { classHash: bigint; publicKey: bigint }): void {
  s.set(accountClassKey(address), rec.classHash);
  s.set(accountPubKey(address), rec.publicKey);
}

export function classHashAt(s: Reader, address: bigint): string | undefined {
  if (TOKENS.has(address)) return SANDBOX_ERC20_CLASS_HASH;
  if (isPool(s, address)) return SANDBOX_POOL_CLASS_HASH;
  return accountRecord(s, address)?.classHash;
}

export const isToken = (address: bigint) => TOKENS.has(address);

function arg(calldata: bigint[], i: number): bigint {
  const v = calldata[i];
  if (v === undefined) throw new Panic("Failed to deserialize param #" + (i + 1));
  return v;
}

function u256Arg(calldata: bigint[], i: number): bigint {
  const low = arg(calldata, i);
  const high = arg(calldata, i + 1);
  if (low >= U128 || high >= U128) throw new Panic("Failed to deserialize param #" + (i + 1));
  return fromU256(low, high);
}

/** Calls `selector` on `to` as `caller`; returns the invocation record (its events and nested calls). */
export function invoke(ctx: ExecContext, caller: bigint, to: bigint, selector: bigint, calldata: bigint[]): Invocation {
  ctx.callCount += 1;
  const classHash = classHashAt(ctx.storage, to);
  if (!classHash) throw new Panic(`Requested contract address ${hex(to)} is not deployed.`);
  const inv: Invocation = {
    contract_address: hex(to),
    entry_point_selector: hex(selector),
    calldata: calldata.map(hex),
    caller_address: hex(caller),
    class_hash: classHash,
    entry_point_type: "EXTERNAL",
    call_type: "CALL",
    result: [],
    calls: [],
    events: [],
    messages: [],
    execution_resources: { l1_gas: 0, l2_gas: 0 },
    is_reverted: false,
  };
  const emit = (keys: bigint[], data: bigint[]) => inv.events.push({ order: ctx.nextOrder(), keys: keys.map(hex), data: data.map(hex) });
  const token = TOKENS.get(to);
  let result: bigint[];
  try {
    result = token
      ? erc20(ctx, to, token, caller, selector, calldata, emit)
      : classHash === SANDBOX_POOL_CLASS_HASH
        ? poolContract(ctx, inv, to, caller, selector, calldata)
        : account(ctx, inv, to, caller, selector, calldata);
  } catch (e) {
    if (e instanceof Panic) e.frames.unshift({ address: to, classHash, selector });
    throw e;
  }
  inv.result = result.map(hex);
  inv.execution_resources.l2_gas = 40_000 + 10_000 * calldata.length;
  return inv;
}

function entryPointMissing(to: bigint, selector: bigint): never {
  throw new Panic(`Entry point EntryPointSelector(${hex(selector)}) not found in contract ${hex(to)}.`);
}

function erc20(
  ctx: ExecContext,
  self: bigint,
  meta: (typeof STARKNET_TOKENS)[number],
  caller: bigint,
  selector: bigint,
  cd: bigint[],
  emit: (keys: bigint[], data: bigint[]) => void,
): bigint[] {
  const s = ctx.storage;
  const move = (from: bigint, to: bigint, amount: bigint) => {
    if (from === 0n) throw new Panic("ERC20: transfer from 0");
    if (to === 0n) throw new Panic("ERC20: transfer to 0");
    const fb = s.get(balanceKey(self, from));
    if (fb < amount) throw new Panic("ERC20: insufficient balance");
    s.set(balanceKey(self, from), fb - amount);
    s.set(balanceKey(self, to), s.get(balanceKey(self, to)) + amount);
    emit([SEL.Transfer, from, to], toU256(amount));
  };
  const approve = (owner: bigint, spender: bigint, amount: bigint) => {
    if (owner === 0n) throw new Panic("ERC20: approve from 0");
    if (spender === 0n) throw new Panic("ERC20: approve to 0");
    s.set(allowanceKey(self, owner, spender), amount);
    emit([SEL.Approval, owner, spender], toU256(amount));
  };
  switch (selector) {
    case SEL.transfer:
      move(caller, arg(cd, 0), u256Arg(cd, 1));
      return [1n];
    case SEL.transfer_from:
    case SEL.transferFrom: {
      const from = arg(cd, 0);
      const to = arg(cd, 1);
      const amount = u256Arg(cd, 2);
      const current = s.get(allowanceKey(self, from, caller));
      if (current !== MAX_U256) {
        if (current < amount) throw new Panic("ERC20: insufficient allowance");
        s.set(allowanceKey(self, from, caller), current - amount);
      }
      move(from, to, amount);
      return [1n];
    }
    case SEL.approve:
      approve(caller, arg(cd, 0), u256Arg(cd, 1));
      return [1n];
    case SEL.balance_of:
    case SEL.balanceOf:
      return toU256(s.get(balanceKey(self, arg(cd, 0))));
    case SEL.allowance:
      return toU256(s.get(allowanceKey(self, arg(cd, 0), arg(cd, 1))));
    case SEL.decimals:
      return [BigInt(meta.decimals)];
    case SEL.symbol:
      return [shortString(meta.symbol)];
    case SEL.name:
      return [shortString(meta.name)];
    case SEL.total_supply:
    case SEL.totalSupply:
      return toU256(s.get(supplyKey(self)));
    default:
      return entryPointMissing(self, selector);
  }
}

/** Parses the Cairo 1 `__execute__` calldata: [n, (to, selector, len, ...data)*]. */
export function parseMulticall(cd: bigint[]): { to: bigint; selector: bigint; calldata: bigint[] }[] {
  const n = Number(arg(cd, 0));
  const calls: { to: bigint; selector: bigint; calldata: bigint[] }[] = [];
  let i = 1;
  for (let k = 0; k < n; k++) {
    const to = arg(cd, i);
    const sel = arg(cd, i + 1);
    const len = Number(arg(cd, i + 2));
    if (i + 3 + len > cd.length) throw new Panic("Failed to deserialize param #1");
    calls.push({ to, selector: sel, calldata: cd.slice(i + 3, i + 3 + len) });
    i += 3 + len;
  }
  if (i !== cd.length) throw new Panic("Failed to deserialize param #1");
  return calls;
}

export function signatureValid(rec: AccountRecord, hash: bigint, signature: bigint[]): boolean {
  return verifyStarkSignature(BigInt(rec.publicKey), hash, signature);
}

function account(ctx: ExecContext, inv: Invocation, self: bigint, caller: bigint, selector: bigint, cd: bigint[]): bigint[] {
  const rec = accountRecord(ctx.storage, self)!;
  switch (selector) {
    case SEL.__execute__: {
      if (caller !== 0n) throw new Panic("Account: invalid caller");
      const calls = parseMulticall(cd);
      const out: bigint[] = [BigInt(calls.length)];
      for (const c of calls) {
        const child = invoke(ctx, self, c.to, c.selector, c.calldata);
        inv.calls.push(child);
        out.push(BigInt(child.result.length), ...child.result.map(BigInt));
      }
      return out;
    }
    case SEL.is_valid_signature:
    case SEL.isValidSignature: {
      const h = arg(cd, 0);
      const len = Number(arg(cd, 1));
      const sig = cd.slice(2, 2 + len);
      return [signatureValid(rec, h, sig) ? VALID : 0n];
    }
    case SEL.get_public_key:
      return [BigInt(rec.publicKey)];
    case SEL.supports_interface: {
      const id = arg(cd, 0);
      return [id === SRC6_ID || id === SRC5_ID ? 1n : 0n];
    }
    default:
      return entryPointMissing(self, selector);
  }
}

export const ACCOUNT_CLASS = OZ_ACCOUNT_CLASS_HASH;
