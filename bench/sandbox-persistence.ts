/**
 * What a transaction costs to persist on the sandbox chain nodes: the journal line it appends now
 * (src/lib/journal.ts: write + fsync of what it changed) against the whole-state rewrite it used to cost
 * (serialise the whole state, temp file + fsync + rename: the node's own compaction), measured in the same run
 * on the same disk, at growing state sizes. The journal line's size depends on the transaction, not on the state; the rewrite grows with
 * the state. Prints bytes and microseconds per transaction and the ratio (no timed assertion).
 *
 *   npm run bench:sandbox-persistence [-- --steps=50,200,600 --samples=30]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPairSigner } from "@solana/kit";
import { startSolanaSandbox } from "../src/chains/solana/sandbox";
import { startStarknetSandbox } from "../src/chains/starknet/sandbox";
import { createStarknetFaucet } from "../src/chains/starknet/sandbox/faucet";
import { Journal } from "../src/lib/journal";

const arg = (name: string, dflt: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? dflt;
const STEPS = arg("steps", "50,200,600").split(",").map(Number);
const SAMPLES = Number(arg("samples", "30"));

interface Row {
  chain: string;
  txs: number;
  stateBytes: number;
  lineBytes: number;
  appendUs: number;
  rewriteUs: number;
}

/** The last journal line (the latest transaction's), and the full snapshot after folding the journal in. */
function measure(chain: string, txs: number, journalFile: string, snapshotFile: string, compact: () => void, scratch: string): Row {
  const lines = readFileSync(journalFile, "utf8").trim().split("\n");
  const last = JSON.parse(lines.at(-1)!) as { entry: unknown };
  compact();
  const snapshot = readFileSync(snapshotFile);
  const journal = new Journal<unknown>(join(scratch, `${chain}-${txs}.journal`));
  journal.open(0);
  let t = process.hrtime.bigint();
  for (let i = 0; i < SAMPLES; i++) journal.append(last.entry);
  const appendUs = Number(process.hrtime.bigint() - t) / 1000 / SAMPLES;
  journal.close();
  // The node's own compaction is the old per-transaction path: serialise the whole state, write it durably.
  t = process.hrtime.bigint();
  for (let i = 0; i < SAMPLES; i++) compact();
  const rewriteUs = Number(process.hrtime.bigint() - t) / 1000 / SAMPLES;
  return { chain, txs, stateBytes: snapshot.length, lineBytes: Buffer.byteLength(lines.at(-1)!) + 1, appendUs, rewriteUs };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "arbiter-bench-persist-"));
  const scratch = mkdtempSync(join(tmpdir(), "arbiter-bench-persist-scratch-"));
  const rows: Row[] = [];
  try {
    // Never compact on its own: the bench folds the journal in at each step.
    const sol = await startSolanaSandbox({ dataDir: join(dir, "sol"), compactMinBytes: Number.MAX_SAFE_INTEGER });
    const solFile = join(dir, "sol", "sandbox", "solana", "ledger.bin");
    let done = 0;
    for (const step of STEPS) {
      for (; done < step; done++) await sol.faucet.fund({ address: (await generateKeyPairSigner()).address, asset: done % 2 ? "USDC" : "SOL", amount: "1" });
      rows.push(measure("solana", done, `${solFile}.journal`, solFile, () => sol.ledger.compact(), scratch));
    }
    await sol.stop();

    const sn = await startStarknetSandbox({ dataDir: join(dir, "sn"), compactMinBytes: Number.MAX_SAFE_INTEGER });
    const snFile = join(dir, "sn", "starknet-sandbox.json");
    const faucet = createStarknetFaucet(sn.url, sn.node.faucet);
    done = 0;
    for (const step of STEPS) {
      for (; done < step; done++) await faucet.fund({ address: "0x" + (0xbe4c0000n + BigInt(done)).toString(16), asset: "STRK", amount: "1" });
      rows.push(measure("starknet", done, `${snFile}.journal`, snFile, () => sn.node.compact(), scratch));
    }
    await sn.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`per-transaction persistence, ${SAMPLES} samples each (journal append+fsync vs whole-state rewrite+fsync+rename)`);
  console.log("chain     txs   state KiB   line B   bytes ratio   append us   rewrite us   time ratio");
  for (const r of rows) {
    console.log(
      `${r.chain.padEnd(9)} ${String(r.txs).padStart(4)} ${(r.stateBytes / 1024).toFixed(0).padStart(11)} ${String(r.lineBytes).padStart(8)} ${(r.stateBytes / r.lineBytes).toFixed(0).padStart(12)}x ${r.appendUs.toFixed(0).padStart(11)} ${r.rewriteUs.toFixed(0).padStart(12)} ${(r.rewriteUs / r.appendUs).toFixed(1).padStart(11)}x`,
    );
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
