import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/process";

/** Declared engine ranges above ours that are known to work on Node 20 (docs/decisions.md, "Node version"). */
const WORKS_ON_20 = new Set(["starknet"]);

const minOf = (range: string): number[] | null => {
  const m = /^>=\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : null;
};
const atLeast = (a: number[], b: number[]) => a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] >= b[2];

describe("engines", () => {
  it("package.json's Node range covers what every direct dependency declares, so npm ci does not warn", () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
    const ours = minOf(pkg.engines.node)!;
    const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8"));
    expect(lock.packages[""].engines.node).toBe(pkg.engines.node);
    const behind: string[] = [];
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })) {
      const dep = JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8"));
      const theirs = typeof dep.engines?.node === "string" ? minOf(dep.engines.node) : null;
      if (theirs && !atLeast(ours, theirs) && !WORKS_ON_20.has(name)) behind.push(`${name} needs ${dep.engines.node}`);
    }
    expect(behind).toEqual([]);
  });
});
