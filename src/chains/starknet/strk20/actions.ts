/**
 * STRK20 client actions: the Cairo Serde of `compile_actions(user_addr, user_private_key,
 * Span<ClientAction>)` (research/starknet.md §1.3), decoded strictly. Custody decodes the caller's
 * `compileActionsCalldata` here before signing anything: the first felt must be the wallet, the viewing
 * key must be canonical, every variant must be known and its fields well-formed, and nothing may trail.
 * Variant indices and field order follow the pool's ABI order (starknet-privacy actions.cairo).
 */
import { ec } from "starknet";
import { FeltError, normaliseAddress, parseFelt, toAddress, toFeltHex } from "../felt";

export const CURVE_ORDER = ec.starkCurve.CURVE.n;
const U128 = 2n ** 128n;
const U32 = 2n ** 32n;
export const MAX_CLIENT_ACTIONS = 32;

export type ClientAction =
  | { type: "SetViewingKey"; random: bigint }
  | { type: "OpenChannel"; recipient: string; index: bigint; random: bigint; salt: bigint }
  | { type: "OpenSubchannel"; recipient: string; recipientPublicKey: bigint; channelKey: bigint; index: bigint; token: string; salt: bigint }
  | { type: "CreateEncNote"; recipient: string; recipientPublicKey: bigint; token: string; amount: bigint; index: bigint; salt: bigint }
  | { type: "CreateOpenNote"; recipient: string; recipientPublicKey: bigint; token: string; index: bigint; random: bigint }
  | { type: "Deposit"; token: string; amount: bigint }
  | { type: "UseNote"; channelKey: bigint; token: string; index: bigint }
  | { type: "Withdraw"; to: string; token: string; amount: bigint; random: bigint }
  | { type: "InvokeExternal"; contract: string; calldata: bigint[] }
  | { type: "ComputeAndInvoke"; contract: string };

export const VARIANTS = ["SetViewingKey", "OpenChannel", "OpenSubchannel", "CreateEncNote", "CreateOpenNote", "Deposit", "UseNote", "Withdraw", "InvokeExternal", "ComputeAndInvoke"] as const;
/** The phase of each variant: actions must be sorted by phase (never regress). */
export const PHASE: Record<ClientAction["type"], number> = {
  SetViewingKey: 0,
  OpenChannel: 1,
  OpenSubchannel: 2,
  CreateEncNote: 5,
  CreateOpenNote: 5,
  Deposit: 3,
  UseNote: 4,
  Withdraw: 6,
  InvokeExternal: 7,
  ComputeAndInvoke: 7,
};

export class ActionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ActionsError";
  }
}

export interface CompileCall {
  user: string;
  /** The user's private viewing key (the second felt): a secret, never logged or echoed. */
  viewingKey: bigint;
  actions: ClientAction[];
}

