/**
 * Which permission a ban or a grant speaks of (agent wallets vs builder fees), a builder fee's own rate limit, a list of
 * allowed agents checked against the agent approved, and "any movement of X out of the account" held for co-signers.
 * Unsafe sides: a banned kind stays blocked, an unlisted agent or builder is never allowed, a rate above the limit is
 * blocked, an action of no known kind stays under the whole ban.
 */
import { describe, expect, it } from "vitest";
import type { ApprovalFact } from "../../../src/venues/types";
import { facts, transfer, verdict } from "./helpers";

const BUILDER = "0x1234567890abcdef1234567890abcdef12345678";
const OTHER = "0xabcdefabcdefabcdefabcdefabcdefabcdefabcd";
const BOT = "0x00000000000000000000000000000000000000b0";

const grant = (kind: "agent" | "builderFee", spender: string, rate = "0.02%") => {
  const a: ApprovalFact = kind === "agent"
    ? { token: "ACCOUNT", spender, amount: null, amountBase: null, unlimited: true, usd: null, kind }
    : { token: "FEE", spender, amount: rate, amountBase: null, unlimited: false, usd: null, kind };
  return facts({ actionFamily: "permission", actionType: kind === "agent" ? "approveAgent" : "approveBuilderFee", summary: `${kind} ${spender}`, approvals: [a] });
};

describe("a ban on one kind of permission", () => {
  const I = `You may approve a builder fee for our front-end builder ${BUILDER} at a max fee rate of at most 0.04%. You must not approve any agent wallet.`;

  it("'must not approve any agent wallet' blocks agents but not the builder fee the same rules allow", () => {
    expect(verdict(I, grant("agent", BOT))).toBe("BLOCK");
    expect(verdict(I, grant("builderFee", BUILDER, "0.03%"))).toBe("ALLOW");
  });

  it("the builder fee's own rate limit and builder are checked", () => {
    expect(verdict(I, grant("builderFee", BUILDER, "0.04%"))).toBe("ALLOW");
    expect(verdict(I, grant("builderFee", BUILDER, "0.05%"))).toBe("BLOCK");
    expect(verdict(I, grant("builderFee", OTHER, "0.01%"))).toBe("BLOCK");
  });

  it("a permission change of no known kind stays under the agent ban", () => {
    const unlabeled = facts({ actionFamily: "permission", actionType: "convertToMultiSigUser", summary: "change account settings" });
    expect(verdict(I, unlabeled)).not.toBe("ALLOW");
  });

  it("'never approve builder fees' does not ban an agent the rules list, and still bans every builder", () => {
    const I2 = "Agent wallets listed in context.agents may be approved. Never approve builder fees.";
    const ctx = { agents: { [BOT]: "exec" } };
    expect(verdict(I2, grant("builderFee", BUILDER), ctx)).toBe("BLOCK");
    expect(verdict(I2, grant("agent", OTHER), ctx)).toBe("BLOCK");
  });

  it("a ban naming permissions in general keeps every kind", () => {
    const I3 = "Never change account permissions (agent wallets, builder fees).";
    expect(verdict(I3, grant("builderFee", BUILDER))).toBe("BLOCK");
    expect(verdict(I3, grant("agent", BOT))).toBe("BLOCK");
  });
});

describe("'any movement of X out of the account' needs co-signers", () => {
  it("holds every send of it for a human", () => {
    const I = "Any movement of USDC out of the account requires co-signature from two stewards.";
    expect(verdict(I, transfer({ amount: "5", usd: 5 }))).toBe("ESCALATE");
    expect(verdict(I, transfer({ amount: "50000", usd: 50000 }))).toBe("ESCALATE");
  });
});
