/**
 * The sandbox prover's native `compile_actions`: client actions -> server actions, with the pool's rules
 * (research/starknet.md §1.3): the viewing key registered (or being registered) for the user, notes spent
 * only by their owner and only once, per-token running balances never negative and zero at the end, and at
 * least one replay-protecting action. Channels, subchannels, open notes and external invokes are decoded by
 * custody but not modelled here: the sandbox prover refuses them (invalid input) rather than pretend.
 */
import { ActionsError, channelKeyOf, viewingPublicKey, type CompileCall } from "../../strk20/actions";
import type { SandboxNode } from "../node";
import { slot, type ServerAction } from "./model";
import { readSlot } from "./pool";
import { Layer } from "../storage";


export function compileActions(node: SandboxNode, pool: bigint, c: CompileCall): ServerAction[] {
  const read = (key: bigint) => readSlot(new Layer({ get: (k: string) => node.read(k) }), pool, key);
  const user = BigInt(c.user);
  const pub = viewingPublicKey(c.viewingKey);
  const registered = read(slot.viewingKey(user));
  const out: ServerAction[] = [];
  const balance = new Map<bigint, bigint>();
  const add = (token: bigint, d: bigint, k: number) => {
    const v = (balance.get(token) ?? 0n) + d;
    if (v < 0n) throw new ActionsError(`action ${k}: NEGATIVE_BALANCE (the actions spend more of token 0x${token.toString(16)} than they bring in so far)`);
    balance.set(token, v);
  };
  let replayProtected = false;
  let settingKey = false;
  const written = new Set<bigint>();
  for (const [k, a] of c.actions.entries()) {
    switch (a.type) {
      case "SetViewingKey":
        if (registered !== 0n) throw new ActionsError(`action ${k}: VIEWING_KEY_ALREADY_SET (the pool keeps the first registered key forever)`);
        out.push({ type: "WriteOnce", key: slot.viewingKey(user), value: pub });
        settingKey = true;
        replayProtected = true;
        break;
      case "Deposit":
        if (a.amount === 0n) throw new ActionsError(`action ${k}: ZERO_AMOUNT`);
        out.push({ type: "TransferFrom", token: BigInt(a.token), from: user, amount: a.amount });
        add(BigInt(a.token), a.amount, k);
        break;
      case "UseNote": {
        const own = channelKeyOf(c.user, pub);
        if (a.channelKey !== own) throw new ActionsError(`action ${k}: NOT_NOTE_OWNER (the channel key is not the user's)`);
        const noteKey = slot.note(a.channelKey, BigInt(a.token), a.index);
        const amount = read(noteKey);
        if (amount === 0n) throw new ActionsError(`action ${k}: NOTE_NOT_FOUND`);
        const nullifier = slot.nullifier(noteKey);
        if (read(nullifier) !== 0n || written.has(nullifier)) throw new ActionsError(`action ${k}: NOTE_ALREADY_SPENT`);
        written.add(nullifier);
        out.push({ type: "WriteOnce", key: nullifier, value: 1n });
        add(BigInt(a.token), amount, k);
        replayProtected = true;
        break;
      }
      case "CreateEncNote": {
        const recipientKey = BigInt(a.recipient) === user && settingKey ? pub : read(slot.viewingKey(BigInt(a.recipient)));
        if (recipientKey === 0n) throw new ActionsError(`action ${k}: RECIPIENT_NOT_REGISTERED (the recipient has no viewing key in the pool)`);
        if (recipientKey !== a.recipientPublicKey) throw new ActionsError(`action ${k}: WRONG_RECIPIENT_PUBLIC_KEY`);
        if (a.amount === 0n) throw new ActionsError(`action ${k}: ZERO_AMOUNT`);
        const noteKey = slot.note(channelKeyOf(a.recipient, recipientKey), BigInt(a.token), a.index);
        if (read(noteKey) !== 0n || written.has(noteKey)) throw new ActionsError(`action ${k}: NOTE_INDEX_USED`);
        written.add(noteKey);
        out.push({ type: "WriteOnce", key: noteKey, value: a.amount });
        add(BigInt(a.token), -a.amount, k);
        replayProtected = true;
        break;
      }
      case "Withdraw":
        if (a.amount === 0n) throw new ActionsError(`action ${k}: ZERO_AMOUNT`);
        out.push({ type: "TransferTo", token: BigInt(a.token), to: BigInt(a.to), amount: a.amount });
        add(BigInt(a.token), -a.amount, k);
        break;
      default:
        throw new ActionsError(`action ${k}: ${a.type} is not modelled by the sandbox prover`);
    }
  }
  if (!settingKey && registered === 0n) throw new ActionsError("NOT_REGISTERED: the user has no viewing key in the pool (start with SetViewingKey)");
  if (!settingKey && registered !== pub) throw new ActionsError("VIEWING_KEY_MISMATCH: the viewing key does not match the one registered for the user");
  for (const [token, v] of balance) if (v !== 0n) throw new ActionsError(`FINAL_BALANCE_MUST_BE_ZERO (token 0x${token.toString(16)} is left with ${v})`);
  if (!replayProtected) throw new ActionsError("NO_REPLAY_PROTECTION (deposits, withdrawals and invokes alone can be replayed: add a note or spend one)");
  return out;
}
