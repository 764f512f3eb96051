import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime({ env: { BODY_LIMIT_BYTES: "4096" } });
});
afterAll(async () => {
  await t.close();
});

describe("routes outside the API", () => {
  it("unknown routes answer 404 not_found", async () => {
    const res = await t.request("GET", "/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "not_found" });
    const a = await t.createAccount(1);
    const api = await t.request("GET", "/api/v1/nope", { key: a.apiKey });
    expect(api.status).toBe(404);
  });

  it("bodies over the limit get 413", async () => {
    const a = await t.createAccount(1);
    const res = await t.request("POST", "/api/v1/intent", { key: a.apiKey, body: { intent: "x".repeat(5000), action: "y" } });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe("payload_too_large");
  });

  it("healthz is 200 when ready and metrics count requests by route and status", async () => {
    expect((await t.request("GET", "/healthz")).status).toBe(200);
    const a = await t.createAccount(1);
    await t.request("POST", "/api/v1/intent", { key: a.apiKey, body: { intent: "Never transfer.", action: "send 1 ETH to bob" } });
    const text = await (await t.request("GET", "/metrics")).text();
    expect(text).toMatch(/arbiter_http_requests_total\{method="POST",route="\/api\/v1\/intent",status="201"\} \d+/);
    expect(text).toMatch(/arbiter_verifications_total\{verdict="(ALLOW|BLOCK|ESCALATE|null)",source="api"\} 1/);
    expect(text).toMatch(/arbiter_credits_debited_total 1/);
    expect(text).toContain("arbiter_http_request_duration_seconds_bucket");
  });

  it("serves an OpenAPI 3.1 document, version 1.0.0, covering the public routes with error responses", async () => {
    const doc = await (await t.request("GET", "/api/v1/openapi.json")).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    for (const p of ["/api/v1/intent", "/api/v1/intent/{id}", "/api/v1/credits", "/api/v1/trader/heartbeat"]) expect(doc.paths[p]).toBeDefined();
    expect(Object.keys(doc.paths["/api/v1/intent"].post.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "402", "502"]));
    expect(doc.paths["/api/v1/intent"].post.requestBody.content["application/json"].schema.required).toEqual(expect.arrayContaining(["intent", "action"]));
  });
});
