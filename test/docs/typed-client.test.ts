import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArbiterClient } from "../../clients/typescript";
import { listen } from "../../src/server";
import { freePort } from "../helpers/process";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

let t: TestRuntime;
let server: Awaited<ReturnType<typeof listen>>;
let baseUrl: string;
beforeAll(async () => {
  t = await startTestRuntime();
  const port = await freePort();
  server = await listen(t.runtime, { host: "127.0.0.1", port });
  baseUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server.stop();
  await t.close();
});

describe("the generated TypeScript client (clients/typescript) against the running service", () => {
  it("verifies, reads the receipt back, reports a heartbeat and reads the balance, all typed", async () => {
    const { apiKey } = await t.createAccount(5);
    const arbiter = createArbiterClient({ baseUrl, apiKey });

    const v = await arbiter.POST("/api/v1/intent", {
      body: {
        intent: "Trade only BTC and ETH perpetuals on Hyperliquid. Max notional $2,000 per order.",
        action: { type: "order", orders: [{ a: 0, b: true, p: "97050", s: "0.02", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" },
        venue: "hyperliquid",
        context: { assets: { "0": "BTC" }, prices: { BTC: 97000 } },
      },
    });
    expect(v.response.status).toBe(201);
    if (!v.data) throw new Error(JSON.stringify(v.error));
    const verdict: "ALLOW" | "BLOCK" | "ESCALATE" | null = v.data.verdict;
    expect(verdict).toBe("ALLOW");
    expect(v.data.creditsRemaining).toBe(4);

    const got = await arbiter.GET("/api/v1/intent/{id}", { params: { path: { id: v.data.id } } });
    expect(got.data?.proof.signature).toBe(v.data.proof.signature);

    const hb = await arbiter.POST("/api/v1/trader/heartbeat", {
      body: {
        instanceId: randomUUID(),
        name: "typed",
        version: "1",
        dryRun: true,
        venue: "hyperliquid",
        walletAddress: "0x" + "ab".repeat(20),
        startedAt: new Date().toISOString(),
        lastTickAt: new Date().toISOString(),
        status: "running",
      },
    });
    expect(hb.data).toEqual({ ok: true });
    const traders = await arbiter.GET("/api/v1/trader/heartbeats");
    expect(traders.data?.traders[0]).toMatchObject({ name: "typed", state: "running", mode: "unknown" });

    const credits = await arbiter.GET("/api/v1/credits");
    expect(credits.data?.creditsRemaining).toBe(4);
  });

  it("returns the error body typed on failure", async () => {
    const arbiter = createArbiterClient({ baseUrl, apiKey: "svc_sk_live_not-a-key" });
    const bad = await arbiter.GET("/api/v1/credits");
    expect(bad.response.status).toBe(401);
    expect(bad.data).toBeUndefined();
    expect(bad.error?.error).toBe("invalid or revoked API key");

    const { apiKey } = await t.createAccount(1);
    const keyed = createArbiterClient({ baseUrl, apiKey });
    // @ts-expect-error intent must be a string: the generated types say so, and so does the service.
    const typed = await keyed.POST("/api/v1/intent", { body: { intent: 42, action: "x" } });
    expect(typed.response.status).toBe(400);
    expect(typed.error?.message).toMatch(/^intent: must be a string/);
  });
});
