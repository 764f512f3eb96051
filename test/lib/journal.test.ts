/**
 * src/lib/journal.ts: the append-only journal under the sandbox nodes' snapshots. A torn last line (a crash
 * mid-append, never acknowledged) is dropped and cut off; entries a newer snapshot already holds are
 * skipped; damage before the last line is refused rather than skipped.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Journal } from "../../src/lib/journal";

const dir = mkdtempSync(join(tmpdir(), "arbiter-journal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `j${++n}.journal`);

describe("journal", () => {
  it("reads back what was appended, in order, and continues the sequence", () => {
    const file = fresh();
    const a = new Journal<{ k: number }>(file);
    expect(a.open(0)).toEqual([]);
    for (let k = 1; k <= 5; k++) expect(a.append({ k })).toBe(k);
    a.close();
    const b = new Journal<{ k: number }>(file);
    expect(b.open(0).map((r) => r.entry.k)).toEqual([1, 2, 3, 4, 5]);
    expect(b.append({ k: 6 })).toBe(6);
    b.close();
  });

  it("skips what the snapshot already holds (a crash between the snapshot's rename and the truncation)", () => {
    const file = fresh();
    const a = new Journal<string>(file);
    a.open(10);
    a.append("eleven");
    a.append("twelve");
    a.close();
    expect(new Journal<string>(file).open(11).map((r) => r.entry)).toEqual(["twelve"]);
    expect(new Journal<string>(file).open(12)).toEqual([]);
  });

  it("drops a torn last line and cuts it off, so the next append starts clean", () => {
    const file = fresh();
    const a = new Journal<string>(file);
    a.open(0);
    a.append("one");
    a.append("two");
    a.close();
    appendFileSync(file, '{"seq":3,"entry":"thr');
    const b = new Journal<string>(file);
    expect(b.open(0).map((r) => r.entry)).toEqual(["one", "two"]);
    expect(b.append("three")).toBe(3);
    b.close();
    expect(readFileSync(file, "utf8").split("\n").filter(Boolean)).toHaveLength(3);
    expect(new Journal<string>(file).open(0).map((r) => r.entry)).toEqual(["one", "two", "three"]);
  });

  it("refuses damage before the last line, and a gap in the sequence", () => {
    const damaged = fresh();
    writeFileSync(damaged, '{"seq":1,"entry":"a"}\n{"seq":2,"ent\n{"seq":3,"entry":"c"}\n');
    expect(() => new Journal<string>(damaged).open(0)).toThrow(/unreadable journal line/);
    const gap = fresh();
    writeFileSync(gap, '{"seq":1,"entry":"a"}\n{"seq":3,"entry":"c"}\n');
    expect(() => new Journal<string>(gap).open(0)).toThrow(/jumps from seq 1 to 3/);
  });

  it("asks for compaction once the journal outgrows both the floor and the snapshot", () => {
    const j = new Journal<string>(fresh(), 100);
    j.open(0);
    expect(j.wantsCompaction(0)).toBe(false);
    while (j.bytes < 100) j.append("x".repeat(20));
    expect(j.wantsCompaction(50)).toBe(true);
    expect(j.wantsCompaction(10_000)).toBe(false);
    j.truncate();
    expect(j.bytes).toBe(0);
    j.close();
  });
});
