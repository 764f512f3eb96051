/**
 * Escrow test runtime: a real service (startTestRuntime) on the real sandbox chain (anvil started by the
 * runtime itself on a free port, in the test's temporary DATA_DIR), with a scripted judge.
 *
 * The scripted judge is a real Judge implementation, not a mock: it reads a tag in the mandate and
 * otherwise behaves like the escrow preset asks (BLOCK when the simulation reverted).
 *   [judge:allow]        ALLOW (BLOCK if the simulation reverted)
 *   [judge:allow-always] ALLOW even when the simulation reverted (tests the pipeline's hard rule)
 *   [judge:escalate]     ESCALATE
 *   [judge:block]        BLOCK
 *   [judge:fail]         throws (judge unavailable)
 */
import { createPublicClient, getAddress, http, parseAbi, type Address, type PublicClient } from "viem";
import type { Judge, JudgeInput, JudgeOutput } from "../../src/judge/types";
import { JudgeUnavailableError } from "../../src/judge/types";
import type { Clock } from "../../src/lib/clock";
import { listen } from "../../src/server";
import { freePort } from "../helpers/process";
import { startTestRuntime } from "../helpers/runtime";

export class ScriptedJudge implements Judge {
  readonly name = "scripted";
  readonly inputs: JudgeInput[] = [];
  async judge(input: JudgeInput): Promise<JudgeOutput> {
    this.inputs.push(input);
    const tag = /\[judge:([a-z-]+)\]/.exec(input.intent)?.[1] ?? "allow";
    const reverted = (input.facts?.warnings ?? []).some((w) => w.startsWith("SIMULATION REVERTED"));
    const out = (verdict: JudgeOutput["verdict"], reasoning: string): JudgeOutput => ({ verdict, reasoning, provider: "scripted", transcript: [{ kind: "scripted", data: { tag } }] });
    switch (tag) {
      case "fail":
        throw new JudgeUnavailableError("scripted judge outage");
      case "block":
        return out("BLOCK", "the mandate forbids this");
      case "escalate":
        return out("ESCALATE", "the owner should decide");
      case "allow-always":
        return out("ALLOW", "allowed (scripted, ignoring the simulation)");
      default:
        return reverted ? out("BLOCK", "the simulation reverts") : out("ALLOW", "within the mandate");
    }
  }
}

export const ERC20 = parseAbi(["function balanceOf(address) view returns (uint256)", "function transfer(address,uint256) returns (bool)", "function approve(address,uint256) returns (bool)"]);
export const USDC: Address = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

/** `modelJudge`: keep the judge the env configures (e.g. JUDGE_PROVIDER=openai on a slow fake-openai server). */
export async function startEscrowRuntime(opts: { clock?: Clock; env?: Record<string, string>; listen?: boolean; modelJudge?: boolean } = {}) {
  const judge = new ScriptedJudge();
  const port = opts.listen ? await freePort() : 0;
  const publicUrl = opts.listen ? `http://127.0.0.1:${port}` : "http://arbiter.test";
  const t = await startTestRuntime({
    env: { SANDBOX: "true", SANDBOX_RPC_PORT: "0", PUBLIC_URL: publicUrl, SHUTDOWN_GRACE_MS: "1000", ...opts.env },
    overrides: { ...(opts.modelJudge ? {} : { judge }), ...(opts.clock ? { clock: opts.clock } : {}) },
  });
  const server = opts.listen ? await listen(t.runtime, { host: "127.0.0.1", port }) : null;
  const chain = t.runtime.chain;
  if (!chain?.sandbox) throw new Error("the escrow test runtime needs the sandbox chain");
  const sandbox = chain.sandbox;
  const pub = createPublicClient({ transport: http(sandbox.rpcUrl) }) as PublicClient;

  const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, any> }); // eslint-disable-line @typescript-eslint/no-explicit-any

  return {
    ...t,
    judge,
    sandbox,
    pub,
    url: publicUrl,
    json,
    async createWallet(key: string, body: Record<string, unknown>) {
      const r = await json(await t.request("POST", "/api/v1/wallets", { key, body: { chain: "base", mode: "autonomous", mandate: "[judge:allow]", ...body } }));
      if (r.status !== 201) throw new Error(`create wallet: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body as { id: string; name: string; address: Address; [k: string]: unknown };
    },
    fund: (address: string, asset: "ETH" | "USDC", amount: string) => sandbox.faucet.fund({ address, asset, amount }),
    propose: async (key: string, wallet: string, input: Record<string, unknown>, note?: string) =>
      json(await t.request("POST", `/api/v1/wallets/${encodeURIComponent(wallet)}/propose`, { key, body: { input: { chain: "base", ...input }, ...(note ? { note } : {}) } })),
    usdcOf: (a: Address) => pub.readContract({ address: USDC, abi: ERC20, functionName: "balanceOf", args: [a] }),
    ethOf: (a: Address) => pub.getBalance({ address: a }),
    nonceOf: (a: Address) => pub.getTransactionCount({ address: a }),
    credits: async (key: string) => ((await (await t.request("GET", "/api/v1/credits", { key })).json()) as { creditsRemaining: number }).creditsRemaining,
    async close() {
      if (server) await server.stop();
      await t.close();
    },
  };
}
export type EscrowRuntime = Awaited<ReturnType<typeof startEscrowRuntime>>;

/** A fresh recipient address nobody holds a key for. */
export const freshAddress = (): Address => getAddress(`0x${[...crypto.getRandomValues(new Uint8Array(20))].map((b) => b.toString(16).padStart(2, "0")).join("")}`);
