import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { DashboardClient } from "./client";
import { SESSION_COOKIE } from "../../src/dashboard/auth/cookies";

let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime();
});
afterAll(async () => {
  await t?.close();
});

const PW = "correct horse battery staple";

describe("dashboard sign-up, sign-in and sessions", () => {
  it("sends signed-out visitors to sign-in, and back to where they were going afterwards", async () => {
    const c = new DashboardClient(t);
    const res = await c.get("/dashboard/proposals/prop_abc");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard/login?next=%2Fdashboard%2Fproposals%2Fprop_abc");
    await c.signUp("deep@example.com");
    const c2 = new DashboardClient(t);
    const login = await c2.signIn("deep@example.com", PW, "/dashboard/proposals/prop_abc");
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toBe("/dashboard/proposals/prop_abc");
    const evil = await new DashboardClient(t).signIn("deep@example.com", PW, "//evil.example/x");
    expect(evil.headers.get("location")).toBe("/dashboard");
  });

  it("signs up with a session cookie that is HttpOnly, Secure, SameSite=Lax and __Host- prefixed", async () => {
    const c = new DashboardClient(t);
    await c.get("/dashboard/signup");
    const res = await c.post("/dashboard/signup", { email: "Owner@Example.com", password: PW, accountName: "Acme" });
    expect(res.status).toBe(303);
    const cookie = res.headers.getSetCookie().find((l) => l.startsWith(`${SESSION_COOKIE}=`))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    const home = await c.get("/dashboard");
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("owner@example.com");
    const row = await t.runtime.database.db.selectFrom("users").innerJoin("accounts", "accounts.id", "users.account_id").select(["users.password_hash", "accounts.name"]).where("email", "=", "owner@example.com").executeTakeFirstOrThrow();
    expect(row.name).toBe("Acme");
    expect(row.password_hash).toMatch(/^scrypt\$15\$8\$1\$/);
    expect(row.password_hash).not.toContain(PW);
  });

  it("refuses weak passwords, bad emails and a second sign-up with the same email", async () => {
    const c = new DashboardClient(t);
    await c.get("/dashboard/signup");
    let res = await c.post("/dashboard/signup", { email: "weak@example.com", password: "short", accountName: "" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("at least 10 characters");
    res = await c.post("/dashboard/signup", { email: "not-an-email", password: PW, accountName: "" });
    expect(res.status).toBe(400);
    await c.signUp("twice@example.com");
    const d = new DashboardClient(t);
    await d.get("/dashboard/signup");
    res = await d.post("/dashboard/signup", { email: "TWICE@example.com", password: PW, accountName: "" });
    expect(res.status).toBe(409);
  });

  it("gives the same generic answer for a wrong password and an unknown email, then rate-limits", async () => {
    const c = new DashboardClient(t);
    await c.signUp("limited@example.com");
    const wrong = await new DashboardClient(t).signIn("limited@example.com", "wrong password!!");
    const unknown = await new DashboardClient(t).signIn("nobody@example.com", "wrong password!!");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const a = await wrong.text();
    const b = await unknown.text();
    expect(a).toContain("Email or password is incorrect.");
    expect(b).toContain("Email or password is incorrect.");
    let last: Response | undefined;
    for (let i = 0; i < 8; i++) last = await new DashboardClient(t).signIn("limited@example.com", "wrong password!!");
    expect(last!.status).toBe(429);
    // Even the right password is refused while the email is throttled.
    expect((await new DashboardClient(t).signIn("limited@example.com", PW)).status).toBe(429);
  });

  it("signs out this session, or every session", async () => {
    const a = new DashboardClient(t);
    await a.signUp("many@example.com");
    const b = new DashboardClient(t);
    expect((await b.signIn("many@example.com", PW)).status).toBe(303);
    const c = new DashboardClient(t);
    expect((await c.signIn("many@example.com", PW)).status).toBe(303);

    await c.get("/dashboard/account");
    expect((await c.post("/dashboard/logout", {})).status).toBe(303);
    expect((await c.get("/dashboard")).status).toBe(303);
    expect((await b.get("/dashboard")).status).toBe(200);

    await a.get("/dashboard/account");
    expect(a.lastHtml).toContain("(this session)");
    expect((await a.post("/dashboard/logout-everywhere", {})).status).toBe(303);
    expect((await a.get("/dashboard")).status).toBe(303);
    expect((await b.get("/dashboard")).status).toBe(303);
  });

  it("claims an admin-created account through a one-time link, and resets the owner's password with a new one", async () => {
    const acct = await t.createAccount(5, "Operator-made");
    const link = await t.admin("POST", `/admin/v1/accounts/${acct.accountId}/claim-link`);
    expect(link.status).toBe(201);
    const { url, claimed } = (await link.json()) as { url: string; claimed: boolean };
    expect(claimed).toBe(false);
    const path = new URL(url).pathname;
    const c = new DashboardClient(t);
    expect((await c.get(path)).status).toBe(200);
    expect(c.lastHtml).toContain("Operator-made");
    const res = await c.post(path, { email: "claimer@example.com", password: PW });
    expect(res.status).toBe(303);
    const credits = await c.get("/dashboard/credits");
    expect(await credits.text()).toContain("5 credits");
    // Used once: gone.
    expect((await new DashboardClient(t).get(path)).status).toBe(404);

    const reset = (await (await t.admin("POST", `/admin/v1/accounts/${acct.accountId}/claim-link`)).json()) as { url: string; claimed: boolean };
    expect(reset.claimed).toBe(true);
    const d = new DashboardClient(t);
    await d.get(new URL(reset.url).pathname);
    expect(d.lastHtml).toContain("claimer@example.com");
    expect((await d.post(new URL(reset.url).pathname, { password: "a brand new password" })).status).toBe(303);
    expect((await c.get("/dashboard")).status).toBe(303); // the old session ended
    expect((await new DashboardClient(t).signIn("claimer@example.com", "a brand new password")).status).toBe(303);
    expect((await t.admin("POST", "/admin/v1/accounts/acct_nope/claim-link")).status).toBe(404);
  });
});

describe("CSRF and headers", () => {
  it("refuses state-changing requests without the token or from another origin", async () => {
    const c = new DashboardClient(t);
    await c.signUp("csrf@example.com");
    await c.get("/dashboard/keys");
    const noToken = await c.post("/dashboard/keys", {}, { csrf: null });
    expect(noToken.status).toBe(403);
    const wrongToken = await c.post("/dashboard/keys", {}, { csrf: "x".repeat(43) });
    expect(wrongToken.status).toBe(403);
    await c.get("/dashboard/keys");
    const crossSite = await c.post("/dashboard/keys", {}, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    await c.get("/dashboard/keys");
    const noOrigin = await c.post("/dashboard/keys", {}, { origin: null });
    expect(noOrigin.status).toBe(403);
    const keys = await t.runtime.services.accounts.listKeys((await t.runtime.database.db.selectFrom("users").select("account_id").where("email", "=", "csrf@example.com").executeTakeFirstOrThrow()).account_id);
    expect(keys).toHaveLength(0);
    // The sign-in form is protected too (login CSRF).
    const fresh = new DashboardClient(t);
    await fresh.get("/dashboard/login");
    expect((await fresh.post("/dashboard/login", { email: "csrf@example.com", password: PW }, { csrf: null })).status).toBe(403);
  });

  it("sends a Content-Security-Policy without inline scripts, and no-store", async () => {
    const res = await new DashboardClient(t).get("/dashboard/login");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    expect(html).not.toMatch(/ style=/);
  });

  it("answers dashboard APIs without a session with 401 JSON", async () => {
    const res = await t.app.request("/dashboard/api/verifications/x/transcript");
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "unauthenticated" });
  });
});
