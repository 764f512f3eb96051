/**
 * Native Stake program instructions (Stake11111111111111111111111111111111111111). Data starts with a u32
 * little-endian StakeInstruction index; account order is the program's own. Delegating and deactivating keep
 * the SOL in the owner's stake account (staking facts); Withdraw moves lamports out of a stake account to a
 * recipient, so it is also a transfer to that recipient. The amount a stake account holds is not in the
 * transaction, so delegate/deactivate carry no amount. Authorize variants change who controls the account.
 * Any other instruction is reported by name with no family, so a rule can never treat it as harmless.
 */
import { wholeUnits, fromBase, usdOf } from "./decimal";
import { facts, fmt, fmtUsd, type FactsInit } from "./facts";
import { priceOf } from "./prices";
import { u32le, u64le, type SolIx } from "./solana";

type Ctx = Record<string, unknown> | null | undefined;

export const STAKE_PROGRAM = "Stake11111111111111111111111111111111111111";

const NAMES = [
  "initialize", "authorize", "delegateStake", "split", "withdraw", "deactivate", "setLockup", "merge", "authorizeWithSeed",
  "initializeChecked", "authorizeChecked", "authorizeCheckedWithSeed", "setLockupChecked", "getMinimumDelegation",
  "deactivateDelinquent", "redelegate", "moveStake", "moveLamports",
];
const AUTHORIZE = new Set([1, 8, 10, 11]);

export function stakeIx(ix: SolIx, ctx: Ctx, w: string[]): FactsInit {
  const index = u32le(ix.data, 0);
  const name = index !== null ? (NAMES[index] ?? `instruction${index}`) : "undecodable";
  const type = `stake.${name}`;
  const acc = ix.accounts;
  const stakeAccount = acc[0] ?? null;
  if (index === 2) {
    const vote = acc[1] ?? null;
    const f = facts("solana", "staking", type, "solana");
    f.staking = { asset: "SOL", amount: null, usd: null, direction: "delegate", validator: vote };
    f.assets = ["SOL"];
    f.recipients = vote ? [vote] : [];
    f.details = { stakeAccount, voteAccount: vote, stakeAuthority: acc[5] ?? null };
    f.summary = `Delegate stake account ${stakeAccount} to vote account ${vote}`;
    f.notionalUsd = null;
    return f;
  }
  if (index === 5) {
    const f = facts("solana", "staking", type, "solana");
    f.staking = { asset: "SOL", amount: null, usd: null, direction: "undelegate", validator: null };
    f.assets = ["SOL"];
    f.details = { stakeAccount, stakeAuthority: acc[2] ?? null };
    f.summary = `Deactivate stake account ${stakeAccount}`;
    f.notionalUsd = null;
    return f;
  }
  if (index === 4) {
    const lamports = u64le(ix.data, 4);
    const to = acc[1] ?? null;
    const amount = lamports !== null ? wholeUnits(lamports, 9) : null;
    const usd = lamports !== null ? usdOf(fromBase(lamports, 9), priceOf("SOL", ctx)) : null;
    if (lamports === null) w.push("stake withdraw amount does not decode");
    const f = facts("solana", "staking", "stake.withdrawStake", "solana");
    f.transfers = [{ asset: "SOL", tokenAddress: null, amount, amountBase: lamports?.toString() ?? null, decimals: 9, usd, to, from: stakeAccount, kind: "stake.withdraw" }];
    f.assets = ["SOL"];
    f.details = { stakeAccount, withdrawAuthority: acc[4] ?? null };
    f.summary = `Withdraw ${fmt(amount)} SOL (${fmtUsd(usd)}) from stake account ${stakeAccount} to ${to}`;
    return f;
  }
  if (index !== null && AUTHORIZE.has(index)) {
    const f = facts("solana", "permission", type, "solana");
    f.summary = `Change the stake or withdraw authority of stake account ${stakeAccount}`;
    w.push(`stake ${name} changes who controls stake account ${stakeAccount}`);
    return f;
  }
  const f = facts("solana", "unknown", type, "solana");
  f.summary = `Stake program ${name} on ${stakeAccount}`;
  f.notionalUsd = null;
  return f;
}
