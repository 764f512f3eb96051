/**
 * `npx tsx bench/profile.ts <file.cpuprofile> [top=30] [--from=s] [--to=s] [--timeline]`: self and inclusive
 * time by function and self time by file (package) from a V8 CPU profile, e.g. one written by
 * `BENCH_CPU_PROF=/tmp/prof npm run bench -- --only=verify-small`. The profile covers the service's whole
 * life (start-up and the bench's setup included): `--timeline` prints busy time per second, and
 * `--from`/`--to` (seconds since the profile began) keep one window, such as a scenario's load.
 */
import { readFileSync } from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const args = process.argv.slice(2);
const opt = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const [file, topArg] = args.filter((a) => !a.startsWith("--"));
const prof = JSON.parse(readFileSync(file, "utf8")) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const isIdle = (n: Node) => n.callFrame.functionName === "(idle)";

const from = Number(opt("from") ?? 0) * 1e6;
const to = Number(opt("to") ?? Infinity) * 1e6;
const self = new Map<number, number>();
const perSecond = new Map<number, number>();
let t = 0;
prof.samples.forEach((id, i) => {
  const dt = prof.timeDeltas[i] ?? 0;
  t += dt;
  if (!isIdle(byId.get(id)!)) perSecond.set(Math.floor(t / 1e6), (perSecond.get(Math.floor(t / 1e6)) ?? 0) + dt);
  if (t < from || t > to) return;
  self.set(id, (self.get(id) ?? 0) + dt);
});
if (args.includes("--timeline")) {
  console.log("busy ms per second since the profile began");
  for (const [s, us] of [...perSecond.entries()].sort((a, b) => a[0] - b[0])) console.log(`${String(s).padStart(4)} s  ${(us / 1000).toFixed(0).padStart(5)} ms`);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const idle = [...self.entries()].filter(([id]) => isIdle(byId.get(id)!)).reduce((a, [, us]) => a + us, 0);

const where = (url: string) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  const src = /\/work\/[^/]+\/((?:src|bench)\/.*)$/.exec(url);
  return src ? src[1] : url.startsWith("node:") ? url : url || "(native/idle)";
};
const label = (n: Node) => `${n.callFrame.functionName || "(anonymous)"}  ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
const tally = (key: (n: Node) => string) => {
  const sums = new Map<string, number>();
  for (const [id, us] of self) {
    const k = key(byId.get(id)!);
    sums.set(k, (sums.get(k) ?? 0) + us);
  }
  return [...sums.entries()].sort((a, b) => b[1] - a[1]);
};
// Inclusive: each sample counts once for every distinct function on its stack.
const inclusive = () => {
  const sums = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) seen.add(label(byId.get(cur)!));
    for (const k of seen) sums.set(k, (sums.get(k) ?? 0) + us);
  }
  return [...sums.entries()].sort((a, b) => b[1] - a[1]);
};
const top = Number(topArg ?? 30);
const show = (title: string, rows: [string, number][]) => {
  console.log(`\n${title}`);
  for (const [k, us] of rows.slice(0, top)) console.log(`${((us / (total - idle)) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
};
console.log(`sampled ${(total / 1000).toFixed(0)} ms, of which busy ${((total - idle) / 1000).toFixed(0)} ms (percentages are of busy time)`);
show("self time by package / file", tally((n) => where(n.callFrame.url)).filter(([k]) => k !== "(native/idle)" || true));
show("self time by function", tally(label));
if (args.includes("--inclusive")) show("inclusive time by function", inclusive());
