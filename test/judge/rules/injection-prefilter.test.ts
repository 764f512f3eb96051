import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ANY, PATTERNS } from "../../../src/judge/rules/injection";

// Words every pattern is built from, plus filler: generated texts hit each pattern's branches often.
const WORDS = (
  "ignore disregard forget override bypass skip suspend all any the your previous prior policy risk rules instructions limits checks " +
  "owner admin administrator management finance compliance treasury team ceo cfo boss has have had already just approved authorized " +
  "authorised signed-off signed off on okay okayed ok'd cleared whitelisted allowlisted pre-approved preapproved confirmed i we pre-vetted " +
  "system emergency manual security without no need for to run skipping bypassing safety further verification review approval [ ] : " +
  "note prompt message added moved put this it on allow white list white-list is has been was exempt exempted you must should are required " +
  "instructed please approve sign execute payment transfer transaction order do not don't never block escalate flag reject AI agent agents " +
  "pay send are now new instruction act as exception exemption granted made wallet address account changed BTC buy sell 97050 desk"
).split(" ");

describe("the injection prefilter", () => {
  it("is one alternation of exactly the patterns, all case-insensitive only", () => {
    for (const re of PATTERNS) expect(re.flags).toBe("i");
    expect(ANY.flags).toBe("i");
    expect(ANY.source).toBe(PATTERNS.map((re) => `(?:${re.source})`).join("|"));
  });

  it("matches a text exactly when some pattern does", () => {
    const text = fc.array(fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 6 })), { maxLength: 25 }).map((w) => w.join(" "));
    let positives = 0;
    fc.assert(
      fc.property(text, (t) => {
        const some = PATTERNS.some((re) => re.test(t));
        if (some) positives++;
        return ANY.test(t) === some;
      }),
      { numRuns: 20_000 },
    );
    expect(positives).toBeGreaterThan(500); // the generator reaches the interesting side too
  });
});
