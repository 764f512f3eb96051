import { describe, expect, it } from "vitest";
import { AccountRole, address, type Instruction } from "@solana/kit";
import { detectAction } from "../../src/venues/registry";
import { evaluateRules } from "../../src/judge/rules/engine";
import { PAYER, solanaTx } from "./helpers";

const STAKE = address("Stake11111111111111111111111111111111111111");
const CLOCK = address("SysvarC1ock11111111111111111111111111111111");
const HISTORY = address("SysvarStakeHistory1111111111111111111111111");
const CONFIG = address("StakeConfig11111111111111111111111111111111");
const STAKE_ACC = "3Cu9hUZrUQ1JXrwUeSGmiDJmhJsW4YUSU9HaXoKKRdSX";
const VOTE = "9QU2QSxhb24FUX3Tu2FpczXjpK3VYrvRudywSZaM29mF";
const VAULT = "7Np41oeYqPefeNQEHSv1UDhYrehxin3NStELsSKCT4K2";

const u32 = (n: number) => Uint8Array.from([n & 255, (n >> 8) & 255, 0, 0]);
const withLamports = (ix: number, lamports: bigint) => {
  const d = new Uint8Array(12);
  d.set(u32(ix));
  new DataView(d.buffer).setBigUint64(4, lamports, true);
  return d;
};
const ro = (a: string) => ({ address: address(a), role: AccountRole.READONLY });
const rw = (a: string) => ({ address: address(a), role: AccountRole.WRITABLE });
const signer = { address: address(PAYER), role: AccountRole.READONLY_SIGNER };

const delegateIx: Instruction = { programAddress: STAKE, accounts: [rw(STAKE_ACC), ro(VOTE), ro(CLOCK), ro(HISTORY), ro(CONFIG), signer], data: u32(2) };
const deactivateIx: Instruction = { programAddress: STAKE, accounts: [rw(STAKE_ACC), ro(CLOCK), signer], data: u32(5) };
const withdrawIx = (to: string, lamports: bigint): Instruction => ({ programAddress: STAKE, accounts: [rw(STAKE_ACC), rw(to), ro(CLOCK), ro(HISTORY), signer], data: withLamports(4, lamports) });
const authorizeIx: Instruction = { programAddress: STAKE, accounts: [rw(STAKE_ACC), ro(CLOCK), signer], data: Uint8Array.from([1, 0, 0, 0, ...new Uint8Array(32).fill(7), 1, 0, 0, 0]) };
const splitIx: Instruction = { programAddress: STAKE, accounts: [rw(STAKE_ACC), rw(VAULT), signer], data: withLamports(3, 1_000_000_000n) };

describe("Solana native stake program", () => {
  it("DelegateStake is a delegation of the stake account to the vote account (no amount: the balance is not in the transaction)", () => {
    const f = detectAction({ transaction: solanaTx([delegateIx]) }, "solana", null);
    expect(f).toMatchObject({ actionFamily: "staking", actionType: "stake.delegateStake", recipients: [VOTE] });
    expect(f?.staking).toMatchObject({ asset: "SOL", direction: "delegate", validator: VOTE, amount: null });
    expect(f?.details).toMatchObject({ stakeAccount: STAKE_ACC });
  });

  it("Deactivate is an undelegation", () => {
    const f = detectAction({ transaction: solanaTx([deactivateIx]) }, "solana", null);
    expect(f?.staking).toMatchObject({ direction: "undelegate" });
  });

  it("Withdraw moves the lamports it names to the recipient account", () => {
    const f = detectAction({ transaction: solanaTx([withdrawIx(VAULT, 2_500_000_000n)]) }, "solana", { prices: { SOL: 100 } });
    expect(f).toMatchObject({ actionFamily: "staking", actionType: "stake.withdrawStake", recipients: [VAULT], notionalUsd: 250 });
    expect(f?.transfers?.[0]).toMatchObject({ asset: "SOL", amount: "2.5", to: VAULT, from: STAKE_ACC });
  });

  it("Authorize is a permission change; other stake instructions stay unclassified", () => {
    expect(detectAction({ transaction: solanaTx([authorizeIx]) }, "solana", null)?.actionFamily).toBe("permission");
    const split = detectAction({ transaction: solanaTx([splitIx]) }, "solana", null);
    expect(split?.actionFamily).toBe("unknown");
    expect(split?.actionType).toBe("stake.split");
  });
});

describe("rules over decoded stake instructions", () => {
  const judge = (intent: string, ix: Instruction, context: Record<string, unknown> = {}) => {
    const action = { transaction: solanaTx([ix]) };
    return evaluateRules({ intent, action, facts: detectAction(action, "solana", context), context, reference: null, note: null, preset: "generic" }).verdict;
  };
  const validators = { validator_set: { [VOTE]: "Example vote account" } };

  it("'pulling stake out' wording forbids a withdrawal from a stake account but not a delegation", () => {
    const intent = "Point our stake at the vote accounts in context.validator_set only. Do not deactivate or withdraw our stake.";
    expect(judge(intent, delegateIx, validators)).toBe("ALLOW");
    expect(judge(intent, withdrawIx(VAULT, 1_000_000_000n), validators)).toBe("BLOCK");
    expect(judge(intent, deactivateIx, validators)).toBe("BLOCK");
  });

  it("a delegation to a vote account outside the list is blocked", () => {
    const other = "GE6atKoWiQ2pt3zL7N13pjNHjdLVys8LinG8qeJLcAiL";
    const ix: Instruction = { ...delegateIx, accounts: [rw(STAKE_ACC), ro(other), ro(CLOCK), ro(HISTORY), ro(CONFIG), signer] };
    expect(judge("Delegate stake only to the vote accounts in context.validator_set.", ix, validators)).toBe("BLOCK");
  });

  it("withdrawals from stake accounts limited to one destination: the destination decides", () => {
    const intent = "Withdrawals from our stake accounts may only go to the vault in context.vault.";
    const ctx = { vault: VAULT };
    expect(judge(intent, withdrawIx(VAULT, 3_000_000_000n), ctx)).toBe("ALLOW");
    expect(judge(intent, withdrawIx("GE6atKoWiQ2pt3zL7N13pjNHjdLVys8LinG8qeJLcAiL", 3_000_000_000n), ctx)).toBe("BLOCK");
  });
});
