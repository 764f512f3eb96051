import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

const clock = new ManualClock(new Date("2026-11-21T12:00:00Z"));
let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime({ overrides: { clock } });
});
afterAll(async () => {
  await t.close();
});

const beat = (over: Record<string, unknown> = {}) => ({
  instanceId: randomUUID(),
  name: "hl-trader",
  version: "1.4.2",
  state: "running",
  mode: "sandbox",
  dryRun: true,
  venue: "hyperliquid",
  walletAddress: "0x" + "ab".repeat(20),
  startedAt: "2026-11-21T11:00:00Z",
  lastTickAt: "2026-11-21T11:59:30Z",
  openPositions: 2,
  totalExposureUsd: 1520.5,
  dailyRealizedPnlUsd: -12.25,
  creditsRemaining: 40,
  note: "all good",
  ...over,
});

describe("trader heartbeat", () => {
  it("upserts one record per instanceId and lists it with a stale flag", async () => {
    const a = await t.createAccount(0);
    const hb = beat();
    const r1 = await t.request("POST", "/api/v1/trader/heartbeat", { key: a.apiKey, body: hb });
    expect(r1.status).toBe(200);
    expect(await r1.json()).toEqual({ ok: true });
    await t.request("POST", "/api/v1/trader/heartbeat", { key: a.apiKey, body: { ...hb, state: "paused_out_of_credits", openPositions: 0 } });
    let list = (await (await t.request("GET", "/api/v1/trader/heartbeats", { key: a.apiKey })).json()).traders;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ instanceId: hb.instanceId, state: "paused_out_of_credits", openPositions: 0, stale: false, totalExposureUsd: 1520.5 });
    clock.advance(6 * 60_000);
    list = (await (await t.request("GET", "/api/v1/trader/heartbeats", { key: a.apiKey })).json()).traders;
    expect(list[0].stale).toBe(true);
  });

  it("keeps accounts apart", async () => {
    const a = await t.createAccount(0);
    const b = await t.createAccount(0);
    const hb = beat();
    await t.request("POST", "/api/v1/trader/heartbeat", { key: a.apiKey, body: hb });
    await t.request("POST", "/api/v1/trader/heartbeat", { key: b.apiKey, body: { ...hb, name: "other" } });
    const la = (await (await t.request("GET", "/api/v1/trader/heartbeats", { key: a.apiKey })).json()).traders;
    expect(la.map((x: { name: string }) => x.name)).toEqual(["hl-trader"]);
  });

  it("defaults the optional headline numbers", async () => {
    const a = await t.createAccount(0);
    const { openPositions: _o, totalExposureUsd: _t, dailyRealizedPnlUsd: _d, creditsRemaining: _c, note: _n, ...minimal } = beat();
    expect((await t.request("POST", "/api/v1/trader/heartbeat", { key: a.apiKey, body: minimal })).status).toBe(200);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ["instanceId not a UUID", { instanceId: "abc" }, "instanceId"],
    ["empty name", { name: "" }, "name"],
    ["name of 65 characters", { name: "n".repeat(65) }, "name"],
    ["version of 65 characters", { version: "v".repeat(65) }, "version"],
    ["venue of 33 characters", { venue: "v".repeat(33) }, "venue"],
    ["bad wallet address", { walletAddress: "0x123" }, "walletAddress"],
    ["negative openPositions", { openPositions: -1 }, "openPositions"],
    ["fractional openPositions", { openPositions: 1.5 }, "openPositions"],
    ["note of 281 characters", { note: "n".repeat(281) }, "note"],
    ["unknown state", { state: "sleeping" }, "state"],
    ["unknown mode", { mode: "live" }, "mode"],
    ["missing dryRun", { dryRun: undefined }, "dryRun"],
    ["bad timestamp", { lastTickAt: "yesterday" }, "lastTickAt"],
  ];
  for (const [name, over, field] of invalid) {
    it(`400 invalid_input naming ${field} for ${name}`, async () => {
      const a = await t.createAccount(0);
      const res = await t.request("POST", "/api/v1/trader/heartbeat", { key: a.apiKey, body: beat(over) });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error).toBe("invalid_input");
      expect(body.message).toContain(field);
    });
  }

  it("boundaries are inside: 64-character name, 280-character note, zero positions", async () => {
    const a = await t.createAccount(0);
    const res = await t.request("POST", "/api/v1/trader/heartbeat", { key: a.apiKey, body: beat({ name: "n".repeat(64), note: "x".repeat(280), openPositions: 0, venue: "v".repeat(32) }) });
    expect(res.status).toBe(200);
  });

  it("accepts exactly the 13 fields of SPEC 2.11; run state and mode read unknown until reported", async () => {
    const a = await t.createAccount(0);
    const { state: _s, mode: _m, ...spec } = beat();
    expect(Object.keys(spec)).toHaveLength(13);
    const res = await t.request("POST", "/api/v1/trader/heartbeat", { key: a.apiKey, body: spec });
    expect(res.status).toBe(200);
    const list = async () => (await (await t.request("GET", "/api/v1/trader/heartbeats", { key: a.apiKey })).json()).traders;
    expect((await list())[0]).toMatchObject({ instanceId: spec.instanceId, state: "unknown", mode: "unknown" });
    // `status` is another name for the run state; a later beat without either keeps the last one reported.
    await t.request("POST", "/api/v1/trader/heartbeat", { key: a.apiKey, body: { ...spec, status: "paused_out_of_credits", mode: "production" } });
    expect((await list())[0]).toMatchObject({ state: "paused_out_of_credits", mode: "production" });
    await t.request("POST", "/api/v1/trader/heartbeat", { key: a.apiKey, body: { ...spec, openPositions: 7 } });
    expect((await list())[0]).toMatchObject({ state: "paused_out_of_credits", mode: "production", openPositions: 7 });
  });

  it("refuses state and status that disagree, and an unknown status", async () => {
    const a = await t.createAccount(0);
    for (const body of [beat({ state: "running", status: "error" }), beat({ state: undefined, status: "asleep" })]) {
      const res = await t.request("POST", "/api/v1/trader/heartbeat", { key: a.apiKey, body });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain("status");
    }
  });
});
