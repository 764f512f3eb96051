/**
 * The sandbox's model of the STRK20 privacy pool's data: its server actions, storage slots and constants.
 * This is not the deployed pool's ABI: the real ServerAction enum has more variants (Append, Emit*,
 * Invoke) and notes are encrypted; the sandbox keeps three variants and stores note amounts in clear, so
 * tests can read the pool's state. docs/strk20.md says what is modelled and what is not.
 */
import { ec } from "starknet";
import { shortString, toAddress } from "../../felt";

const poseidon = (xs: bigint[]) => ec.starkCurve.poseidonHashMany(xs);

/** The pool sits at the mainnet address the research names, like the sandbox's tokens. */
export const SANDBOX_POOL_ADDRESS = "0x040337b1af3c663e86e333bab5a4b28da8d4652a15a69beee2b677776ffe812a";
/** Labelled felts standing in for the pool's class hash and the virtual OS program hash. */
export const SANDBOX_POOL_CLASS_HASH = toAddress(shortString("arbiter.sandbox.strk20.pool"));
export const SANDBOX_PROGRAM_HASH = shortString("arbiter.sandbox.virtual-snos");
export const SANDBOX_FEE_COLLECTOR = toAddress(shortString("arbiter.sandbox.pool.fees"));
export const SANDBOX_FORWARDER = toAddress(shortString("arbiter.sandbox.avnu.forwarder"));
/** The pool fee (FRI, pulled from the caller of apply_actions): 2 STRK, the Sepolia pool's reported value. */
export const SANDBOX_POOL_FEE = 2n * 10n ** 18n;
export const SANDBOX_VALIDITY_BLOCKS = 450n;

export type ServerAction =
  | { type: "WriteOnce"; key: bigint; value: bigint }
  | { type: "TransferFrom"; token: bigint; from: bigint; amount: bigint }
  | { type: "TransferTo"; token: bigint; to: bigint; amount: bigint };

/** Span<ServerAction> in the sandbox's layout: [n, (variant, fields)*]. */
export function encodeServerActions(actions: ServerAction[]): bigint[] {
  const out: bigint[] = [BigInt(actions.length)];
  for (const a of actions) {
    if (a.type === "WriteOnce") out.push(0n, a.key, a.value);
    else if (a.type === "TransferFrom") out.push(1n, a.token, a.from, a.amount);
    else out.push(2n, a.token, a.to, a.amount);
  }
  return out;
}

/** Decodes a Span<ServerAction> prefix; returns the actions and where they end. Throws on malformed input. */
export function decodeServerActions(cd: readonly bigint[]): { actions: ServerAction[]; end: number } {
  const at = (i: number) => {
    const v = cd[i];
    if (v === undefined) throw new Error("Failed to deserialize param #1");
    return v;
  };
  const n = Number(at(0));
  if (n > 256) throw new Error("Failed to deserialize param #1");
  const actions: ServerAction[] = [];
  let i = 1;
  for (let k = 0; k < n; k++) {
    const v = at(i);
    if (v === 0n) {
      actions.push({ type: "WriteOnce", key: at(i + 1), value: at(i + 2) });
      i += 3;
    } else if (v === 1n || v === 2n) {
      const token = at(i + 1);
      const who = at(i + 2);
      const amount = at(i + 3);
      if (amount >= 2n ** 128n) throw new Error("Failed to deserialize param #1");
      actions.push(v === 1n ? { type: "TransferFrom", token, from: who, amount } : { type: "TransferTo", token, to: who, amount });
      i += 4;
    } else throw new Error("Failed to deserialize param #1");
  }
  return { actions, end: i };
}

/** Pool slots (WriteOnce keys), domain-separated. */
export const slot = {
  viewingKey: (user: bigint) => poseidon([shortString("VIEWING_KEY"), user]),
  note: (channelKey: bigint, token: bigint, index: bigint) => poseidon([shortString("NOTE"), channelKey, token, index]),
  nullifier: (noteKey: bigint) => poseidon([shortString("NULLIFIER"), noteKey]),
};

export const poolKey = (pool: bigint, name: string) => `pool:${pool.toString(16)}:${name}`;
export const poolSlotKey = (pool: bigint, key: bigint) => `pool:${pool.toString(16)}:slot:${key.toString(16)}`;
