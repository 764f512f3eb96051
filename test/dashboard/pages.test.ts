/** Dashboard pages over the real app (no browser): account scoping, the playground, receipts, assets. */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { DashboardClient } from "./client";

let t: TestRuntime;
let owner: DashboardClient;
let other: DashboardClient;
let verificationId = "";

beforeAll(async () => {
  t = await startTestRuntime();
  owner = new DashboardClient(t);
  await owner.signUp("pages-owner@example.com");
  other = new DashboardClient(t);
  await other.signUp("pages-other@example.com");
  const acct = (await t.runtime.database.db.selectFrom("users").select("account_id").where("email", "=", "pages-owner@example.com").executeTakeFirstOrThrow()).account_id;
  await t.admin("POST", `/admin/v1/accounts/${acct}/credits`, { credits: 3, reason: "test" });
});
afterAll(async () => {
  await t?.close();
});

describe("playground", () => {
  it("runs a dashboard verification, charged like any other and readable by the API", async () => {
    await owner.get("/dashboard/playground");
    const res = await owner.post("/dashboard/playground", { intent: "Only send USDC to 0x1111111111111111111111111111111111111111.", action: "Send 5 USDC to 0x1111111111111111111111111111111111111111", format: "text", venue: "", preset: "payments", context: "" });
    expect(res.status).toBe(303);
    const loc = res.headers.get("location")!;
    expect(loc).toMatch(/^\/dashboard\/verifications\/[0-9a-f-]{36}\?ran=1$/);
    verificationId = loc.split("/").pop()!.split("?")[0];
    const key = await owner.createKey();
    const api = await t.request("GET", `/api/v1/intent/${verificationId}`, { key });
    expect(api.status).toBe(200);
    const credits = (await (await t.request("GET", "/api/v1/credits", { key })).json()) as { creditsRemaining: number };
    expect(credits.creditsRemaining).toBe(2);
    const row = await t.runtime.database.db.selectFrom("verifications").select(["source"]).where("id", "=", verificationId).executeTakeFirstOrThrow();
    expect(row.source).toBe("dashboard");
  });

  it("explains invalid JSON and running out of credits without charging", async () => {
    await owner.get("/dashboard/playground");
    let res = await owner.post("/dashboard/playground", { intent: "x", action: "{not json", format: "json", venue: "", preset: "generic", context: "" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("not valid JSON");
    res = await owner.post("/dashboard/playground", { intent: "  ", action: "do it", format: "text", venue: "", preset: "generic", context: "" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("intent is required");
    await other.get("/dashboard/playground");
    res = await other.post("/dashboard/playground", { intent: "Never pay.", action: "pay 1 USDC", format: "text", venue: "", preset: "generic", context: "" });
    expect(res.status).toBe(402);
    expect(await res.text()).toContain("out of credits");
  });
});

describe("account scoping", () => {
  it("shows a verification to its own account only (404 elsewhere, pages and dashboard APIs)", async () => {
    expect((await owner.get(`/dashboard/verifications/${verificationId}`)).status).toBe(200);
    expect(owner.lastHtml).toContain("What the adapter read");
    expect((await other.get(`/dashboard/verifications/${verificationId}`)).status).toBe(404);
    expect((await other.get(`/dashboard/api/verifications/${verificationId}/transcript`)).status).toBe(404);
    expect((await other.get("/dashboard/verifications")).status).toBe(200);
    expect(other.lastHtml).not.toContain(verificationId);
    expect(other.lastHtml).toContain("No verifications yet.");
  });

  it("lists wallet-proposal verifications by what each proposal does, not by the wallet's shared mandate", async () => {
    // Two runs as a wallet's proposals leave them: the same intent (the mandate), different actions.
    const { db } = t.runtime.database;
    const base = await db.selectFrom("verifications").selectAll().where("id", "=", verificationId).executeTakeFirstOrThrow();
    const mandate = "Pay invoices from approved vendors only, up to 100 USDC each.";
    for (const [i, summary] of ["transfer 15 USDC to 0x1111…1111", "transfer 40 USDC to 0x2222…2222"].entries()) {
      await db
        .insertInto("verifications")
        .values({ ...base, context: JSON.stringify(base.context), facts: JSON.stringify(base.facts), transcript: JSON.stringify(base.transcript), id: `00000000-0000-4000-8000-00000000000${i}`, request_hash: `0x${randomBytes(32).toString("hex")}`, source: "proposal", intent: mandate, action: JSON.stringify({ kind: "transfer", summary }), anchor_batch_id: null, anchor_leaf_index: null })
        .execute();
    }
    for (const page of ["/dashboard", "/dashboard/verifications"]) {
      expect((await owner.get(page)).status).toBe(200);
      expect(owner.lastHtml).toContain("Wallet proposal: transfer 15 USDC to 0x1111…1111");
      expect(owner.lastHtml).toContain("Wallet proposal: transfer 40 USDC to 0x2222…2222");
      expect(owner.lastHtml).not.toContain(mandate);
    }
  });

  it("revokes only the account's own keys", async () => {
    const key = await owner.createKey();
    const keyId = (await t.runtime.database.db.selectFrom("api_keys").select("id").where("prefix", "=", key.slice(0, 18)).executeTakeFirstOrThrow()).id;
    await other.get("/dashboard/keys");
    expect((await other.post(`/dashboard/keys/${keyId}/revoke`, {})).status).toBe(404);
    expect((await t.request("GET", "/api/v1/credits", { key })).status).toBe(200);
  });
});

describe("receipts and assets", () => {
  it("checks a receipt on the server when the browser cannot", async () => {
    const res = await owner.get(`/dashboard/api/verifications/${verificationId}/receipt-check`);
    expect(await res.json()).toEqual({ ok: true, errors: [] });
  });

  it("serves the receipt check as a local ES module bundled from src/receipts/verify.ts", async () => {
    const res = await t.app.request("/dashboard/assets/receipt.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("javascript");
    const js = await res.text();
    expect(js).toContain("verifyReceipt");
    expect(js).not.toMatch(/https?:\/\/(cdn|unpkg|esm\.sh)/);
    const etag = res.headers.get("etag")!;
    expect((await t.app.request("/dashboard/assets/receipt.js", { headers: { "if-none-match": etag } })).status).toBe(304);
    expect((await t.app.request("/dashboard/assets/../../package.json")).status).toBe(404);
  });

  it("says honestly when escrow wallets are not enabled", async () => {
    const res = await owner.get("/dashboard/wallets");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Escrow wallets are not enabled on this deployment");
  });

  it("answers unknown pages with an HTML 404", async () => {
    const res = await owner.get("/dashboard/nope");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("text/html");
  });
});
