import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildJudgeInput, main } from "../../../src/judge/eval/cli";
import type { JudgeCase } from "../../../src/judge/eval/score";

const c: JudgeCase = {
  id: "c1",
  intent: "Trade only BTC perps on Hyperliquid. Max notional $2,000 per order.",
  action: { type: "order", orders: [{ a: 0, b: true, p: "97000", s: "0.01", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" },
  venue: "hyperliquid",
  context: { assets: { "0": "BTC" }, reference: { source: "chat", excerpt: "background" } },
  expected: "BLOCK",
  acceptable: ["BLOCK"],
  tags: ["t"],
};

function file(cases: JudgeCase[]): string {
  const dir = mkdtempSync(join(tmpdir(), "judge-eval-"));
  const p = join(dir, "cases.jsonl");
  writeFileSync(p, cases.map((x) => JSON.stringify(x)).join("\n"));
  return p;
}

afterEach(() => vi.restoreAllMocks());

describe("judge:eval CLI", () => {
  it("exits 1 when a runner gives an unsafe ALLOW, 0 otherwise", async () => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const p = file([c]);
    expect(await main([p], async () => "ALLOW")).toBe(1);
    expect(await main([p, "--json"], async () => "BLOCK")).toBe(0);
    expect(await main([])).toBe(2);
  });

  it("builds the JudgeInput the service would: facts detected, reference split out, preset generic", () => {
    const input = buildJudgeInput(c);
    expect(input.preset).toBe("generic");
    expect(input.reference).toEqual({ source: "chat", excerpt: "background" });
    expect(input.context).not.toHaveProperty("reference");
    expect(input.facts?.venue).toBe("hyperliquid");
    expect(input.facts?.orders?.[0].asset).toBe("BTC");
  });

  it("scores with the embedded rules judge by default", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((s: string) => void lines.push(s));
    const allowCase: JudgeCase = { ...c, id: "c2", expected: "ALLOW", acceptable: ["ALLOW"] };
    expect(await main([file([allowCase]), "--json"])).toBe(0);
    expect(JSON.parse(lines[0])).toMatchObject({ cases: 1, correct: 1, unsafeAllows: [] });
  });

  it("scores several files, a held-out fold, and fails below a floor", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((s: string) => void lines.push(s));
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const other = Array.from({ length: 10 }, (_, i): JudgeCase => ({ ...c, id: `o${i}`, intent: `${c.intent} (${i})` }));
    const files = [file([c]), file(other)];
    expect(await main([...files, "--json"], async () => "BLOCK")).toBe(0);
    expect(JSON.parse(lines.pop() as string)).toMatchObject({ cases: 11, correct: 11 });
    expect(await main([...files, "--json", "--fold", "2/5"], async () => "BLOCK")).toBe(0);
    const held = JSON.parse(lines.pop() as string) as { cases: number };
    expect(await main([...files, "--json", "--train=2/5"], async () => "BLOCK")).toBe(0);
    const rest = JSON.parse(lines.pop() as string) as { cases: number };
    expect(held.cases + rest.cases).toBe(11);
    expect(await main([...files, "--floor", "0.5"], async () => "ESCALATE")).toBe(1);
    expect(await main([...files, "--floor", "0"], async () => "ESCALATE")).toBe(0);
    expect(await main([files[0], files[0]], async () => "BLOCK")).toBe(2);
    expect(await main([files[0], "--fold", "6/5"])).toBe(2);
    expect(await main([files[0], "--bogus"])).toBe(2);
  });
});