/** Decodes `compileActionsCalldata`; throws ActionsError naming the position of the first fault. */
export function decodeCompileCalldata(raw: readonly unknown[]): CompileCall {
  if (raw.length < 3) throw new ActionsError("compileActionsCalldata needs at least [user_addr, viewing_key, n_actions, ...]");
  const cd = raw.map((x, i) => {
    if (typeof x !== "string") throw new ActionsError(`compileActionsCalldata[${i}] must be a felt string (hex or decimal)`);
    try {
      return parseFelt(x.trim(), `compileActionsCalldata[${i}]`);
    } catch (e) {
      throw new ActionsError((e as FeltError).message);
    }
  });
  let i = 0;
  const at = (what: string): bigint => {
    const v = cd[i];
    if (v === undefined) throw new ActionsError(`compileActionsCalldata ends early: ${what} expected at position ${i}`);
    i += 1;
    return v;
  };
  const addr = (what: string): string => {
    const pos = i;
    try {
      return normaliseAddress(at(what), what);
    } catch (e) {
      if (e instanceof ActionsError) throw e;
      throw new ActionsError(`compileActionsCalldata[${pos}] (${what}): ${(e as Error).message}`);
    }
  };
  const bounded = (what: string, bound: bigint): bigint => {
    const pos = i;
    const v = at(what);
    if (v >= bound) throw new ActionsError(`compileActionsCalldata[${pos}] (${what}) is out of range`);
    return v;
  };
  const user = addr("user_addr");
  const viewingKey = at("viewing_key");
  if (viewingKey < 1n || viewingKey >= CURVE_ORDER / 2n) throw new ActionsError("compileActionsCalldata[1] (viewing_key) is not canonical (1 <= k < n/2): PRIVATE_KEY_NOT_CANONICAL");
  const n = at("n_actions");
  if (n < 1n || n > BigInt(MAX_CLIENT_ACTIONS)) throw new ActionsError(`compileActionsCalldata[2] (n_actions) must be 1 to ${MAX_CLIENT_ACTIONS}`);
  const actions: ClientAction[] = [];
  for (let k = 0; k < Number(n); k++) {
    const pos = i;
    const variant = at(`action ${k} variant`);
    const p = `action ${k}`;
    switch (variant) {
      case 0n:
        actions.push({ type: "SetViewingKey", random: at(`${p}.random`) });
        break;
      case 1n:
        actions.push({ type: "OpenChannel", recipient: addr(`${p}.recipient_addr`), index: bounded(`${p}.index (u32)`, U32), random: at(`${p}.random`), salt: at(`${p}.salt`) });
        break;
      case 2n:
        actions.push({ type: "OpenSubchannel", recipient: addr(`${p}.recipient_addr`), recipientPublicKey: at(`${p}.recipient_public_key`), channelKey: at(`${p}.channel_key`), index: at(`${p}.index`), token: addr(`${p}.token`), salt: at(`${p}.salt`) });
        break;
      case 3n: {
        const a = { type: "CreateEncNote" as const, recipient: addr(`${p}.recipient_addr`), recipientPublicKey: at(`${p}.recipient_public_key`), token: addr(`${p}.token`), amount: bounded(`${p}.amount (u128)`, U128), index: at(`${p}.index`), salt: bounded(`${p}.salt (u128)`, U128) };
        if (a.salt < 2n || a.salt >= 2n ** 120n) throw new ActionsError(`${p}.salt must be 2 <= salt < 2^120`);
        actions.push(a);
        break;
      }
      case 4n:
        actions.push({ type: "CreateOpenNote", recipient: addr(`${p}.recipient_addr`), recipientPublicKey: at(`${p}.recipient_public_key`), token: addr(`${p}.token`), index: at(`${p}.index`), random: at(`${p}.random`) });
        break;
      case 5n:
        actions.push({ type: "Deposit", token: addr(`${p}.token`), amount: bounded(`${p}.amount (u128)`, U128) });
        break;
      case 6n:
        actions.push({ type: "UseNote", channelKey: at(`${p}.channel_key`), token: addr(`${p}.token`), index: at(`${p}.index`) });
        break;
      case 7n: {
        const a = { type: "Withdraw" as const, to: addr(`${p}.to_addr`), token: addr(`${p}.token`), amount: bounded(`${p}.amount (u128)`, U128), random: at(`${p}.random`) };
        if (a.random === 0n) throw new ActionsError(`${p}.random must be non-zero`);
        actions.push(a);
        break;
      }
      case 8n: {
        const contract = addr(`${p}.contract_address`);
        const len = at(`${p}.calldata length`);
        if (len > 512n) throw new ActionsError(`${p}.calldata: at most 512 felts`);
        const calldata: bigint[] = [];
        for (let j = 0n; j < len; j++) calldata.push(at(`${p}.calldata[${j}]`));
        actions.push({ type: "InvokeExternal", contract, calldata });
        break;
      }
      case 9n:
        // Its additional-data layout is not published for the deployed class; refusing beats guessing.
        throw new ActionsError(`${p} is ComputeAndInvoke, which this service does not decode or sign`);
      default:
        throw new ActionsError(`compileActionsCalldata[${pos}]: unknown client action variant ${toFeltHex(variant)} (known: 0 to 9, ${VARIANTS.join(", ")})`);
    }
  }
  if (i !== cd.length) throw new ActionsError(`compileActionsCalldata has ${cd.length - i} felt(s) after the last action (malformed Serde)`);
  let phase = -1;
  let invokes = 0;
  for (const [k, a] of actions.entries()) {
    if (PHASE[a.type] < phase) throw new ActionsError(`action ${k} (${a.type}) comes after a later phase: actions must be sorted by phase`);
    phase = PHASE[a.type];
    if (PHASE[a.type] === 7) invokes += 1;
  }
  if (invokes > 1) throw new ActionsError("at most one invoke-phase action");
  return { user, viewingKey, actions };
}

/** Encodes actions as `compileActionsCalldata` (tests, the sandbox's own clients). */
export function encodeCompileCalldata(c: CompileCall): string[] {
  const out: bigint[] = [BigInt(c.user), c.viewingKey, BigInt(c.actions.length)];
  for (const a of c.actions) {
    out.push(BigInt(VARIANTS.indexOf(a.type)));
    switch (a.type) {
      case "SetViewingKey":
        out.push(a.random);
        break;
      case "OpenChannel":
        out.push(BigInt(a.recipient), a.index, a.random, a.salt);
        break;
      case "OpenSubchannel":
        out.push(BigInt(a.recipient), a.recipientPublicKey, a.channelKey, a.index, BigInt(a.token), a.salt);
        break;
      case "CreateEncNote":
        out.push(BigInt(a.recipient), a.recipientPublicKey, BigInt(a.token), a.amount, a.index, a.salt);
        break;
      case "CreateOpenNote":
        out.push(BigInt(a.recipient), a.recipientPublicKey, BigInt(a.token), a.index, a.random);
        break;
      case "Deposit":
        out.push(BigInt(a.token), a.amount);
        break;
      case "UseNote":
        out.push(a.channelKey, BigInt(a.token), a.index);
        break;
      case "Withdraw":
        out.push(BigInt(a.to), BigInt(a.token), a.amount, a.random);
        break;
      case "InvokeExternal":
        out.push(BigInt(a.contract), BigInt(a.calldata.length), ...a.calldata);
        break;
      case "ComputeAndInvoke":
        throw new ActionsError("ComputeAndInvoke is not encoded here");
    }
  }
  return out.map(toFeltHex);
}

/** The viewing public key of a private viewing key (the x coordinate of k*G). */
export const viewingPublicKey = (viewingKey: bigint): bigint => BigInt(ec.starkCurve.getStarkKey(toFeltHex(viewingKey)));

/** The channel key a note to `recipient` is filed under in the sandbox model. */
export const channelKeyOf = (recipient: string, recipientPublicKey: bigint): bigint => ec.starkCurve.poseidonHashMany([BigInt(recipient), recipientPublicKey]);

export { toAddress };
