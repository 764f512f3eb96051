import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { derivedOperationId, tagOf } from "../../src/http/openapi";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime({ env: { SANDBOX: "true", SANDBOX_RPC_PORT: "0" } });
});
afterAll(async () => {
  await t.close();
});

type Op = { operationId?: string; tags?: string[]; security?: unknown[]; responses: Record<string, { description: string; headers?: Record<string, unknown> }> };

describe("OpenAPI document for code generation", () => {
  it("every operation has a unique operationId, a declared tag, 429 and 503 overloaded with Retry-After, and explicit security", async () => {
    const doc = await (await t.request("GET", "/api/v1/openapi.json")).json();
    const declared = new Set((doc.tags as { name: string }[]).map((x) => x.name));
    const ids = new Set<string>();
    let count = 0;
    for (const [path, item] of Object.entries<Record<string, Op>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        count++;
        const where = `${method} ${path}`;
        expect(op.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/);
        expect(ids.has(op.operationId!), `${where} duplicates ${op.operationId}`).toBe(false);
        ids.add(op.operationId!);
        expect(op.tags?.length, where).toBe(1);
        expect(declared.has(op.tags![0]), where).toBe(true);
        expect(op.security, `${where} has no security`).toBeDefined();
        expect(op.responses["429"]?.headers?.["Retry-After"], where).toBeDefined();
        expect(op.responses["503"]?.description, where).toContain("overloaded");
        expect(op.responses["503"]?.headers?.["Retry-After"], where).toBeDefined();
      }
    }
    expect(count).toBeGreaterThanOrEqual(16);
    expect(doc.paths["/api/v1/credits/topup/guide"].get.security).toEqual([]);
    expect(doc.paths["/api/v1/intent"].post.operationId).toBe("verifyIntent");
    // A 503 a route documents itself keeps its own meaning beside overloaded.
    expect(doc.paths["/api/v1/wallets/{id}/swap"].post.responses["503"].description).toMatch(/swap_failed.*overloaded/);
  });

  it("derives names and tags for routes not in the table", () => {
    expect(derivedOperationId("get", "/api/v1/wallets/{id}/balances")).toBe("getWalletsByIdBalances");
    expect(derivedOperationId("post", "/api/v1/trader/heartbeat")).toBe("postTraderHeartbeat");
    expect(tagOf("/api/v1/escrow-transactions/{txId}")).toBe("proposals");
    expect(tagOf("/api/v1/wallets/{id}/swap")).toBe("swaps");
  });
});
