import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getFreePort, rpcCall, startAnvil, type AnvilHandle, type AnvilRestartInfo } from "../../src/sandbox";

const dirs: string[] = [];
const handles: AnvilHandle[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "arbiter-anvil-"));
  dirs.push(d);
  return d;
};
const start = async (opts: Parameters<typeof startAnvil>[0]) => {
  const h = await startAnvil(opts);
  handles.push(h);
  return h;
};
const ADDR = "0x1111111111111111111111111111111111111111";
const balance = (h: AnvilHandle, a = ADDR) => rpcCall<string>(h.rpcUrl, "eth_getBalance", [a, "latest"]);
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterAll(async () => {
  await Promise.all(handles.map((h) => h.stop()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("anvil supervisor", () => {
  it("starts on a free port with chain id 8453 and stops cleanly", async () => {
    const port = await getFreePort();
    const h = await start({ port });
    expect(h.rpcUrl).toBe(`http://127.0.0.1:${port}`);
    expect(await rpcCall(h.rpcUrl, "eth_chainId")).toBe("0x2105");
    const pid = h.pid!;
    expect(isAlive(pid)).toBe(true);
    await h.stop();
    await h.stop(); // idempotent
    expect(isAlive(pid)).toBe(false);
  });

  it("persists state across a stop/start with the same state file", async () => {
    const stateFile = join(tmp(), "nested", "state.json");
    const a = await start({ stateFile });
    await rpcCall(a.rpcUrl, "anvil_setBalance", [ADDR, "0x1234"]);
    await rpcCall(a.rpcUrl, "evm_mine");
    await a.stop();
    expect(existsSync(stateFile)).toBe(true);

    const b = await start({ stateFile });
    expect(await balance(b)).toBe("0x1234");
    expect(Number(await rpcCall<string>(b.rpcUrl, "eth_blockNumber"))).toBeGreaterThanOrEqual(1);
    await b.stop();
  });

  it("restarts a killed anvil, keeps the periodically dumped state and re-runs setup", async () => {
    const stateFile = join(tmp(), "state.json");
    const setups: { restart: boolean; stateLost: boolean }[] = [];
    const h = await start({
      stateFile,
      stateIntervalSeconds: 1,
      setup: async (_url, info) => {
        setups.push(info);
      },
    });
    expect(setups).toEqual([{ restart: false, stateLost: true }]);
    await rpcCall(h.rpcUrl, "anvil_setBalance", [ADDR, "0x77"]);
    // wait for an interval dump that contains the change
    for (let i = 0; i < 100 && !(existsSync(stateFile) && readFileSync(stateFile, "utf8").includes('"0x77"')); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const restarted = new Promise<AnvilRestartInfo>((resolve) => h.onRestart(resolve));
    const oldPid = h.pid!;
    process.kill(oldPid, "SIGKILL");
    const info = await restarted;
    expect(info).toMatchObject({ restarts: 1, stateLost: false, signal: "SIGKILL" });
    expect(h.pid).toBeDefined();
    expect(h.pid).not.toBe(oldPid);
    expect(await balance(h)).toBe("0x77");
    expect(setups[1]).toEqual({ restart: true, stateLost: false });
    await h.stop();
  });

  it("without a state file a restart reports the state as lost", async () => {
    const h = await start({});
    const restarted = new Promise<AnvilRestartInfo>((resolve) => h.onRestart(resolve));
    process.kill(h.pid!, "SIGKILL");
    expect(await restarted).toMatchObject({ restarts: 1, stateLost: true });
    expect(await rpcCall(h.rpcUrl, "eth_chainId")).toBe("0x2105");
    await h.stop();
  });

  it("recovers from a damaged state file with the last good copy", async () => {
    const dir = tmp();
    const stateFile = join(dir, "state.json");
    const a = await start({ stateFile });
    await rpcCall(a.rpcUrl, "anvil_setBalance", [ADDR, "0x42"]);
    await a.stop();
    const b = await start({ stateFile }); // validates the file and keeps state.json.bak
    await b.stop();
    writeFileSync(stateFile, '{"block":{"number":"0x1","benefici'); // a dump cut short by SIGKILL

    const c = await start({ stateFile });
    expect(await balance(c)).toBe("0x42");
    expect(readdirSync(dir).some((f) => f.startsWith("state.json.corrupt-"))).toBe(true);
    await c.stop();
  });

  it("fails start-up with anvil's message when the port is taken", async () => {
    const h = await start({});
    await expect(startAnvil({ port: h.port, readyTimeoutMs: 3000 })).rejects.toThrow(/anvil/i);
    await h.stop();
  });
});
