import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  BASE_USDC,
  SANDBOX_POOL,
  deriveSandboxAccounts,
  loadOrCreateSandboxSeed,
  sandboxPublicClient,
  startSandbox,
  type AnvilRestartInfo,
  type Sandbox,
} from "../../src/sandbox";
import { CONTRACT_NAMES } from "../../src/sandbox/contracts/build-paths";
import { SandboxUSDCAbi, runtimeCode } from "../../src/sandbox/contracts";
import { randomAddress } from "./helpers";

const dirs: string[] = [];
const running: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
/** Which artifact's runtime code sits at `address`, if any. */
const runtimeCodeAt = async (rpcUrl: string, address: `0x${string}`) => {
  const code = ((await sandboxPublicClient(rpcUrl).getCode({ address })) ?? "0x").toLowerCase();
  return CONTRACT_NAMES.find((n) => runtimeCode(n).toLowerCase() === code);
};
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "arbiter-sandbox-"));
  dirs.push(d);
  return d;
};
const start = async (opts: Parameters<typeof startSandbox>[0]) => {
  const s = await startSandbox(opts);
  running.push(s);
  return s;
};

describe("startSandbox", () => {
  it("keeps its seed (mode 0600) and chain under DATA_DIR across restarts; set-up is a no-op the second time", async () => {
    const dataDir = tmp();
    const a = await start({ dataDir });
    const seedFile = join(dataDir, "sandbox", "seed");
    expect(statSync(seedFile).mode & 0o777).toBe(0o600);
    expect(deriveSandboxAccounts(loadOrCreateSandboxSeed(dataDir)).faucet.address).toBe(a.accounts.faucet.address);
    const holder = randomAddress();
    await a.faucet.fund({ address: holder, asset: "USDC", amount: "7" });
    const blockBefore = await sandboxPublicClient(a.rpcUrl).getBlockNumber();
    await a.stop();
    expect(existsSync(join(dataDir, "sandbox", "anvil-state.json"))).toBe(true);

    const b = await start({ dataDir });
    expect(b.accounts.faucet.address).toBe(a.accounts.faucet.address);
    const pub = sandboxPublicClient(b.rpcUrl);
    expect(await pub.readContract({ address: BASE_USDC, abi: SandboxUSDCAbi, functionName: "balanceOf", args: [holder] })).toBe(7_000_000n);
    expect(await pub.getBlockNumber()).toBe(blockBefore);
    await b.stop();
  });

  it("re-runs set-up when a restart lost the chain (in-memory sandbox killed)", async () => {
    const sb = await start({});
    const restarted = new Promise<AnvilRestartInfo>((resolve) => sb.anvil.onRestart(resolve));
    process.kill(sb.anvil.pid!, "SIGKILL");
    expect(await restarted).toMatchObject({ stateLost: true });
    expect(await runtimeCodeAt(sb.rpcUrl, BASE_USDC)).toBe("SandboxUSDC");
    expect(await runtimeCodeAt(sb.rpcUrl, SANDBOX_POOL)).toBe("ConstantProductPool");
    const r = await sb.faucet.fund({ address: randomAddress(), asset: "USDC", amount: "1" });
    expect(r.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    await sb.stop();
  });
});
