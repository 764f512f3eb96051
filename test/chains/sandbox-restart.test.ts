/**
 * The sandbox chain nodes restart from their files (snapshot + journal, src/lib/journal.ts): after many
 * transactions, through compactions, and after a crash that tore the last journal line (that transaction was
 * never acknowledged, so it is gone; everything before it is there and the node carries on).
 */
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSolanaRpc, generateKeyPairSigner, type Address } from "@solana/kit";
import { RpcProvider } from "starknet";
import { startSolanaSandbox, type SolanaSandbox } from "../../src/chains/solana/sandbox";
import { startStarknetSandbox } from "../../src/chains/starknet/sandbox";
import { createStarknetFaucet } from "../../src/chains/starknet/sandbox/faucet";
import { STRK_ADDRESS } from "../../src/chains/starknet/constants";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "arbiter-restart-"));
  dirs.push(d);
  return d;
};
/** Cuts the journal's last line in half, as a kill -9 in the middle of its append would leave it. */
function tearLastLine(file: string): void {
  const text = readFileSync(file, "utf8");
  const start = text.lastIndexOf("\n", text.length - 2) + 1;
  truncateSync(file, start + Math.floor((text.length - start) / 2));
}

describe("Solana sandbox ledger", () => {
  const file = (dir: string) => join(dir, "sandbox", "solana", "ledger.bin");
  const balances = async (sb: SolanaSandbox, owners: Address[]) => {
    const rpc = createSolanaRpc(sb.rpcUrl);
    return Promise.all(owners.map(async (o) => (await rpc.getBalance(o).send()).value));
  };

  it("restarts from its files after many transactions, and after a torn last journal line", { timeout: 180_000 }, async () => {
    const dir = tempDir();
    let sb = await startSolanaSandbox({ dataDir: dir });
    const owners: Address[] = [];
    const sigs: string[] = [];
    for (let i = 0; i < 40; i++) {
      const o = (await generateKeyPairSigner()).address;
      owners.push(o);
      sigs.push((await sb.faucet.fund({ address: o, asset: i % 2 ? "USDC" : "SOL", amount: String(i + 1) })).txHash);
    }
    const before = await balances(sb, owners);
    const slot = sb.ledger.slot();
    await sb.stop();
    // Every change since the snapshot is in the journal, one line each.
    expect(statSync(`${file(dir)}.journal`).size).toBeGreaterThan(0);

    sb = await startSolanaSandbox({ dataDir: dir });
    expect(await balances(sb, owners)).toEqual(before);
    expect(sb.ledger.slot()).toBe(slot);
    for (const s of sigs) expect(sb.ledger.status(s)?.err, s).toBeNull();
    const last = owners.at(-1)!;
    const lastSig = (await sb.faucet.fund({ address: last, asset: "SOL", amount: "3" })).txHash;
    await sb.stop();

    tearLastLine(`${file(dir)}.journal`);
    sb = await startSolanaSandbox({ dataDir: dir });
    expect(sb.ledger.status(lastSig)).toBeNull(); // torn: never acknowledged
    expect(await balances(sb, owners)).toEqual(before);
    const again = await sb.faucet.fund({ address: last, asset: "SOL", amount: "3" });
    await sb.stop();
    sb = await startSolanaSandbox({ dataDir: dir });
    expect(sb.ledger.status(again.txHash)?.err).toBeNull();
    expect((await balances(sb, [last]))[0]).toBe(before.at(-1)! + 3_000_000_000n);
    await sb.stop();
  });

  it("compacts: the journal is folded into the snapshot once it outgrows it", { timeout: 120_000 }, async () => {
    const dir = tempDir();
    let sb = await startSolanaSandbox({ dataDir: dir, compactMinBytes: 0 });
    const owner = (await generateKeyPairSigner()).address;
    const journal = () => statSync(`${file(dir)}.journal`).size;
    // Each funding appends a line of a few accounts; once the journal outgrows the snapshot it is folded in.
    let funded = 0n;
    do {
      await sb.faucet.fund({ address: owner, asset: "SOL", amount: "1" });
      funded += 1_000_000_000n;
      if (funded > 10_000n * 1_000_000_000n) throw new Error("never compacted");
    } while (journal() > 0);
    await sb.faucet.fund({ address: owner, asset: "SOL", amount: "1" });
    funded += 1_000_000_000n;
    await sb.stop();
    sb = await startSolanaSandbox({ dataDir: dir, compactMinBytes: 0 });
    expect((await balances(sb, [owner]))[0]).toBe(funded);
    await sb.stop();
  });
});

describe("Starknet sandbox node", () => {
  it("restarts from its files after many transactions and compactions, and after a torn last journal line", { timeout: 180_000 }, async () => {
    const dir = tempDir();
    const state = join(dir, "starknet-sandbox.json");
    // A low floor: the journal is folded into the snapshot whenever it outgrows it.
    let sb = await startStarknetSandbox({ dataDir: dir, compactMinBytes: 0 });
    let faucet = createStarknetFaucet(sb.url, sb.node.faucet);
    const owners = Array.from({ length: 60 }, (_, i) => "0x" + (0x5a11ce00n + BigInt(i)).toString(16));
    const hashes: string[] = [];
    for (const [i, o] of owners.entries()) hashes.push((await faucet.fund({ address: o, asset: "STRK", amount: String(i + 1) })).txHash);
    const height = sb.node.height;
    const balance = (o: string) => balanceOf(sb.url, o);
    const before = await Promise.all(owners.map(balance));
    await sb.close();
    expect((JSON.parse(readFileSync(state, "utf8")) as { journalSeq?: number }).journalSeq).toBeGreaterThan(0);

    sb = await startStarknetSandbox({ dataDir: dir, compactMinBytes: 0 });
    expect(sb.node.height).toBe(height);
    expect(await Promise.all(owners.map(balance))).toEqual(before);
    for (const h of hashes) expect(sb.node.tx(BigInt(h)), h).toBeDefined();
    await sb.close();

    // Without compaction the last transaction is a journal line; tear it.
    sb = await startStarknetSandbox({ dataDir: dir });
    faucet = createStarknetFaucet(sb.url, sb.node.faucet);
    const last = await faucet.fund({ address: owners[0]!, asset: "STRK", amount: "5" });
    await sb.close();
    tearLastLine(`${state}.journal`);
    sb = await startStarknetSandbox({ dataDir: dir });
    expect(sb.node.tx(BigInt(last.txHash))).toBeUndefined();
    expect(sb.node.height).toBe(height);
    expect(await Promise.all(owners.map(balance))).toEqual(before);
    faucet = createStarknetFaucet(sb.url, sb.node.faucet);
    const again = await faucet.fund({ address: owners[0]!, asset: "STRK", amount: "5" });
    await sb.close();
    sb = await startStarknetSandbox({ dataDir: dir });
    expect(sb.node.tx(BigInt(again.txHash))).toBeDefined();
    expect(await balance(owners[0]!)).toBe(before[0]! + 5n * 10n ** 18n);
    await sb.close();
  });
});

async function balanceOf(url: string, owner: string): Promise<bigint> {
  const [low, high] = await new RpcProvider({ nodeUrl: url }).callContract({ contractAddress: STRK_ADDRESS, entrypoint: "balance_of", calldata: [owner] });
  return BigInt(low!) + (BigInt(high!) << 128n);
}
