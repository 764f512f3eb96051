/**
 * `npx tsx bench/profile.ts <file.cpuprofile> [top=30]`: self time by function and by file (package)
 * from a V8 CPU profile, e.g. one written by `BENCH_CPU_PROF=/tmp/prof npm run bench -- --only=verify-small`.
 */
import { readFileSync } from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const [file, topArg] = process.argv.slice(2);
const prof = JSON.parse(readFileSync(file, "utf8")) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const where = (url: string) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  const src = /\/work\/[^/]+\/((?:src|bench)\/.*)$/.exec(url);
  return src ? src[1] : url.startsWith("node:") ? url : url || "(native/idle)";
};
const tally = (key: (n: Node) => string) => {
  const t = new Map<string, number>();
  for (const [id, us] of self) {
    const k = key(byId.get(id)!);
    t.set(k, (t.get(k) ?? 0) + us);
  }
  return [...t.entries()].sort((a, b) => b[1] - a[1]);
};
const top = Number(topArg ?? 30);
const show = (title: string, rows: [string, number][]) => {
  console.log(`\n${title}`);
  for (const [k, us] of rows.slice(0, top)) console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
};
console.log(`total sampled ${(total / 1000).toFixed(0)} ms`);
show("self time by package / file", tally((n) => where(n.callFrame.url)));
show("self time by function", tally((n) => `${n.callFrame.functionName || "(anonymous)"}  ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`));
