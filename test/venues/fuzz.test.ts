import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/lib/canonical-json";
import { ADAPTER_IDS, detectAction, type AdapterId } from "../../src/venues/registry";
import { ACTION_FAMILIES, type Facts } from "../../src/venues/types";
import { DEV_CASES } from "./helpers";

const venue = fc.option(fc.constantFrom<AdapterId>(...ADAPTER_IDS), { nil: null });
const context = fc.option(fc.dictionary(fc.constantFrom("prices", "assets", "tokens", "mints", "markets", "decimals", "address_book", "vaults", "meta"), fc.jsonValue()), { nil: null });

function checkFacts(f: Facts | null) {
  if (f === null) return;
  expect((ADAPTER_IDS as readonly string[]).includes(f.venue)).toBe(true);
  expect(ACTION_FAMILIES).toContain(f.actionFamily);
  expect(typeof f.summary).toBe("string");
  expect(f.notionalUsd === null || Number.isFinite(f.notionalUsd)).toBe(true);
  for (const a of f.assets) expect(typeof a).toBe("string");
  // facts go into the transcript as canonical JSON: no bigint, no cycles, no NaN or Infinity anywhere
  expect(() => JSON.stringify(f)).not.toThrow();
  expect(() => canonicalJson(f)).not.toThrow();
}

/** Replace one leaf somewhere in a real payload with arbitrary JSON. */
function mutate(value: unknown, path: number[], replacement: unknown): unknown {
  if (path.length === 0 || value === null || typeof value !== "object") return replacement;
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  if (entries.length === 0) return replacement;
  const [key] = entries[path[0] % entries.length];
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string | number, unknown>;
  copy[key] = mutate((value as Record<string | number, unknown>)[key], path.slice(1), replacement);
  return copy;
}

describe("detectAction never throws", () => {
  it("on arbitrary JSON with any venue and context", () => {
    fc.assert(
      fc.property(fc.jsonValue(), venue, context, (action, v, ctx) => {
        checkFacts(detectAction(action, v, ctx as Record<string, unknown> | null));
      }),
      { numRuns: 600 },
    );
  });

  it("on real payloads with one part replaced by arbitrary JSON", () => {
    const objects = DEV_CASES.filter((c) => typeof c.action === "object");
    fc.assert(
      fc.property(fc.constantFrom(...objects), fc.array(fc.nat(), { maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), venue, (c, path, replacement, v) => {
        checkFacts(detectAction(mutate(c.action, path, replacement), v, c.context ?? null));
        checkFacts(detectAction(c.action, v, mutate(c.context ?? {}, path, replacement) as Record<string, unknown>));
      }),
      { numRuns: 400 },
    );
  });

  it("on hostile shapes: deep nesting, huge arrays, prototype keys, wrong types", () => {
    let deep: unknown = { type: "order", orders: [] };
    for (let i = 0; i < 5000; i++) deep = { action: deep, calls: [deep] };
    const huge = { type: "order", orders: Array.from({ length: 20_000 }, () => ({ a: 0, b: true, p: "1", s: "1", r: false, t: { limit: { tif: "Gtc" } } })), grouping: "na" };
    const cases: unknown[] = [
      deep,
      huge,
      JSON.parse('{"__proto__": {"type": "order"}, "constructor": {"prototype": 1}}'),
      { to: "0x0000000000000000000000000000000000000001", data: `0x${"ab".repeat(150_000)}` },
      { to: "0x0000000000000000000000000000000000000001", data: `0xa9059cbb${"ff".repeat(64)}`, value: "1e18" },
      { transaction: "A".repeat(15_000) },
      { x402Version: 2, accepted: { network: 5 }, payload: { authorization: { value: {}, to: [] } } },
      { calls: Array.from({ length: 1000 }, () => ({ contractAddress: "0x1", entrypoint: "transfer", calldata: [] })) },
      { type: "usdSend", amount: "1e400", destination: "x" },
      { type: "updateIsolatedMargin", asset: 1, ntli: "9".repeat(99) },
      { tokenID: "1".repeat(80), price: "NaN", size: "Infinity", side: "BUY" },
      { inputMint: "So11111111111111111111111111111111111111112", outputMint: "So11111111111111111111111111111111111111112", amount: "-1" },
    ];
    const ctx = JSON.parse('{"assets": {"__proto__": "BTC", "0": {"name": 5}}, "prices": {"constructor": 1, "BTC": "1e309"}, "tokens": []}');
    for (const a of cases) {
      for (const v of [null, ...ADAPTER_IDS]) {
        const t0 = performance.now();
        checkFacts(detectAction(a, v, ctx));
        expect(performance.now() - t0).toBeLessThan(1000);
      }
    }
    const absurd = detectAction({ type: "order", orders: [{ a: 0, b: true, p: "1e300", s: "1e80", r: false, t: { limit: { tif: "Gtc" } } }, { a: 0, b: true, p: "1e300", s: "1e80", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" }, null, { assets: { "0": "BTC" } });
    expect(absurd?.orders?.[0].notionalUsd).toBe(Number.MAX_VALUE);
    expect(absurd?.notionalUsd).toBe(Number.MAX_VALUE);
    const f = detectAction(huge, null, { assets: { "0": "BTC" }, prices: { BTC: 1 } });
    expect(f?.orders).toHaveLength(100);
    expect(f?.warnings.join(" ")).toMatch(/first 100 of 20000/);
  });

  it("is fast on real payloads", () => {
    const objects = DEV_CASES.filter((c) => typeof c.action === "object");
    for (const c of objects) detectAction(c.action, null, c.context ?? null); // warm up
    const t0 = performance.now();
    for (let i = 0; i < 5; i++) for (const c of objects) detectAction(c.action, null, c.context ?? null);
    const perCall = (performance.now() - t0) / (5 * objects.length);
    expect(perCall).toBeLessThan(5);
  });
});
