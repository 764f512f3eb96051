/**
 * `npm run bench:judge [-- --seconds=3]`: the embedded rules judge alone (no service, no database), with its
 * same-run baseline. The same row `npm run bench` prints, without starting anything.
 */
import { judgeCost } from "./lib/judge-cost";
import { judgeRow } from "./report";
import { VERIFY_SMALL } from "./lib/fixtures";

const seconds = Number(process.argv.slice(2).find((a) => a.startsWith("--seconds="))?.split("=")[1] ?? 3);
const judge = await judgeCost(seconds, VERIFY_SMALL);
console.log(`- ${judgeRow(judge)}`);
console.log(`- one call on the bench request: p50 ${judge.oneP50Ms.toFixed(3)} ms, p99 ${judge.oneP99Ms.toFixed(3)} ms`);
