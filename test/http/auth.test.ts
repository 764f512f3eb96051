import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime();
});
afterAll(async () => {
  await t.close();
});

describe("API keys (SPEC 5)", () => {
  it("401 missing API key without a credential", async () => {
    const res = await t.request("GET", "/api/v1/credits");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "missing API key (send x-api-key)" });
  });

  it("401 invalid or revoked API key for an unknown key", async () => {
    const res = await t.request("GET", "/api/v1/credits", { key: "svc_sk_live_nope" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "invalid or revoked API key" });
  });

  it("accepts Authorization: Bearer, and prefers x-api-key when both are sent", async () => {
    const a = await t.createAccount(7);
    const b = await t.createAccount(3);
    const bearer = await t.request("GET", "/api/v1/credits", { headers: { authorization: `Bearer ${a.apiKey}` } });
    expect((await bearer.json()).creditsRemaining).toBe(7);
    const both = await t.request("GET", "/api/v1/credits", { key: b.apiKey, headers: { authorization: `Bearer ${a.apiKey}` } });
    expect((await both.json()).creditsRemaining).toBe(3);
    const badHeaderWins = await t.request("GET", "/api/v1/credits", { key: "svc_sk_live_wrong", headers: { authorization: `Bearer ${a.apiKey}` } });
    expect(badHeaderWins.status).toBe(401);
  });

  it("keys have the documented form with 256 bits of randomness and are stored only as hashes", async () => {
    const a = await t.createAccount(1);
    expect(a.apiKey).toMatch(/^svc_sk_live_[A-Za-z0-9_-]{43}$/);
    const rows = await t.runtime.database.db.selectFrom("api_keys").selectAll().where("account_id", "=", a.accountId).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(a.apiKey.slice(12));
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("revocation takes effect on the next request; other keys of the account keep working", async () => {
    const a = await t.createAccount(2);
    const created = await (await t.admin("POST", `/admin/v1/accounts/${a.accountId}/keys`)).json();
    expect(created.apiKey).toMatch(/^svc_sk_live_/);
    expect((await t.request("GET", "/api/v1/credits", { key: created.apiKey })).status).toBe(200);
    const del = await t.admin("DELETE", `/admin/v1/keys/${created.keyId}`);
    expect(del.status).toBe(204);
    const after = await t.request("GET", "/api/v1/credits", { key: created.apiKey });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ error: "invalid or revoked API key" });
    expect((await t.request("GET", "/api/v1/credits", { key: a.apiKey })).status).toBe(200);
  });
});

describe("admin API", () => {
  it("refuses requests without the admin token", async () => {
    expect((await t.request("POST", "/admin/v1/accounts", { body: { name: "x" } })).status).toBe(401);
    expect((await t.request("POST", "/admin/v1/accounts", { body: { name: "x" }, headers: { authorization: "Bearer wrong-token-wrong-token" } })).status).toBe(401);
  });

  it("creates accounts with the documented fields", async () => {
    const res = await t.admin("POST", "/admin/v1/accounts", { name: "alice", credits: 100 });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(["accountId", "apiKey", "creditsRemaining", "topupCode"]);
    expect(body.accountId).toMatch(/^acct_/);
    expect(body.topupCode).toMatch(/^svc_topup_/);
    expect(body.creditsRemaining).toBe(100);
  });

  it("adjusts credits through the ledger and refuses to go negative", async () => {
    const a = await t.createAccount(5);
    const add = await t.admin("POST", `/admin/v1/accounts/${a.accountId}/credits`, { credits: 10, reason: "promo" });
    expect(add.status).toBe(200);
    expect(await add.json()).toEqual({ creditsRemaining: 15 });
    const take = await t.admin("POST", `/admin/v1/accounts/${a.accountId}/credits`, { credits: -20, reason: "oops" });
    expect(take.status).toBe(409);
    const entries = await t.runtime.database.db.selectFrom("credit_entries").select(["delta", "reason"]).where("account_id", "=", a.accountId).orderBy("id").execute();
    expect(entries).toEqual([
      { delta: 5, reason: "grant:opening" },
      { delta: 10, reason: "admin:promo" },
    ]);
    expect((await t.admin("POST", `/admin/v1/accounts/acct_missing/credits`, { credits: 1, reason: "x" })).status).toBe(404);
  });
});
