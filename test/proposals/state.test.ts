import { describe, expect, it } from "vitest";
import { assertTransition, canTransition, decide, effectiveStatus, holdsReservation, isTerminal, ownerActionable, PROPOSAL_STATUSES, type DecisionInput } from "../../src/proposals/state";

const base: DecisionInput = { verdict: "ALLOW", walletMode: "autonomous", simulationStatus: "clean", limitsCheckable: true, canSign: true };

describe("decide (SPEC 3)", () => {
  it("executes only ALLOW on an autonomous wallet with a clean, checkable simulation and a signer", () => {
    expect(decide(base)).toEqual({ next: "execute" });
  });

  it("holds everything else for the owner", () => {
    expect(decide({ ...base, walletMode: "safe" }).next).toBe("awaiting_user");
    expect(decide({ ...base, verdict: "ESCALATE" }).next).toBe("awaiting_user");
    expect(decide({ ...base, verdict: null }).next).toBe("awaiting_user");
    expect(decide({ ...base, simulationStatus: "unavailable" }).next).toBe("awaiting_user");
    expect(decide({ ...base, limitsCheckable: false }).next).toBe("awaiting_user");
    expect(decide({ ...base, canSign: false }).next).toBe("awaiting_user");
    // A kind the chain always holds (named Solana transfers): held on ALLOW, still blocked on BLOCK.
    expect(decide({ ...base, ownerHold: "named transfers wait" })).toEqual({ next: "awaiting_user", reason: "named transfers wait" });
    expect(decide({ ...base, ownerHold: "named transfers wait", verdict: "BLOCK" }).next).toBe("blocked");
  });

  it("blocks BLOCK, and blocks a reverting simulation whatever the judge said (hard rule)", () => {
    expect(decide({ ...base, verdict: "BLOCK" })).toEqual({ next: "blocked", reason: null });
    expect(decide({ ...base, verdict: "BLOCK", simulationStatus: "reverted" })).toEqual({ next: "blocked", reason: null });
    for (const verdict of ["ALLOW", "ESCALATE", null] as const) {
      for (const walletMode of ["autonomous", "safe"] as const) {
        const d = decide({ ...base, verdict, walletMode, simulationStatus: "reverted" });
        expect(d.next).toBe("blocked");
        expect((d as { reason: string }).reason).toMatch(/simulation reverts/);
      }
    }
  });
});

describe("transitions", () => {
  it("allows only the documented moves; terminal states never move", () => {
    expect(canTransition("verifying", "executing")).toBe(true);
    expect(canTransition("awaiting_user", "executing")).toBe(true);
    expect(canTransition("executing", "executed")).toBe(true);
    expect(canTransition("executing", "failed")).toBe(true);
    expect(canTransition("awaiting_user", "expired")).toBe(true);
    expect(canTransition("executing", "awaiting_user")).toBe(false);
    expect(canTransition("blocked", "executing")).toBe(false);
    expect(() => assertTransition("expired", "executing")).toThrow(/cannot go from expired to executing/);
    for (const s of ["blocked", "executed", "failed", "rejected", "expired"] as const) {
      expect(isTerminal(s)).toBe(true);
      for (const to of PROPOSAL_STATUSES) expect(canTransition(s, to)).toBe(false);
    }
  });
});

describe("expiry and reservations", () => {
  const now = new Date("2030-01-01T12:00:00Z");
  const past = new Date(now.getTime() - 1);
  const future = new Date(now.getTime() + 60_000);

  it("reads a held proposal past its window as expired", () => {
    expect(effectiveStatus("awaiting_user", past, now)).toBe("expired");
    expect(effectiveStatus("awaiting_user", now, now)).toBe("expired");
    expect(effectiveStatus("awaiting_user", future, now)).toBe("awaiting_user");
    expect(effectiveStatus("executed", past, now)).toBe("executed");
  });

  it("holds the daily-cap reservation only while funds may still move, or after they did", () => {
    expect(holdsReservation("verifying", null, now)).toBe(true);
    expect(holdsReservation("awaiting_user", future, now)).toBe(true);
    expect(holdsReservation("awaiting_user", past, now)).toBe(false);
    expect(holdsReservation("executing", null, now)).toBe(true);
    expect(holdsReservation("executed", null, now)).toBe(true);
    for (const s of ["blocked", "failed", "rejected", "expired"] as const) expect(holdsReservation(s, null, now)).toBe(false);
  });

  it("lets the owner act only on a held proposal inside its window", () => {
    expect(ownerActionable("awaiting_user", future, now)).toEqual({ ok: true });
    const expired = ownerActionable("awaiting_user", past, now);
    expect(expired.ok).toBe(false);
    expect((expired as { why: string }).why).toMatch(/expired/);
    expect(ownerActionable("executed", null, now).ok).toBe(false);
  });
});
