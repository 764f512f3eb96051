/**
 * JUDGE_TIMEOUT_MS is a deadline for the whole model call (src/judge/llm/deadline.ts): a model server that
 * sends its headers at once and the body after 4 s no longer holds a run past the deadline, with either SDK
 * (before, a 3 s timeout let such a run take 12 s). Recovery (src/verification/service.ts) refunds a PENDING
 * run only once its deadline has passed everywhere, and a run refunded meanwhile is refused when it completes
 * late, without charging.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import { AnthropicJudge } from "../../src/judge/llm/anthropic";
import { OpenAIJudge } from "../../src/judge/llm/openai";
import { JudgeUnavailableError, type Judge, type JudgeInput, type JudgeOutput } from "../../src/judge/types";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

/** Answers with headers at once and the (valid) body after `bodyDelayMs`: a model whose answer arrives late. */
async function lateBodyServer(bodyDelayMs: number): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(" "); // the headers and a first byte are out: only the body is late
      const t = setTimeout(() => {
        const text = JSON.stringify({ verdict: "ALLOW", reasoning: "late" });
        res.end(
          req.url?.includes("messages")
            ? JSON.stringify({ id: "msg_1", type: "message", role: "assistant", model: "m", content: [{ type: "text", text }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } })
            : JSON.stringify({ id: "c1", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }] }),
        );
      }, bodyDelayMs);
      res.on("close", () => clearTimeout(t));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const input: JudgeInput = { intent: "Only buy BTC.", action: "buy 0.1 BTC", facts: null, context: null, reference: null, note: null, preset: "default" } as unknown as JudgeInput;

describe("the judge deadline covers the body", () => {
  let late: { url: string; server: Server };
  beforeAll(async () => {
    late = await lateBodyServer(4_000);
  });
  afterAll(() => {
    late.server.closeAllConnections();
    late.server.close();
  });

  it.each([
    ["openai", () => new OpenAIJudge({ apiKey: "k", model: "m", baseUrl: `${late.url}/v1`, timeoutMs: 600, maxRetries: 1 })],
    ["anthropic", () => new AnthropicJudge({ apiKey: "k", model: "m", baseUrl: late.url, timeoutMs: 600, maxRetries: 1 })],
  ])("%s: a body arriving after the deadline fails the call at the deadline (retry included)", async (_name, make) => {
    const start = Date.now();
    const err = await make().judge(input).catch((e) => e);
    const took = Date.now() - start;
    expect(err).toBeInstanceOf(JudgeUnavailableError);
    expect(String(err.message)).toMatch(/timed out/);
    expect(took).toBeGreaterThanOrEqual(550);
    expect(took).toBeLessThan(1_500);
  });

  it("the deadline is not a cap on a prompt answer", async () => {
    const quick = await lateBodyServer(50);
    try {
      const out = await new OpenAIJudge({ apiKey: "k", model: "m", baseUrl: `${quick.url}/v1`, timeoutMs: 2_000 }).judge(input);
      expect(out.verdict).toBe("ALLOW");
    } finally {
      quick.server.close();
    }
  });

  it("config: the recovery grace must exceed the judge deadline by a margin", () => {
    expect(() => loadConfig({ JUDGE_TIMEOUT_MS: "5000", VERIFY_RECOVERY_GRACE_MS: "5500" })).toThrow(/VERIFY_RECOVERY_GRACE_MS must exceed JUDGE_TIMEOUT_MS by at least 1000 ms/);
    expect(loadConfig({ JUDGE_TIMEOUT_MS: "5000" }).VERIFY_RECOVERY_GRACE_MS).toBe(65_000);
  });
});

/** A remote judge (not in process) that answers when the test says so. */
class GatedJudge implements Judge {
  readonly name = "gated";
  release: () => void = () => {};
  started = 0;
  async judge(): Promise<JudgeOutput> {
    this.started++;
    await new Promise<void>((r) => (this.release = r));
    return { verdict: "ALLOW", reasoning: "fine", provider: "gated", transcript: [] };
  }
}

describe("recovery and a late completion", () => {
  let t: TestRuntime;
  const judge = new GatedJudge();
  beforeAll(async () => {
    t = await startTestRuntime({ env: { JUDGE_TIMEOUT_MS: "100", VERIFY_RECOVERY_GRACE_MS: "1500" }, overrides: { judge } });
  });
  afterAll(async () => {
    await t?.close();
  });
  const balance = async (key: string) => ((await (await t.request("GET", "/api/v1/credits", { key })).json()) as { creditsRemaining: number }).creditsRemaining;

  it("does not refund a run younger than the grace; refunds it after; the late answer is refused and not charged", async () => {
    const a = await t.createAccount(3);
    const inflight = t.request("POST", "/api/v1/intent", { key: a.apiKey, body: { intent: "Only buy BTC.", action: "buy 0.1 BTC" } });
    while (judge.started === 0) await new Promise((r) => setTimeout(r, 10));
    expect(await balance(a.apiKey)).toBe(2); // charged while PENDING
    expect(await t.runtime.services.verification.recoverPending()).toBe(0); // its deadline has not passed
    await new Promise((r) => setTimeout(r, 1_700));
    // Two sweeps at once (two processes): the run is refunded exactly once.
    const swept = await Promise.all([t.runtime.services.verification.recoverPending(), t.runtime.services.verification.recoverPending()]);
    expect(swept.sort()).toEqual([0, 1]);
    expect(await balance(a.apiKey)).toBe(3);
    judge.release();
    const res = await inflight;
    expect(res.status).toBe(502);
    expect(((await res.json()) as { message: string }).message).toMatch(/refunded/);
    expect(await balance(a.apiKey)).toBe(3);
    expect(await t.ledgerMismatches()).toEqual([]);
  });
});
