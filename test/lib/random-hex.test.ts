/** randomHex32 draws from a pooled CSPRNG buffer (src/lib/hashing.ts): every value is fresh, across refills. */
import { describe, expect, it } from "vitest";
import { randomHex32 } from "../../src/lib/hashing";

describe("randomHex32", () => {
  it("gives 0x + 64 hex digits, never the same value twice, across many pool refills", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 128 * 40 + 7; i++) {
      const h = randomHex32();
      expect(h).toMatch(/^0x[0-9a-f]{64}$/);
      seen.add(h);
    }
    expect(seen.size).toBe(128 * 40 + 7);
  });

  it("does not hand out overlapping slices: no 32-byte value shares its first half with another", () => {
    // A slicing bug (an offset moved by less than 32 bytes) would make neighbouring values overlap.
    const halves = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const h = randomHex32();
      halves.add(h.slice(2, 34));
      halves.add(h.slice(34));
    }
    expect(halves.size).toBe(2000);
  });
});
