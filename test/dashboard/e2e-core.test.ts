/**
 * The dashboard in a real browser (Debian's Chromium via playwright-core) against a real server:
 * sign-up, API keys (a revoked key gets 401 from the API), a playground run read back by the API with its
 * receipt verified in the page, credits, traders with a stale one, and a cross-site POST refused.
 */
import { createServer, type Server } from "node:http";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "../../src/server";
import { freePort } from "../helpers/process";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { hasChromium, launchBrowser, shot } from "./browser";

const EMAIL = "owner@example.com";
const PASSWORD = "a long and unguessable passphrase";

describe.skipIf(!hasChromium)("dashboard in Chromium: keys, playground, credits, traders", () => {
  let t: TestRuntime;
  let url: string;
  let stop: () => Promise<void>;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let apiKey = "";
  const api = (route: string, key: string, init: RequestInit = {}) => fetch(`${url}${route}`, { ...init, headers: { "x-api-key": key, "content-type": "application/json", ...init.headers } });

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    t = await startTestRuntime({ env: { PUBLIC_URL: url } });
    ({ stop } = await listen(t.runtime, { host: "127.0.0.1", port }));
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on("dialog", (d) => void d.accept());
  });
  afterAll(async () => {
    await browser?.close();
    await stop?.();
    await t?.close();
  });

  it("signs up from the sign-in page", async () => {
    await page.goto(`${url}/dashboard`);
    expect(new URL(page.url()).pathname).toBe("/dashboard/login");
    await shot(page, "sign-in");
    await page.getByRole("link", { name: "Create one" }).click();
    await page.getByLabel("Account name (optional)").fill("Acme Trading");
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill(PASSWORD);
    await shot(page, "sign-up");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/dashboard\/keys/);
    await expect(page.getByText("Welcome to Arbiter")).toBeTruthy();
    const cookies = await browser.context.cookies();
    const session = cookies.find((c) => c.name === "__Host-arbiter_session")!;
    expect(session.httpOnly).toBe(true);
    expect(session.secure).toBe(true);
    expect(session.sameSite).toBe("Lax");
    const user = await t.runtime.database.db.selectFrom("users").select("account_id").where("email", "=", EMAIL).executeTakeFirstOrThrow();
    await t.admin("POST", `/admin/v1/accounts/${user.account_id}/credits`, { credits: 25, reason: "e2e" });
  });

  it("creates a key shown once, and revokes another so the API answers 401", async () => {
    await page.getByRole("button", { name: "Create API key" }).click();
    const secret = await page.locator("[data-copy^='svc_sk_live_']").getAttribute("data-copy");
    expect(secret).toMatch(/^svc_sk_live_/);
    apiKey = secret!;
    expect((await api("/api/v1/credits", apiKey)).status).toBe(200);

    await page.getByRole("button", { name: "Create API key" }).click();
    const doomed = (await page.locator("[data-copy^='svc_sk_live_']").getAttribute("data-copy"))!;
    await shot(page, "api-keys");
    expect((await api("/api/v1/credits", doomed)).status).toBe(200);
    await page.goto(`${url}/dashboard/keys`);
    expect(await page.content()).not.toContain(doomed); // shown once
    await page.getByRole("button", { name: `Revoke key ${doomed.slice(0, 18)}` }).click();
    await page.waitForURL(/notice=key_revoked/);
    expect(await page.getByText("The key was revoked").count()).toBe(1);
    const res = await api("/api/v1/credits", doomed);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "invalid or revoked API key" });
    expect((await api("/api/v1/credits", apiKey)).status).toBe(200);
  });

  it("runs a verification in the playground, readable by the API, with its receipt verified in the page", async () => {
    await page.getByRole("link", { name: "Playground" }).click();
    await page.getByRole("link", { name: "A USDC payment" }).click();
    await shot(page, "playground");
    await page.getByRole("button", { name: /Run verification/ }).click();
    await page.waitForURL(/\/dashboard\/verifications\/[0-9a-f-]{36}\?ran=1/);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const verdict = await page.locator(".verdict-card .verdict").innerText();
    expect(["ALLOW", "BLOCK", "ESCALATE", "no decision"]).toContain(verdict);

    const stored = await api(`/api/v1/intent/${id}`, apiKey);
    expect(stored.status).toBe(200);
    const body = (await stored.json()) as { verdict: string | null };
    expect(body.verdict ?? "no decision").toBe(verdict);
    const row = await t.runtime.database.db.selectFrom("verifications").select("source").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.source).toBe("dashboard");

    await page.getByRole("button", { name: "Verify receipt" }).click();
    await page.waitForSelector("#receipt-result.ok, #receipt-result.bad", { timeout: 20_000 });
    expect(await page.locator("#receipt-result").innerText()).toContain("Receipt verified in your browser");
    await shot(page, "verification");

    await page.goto(`${url}/dashboard/verifications?q=invoice`);
    expect(await page.locator("tbody tr").count()).toBe(1);
    await page.goto(`${url}/dashboard/verifications?q=nothing-like-this`);
    expect(await page.getByText("No verification matches").count()).toBe(1);
    await page.goto(`${url}/dashboard/verifications`);
    await shot(page, "verifications");
  });

  it("shows credits with the ledger and honest top-up terms", async () => {
    await page.goto(`${url}/dashboard/credits`);
    const text = await page.locator("main").innerText();
    expect(text).toContain("24 credits");
    expect(text).toMatch(/Operator adjustment: e2e/);
    expect(text).toMatch(/Top-ups are not enabled|Account code/);
    await page.getByRole("link", { name: "Verification", exact: true }).first().click();
    await page.waitForURL(/\/dashboard\/verifications\//);
    await page.goto(`${url}/dashboard/credits`);
    await shot(page, "credits");
  });

  it("lists traders and marks a stale one", async () => {
    const beat = (instanceId: string, name: string, state: string) =>
      api("/api/v1/trader/heartbeat", apiKey, {
        method: "POST",
        body: JSON.stringify({
          instanceId,
          name,
          version: "1.4.2",
          state,
          mode: "production",
          dryRun: false,
          venue: "hyperliquid",
          walletAddress: "0x1111111111111111111111111111111111111111",
          startedAt: new Date(Date.now() - 3600_000).toISOString(),
          lastTickAt: new Date().toISOString(),
          openPositions: 2,
          totalExposureUsd: 1840.5,
          dailyRealizedPnlUsd: -12.25,
          creditsRemaining: 24,
          note: "grid on BTC",
        }),
      });
    const live = "7d4a1c1e-3a2b-4f5e-9c1d-2b3a4c5d6e7f";
    const old = "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e";
    expect((await beat(live, "btc-grid", "running")).status).toBe(200);
    expect((await beat(old, "eth-momentum", "running")).status).toBe(200);
    await t.runtime.database.db.updateTable("heartbeats").set({ received_at: new Date(Date.now() - 20 * 60_000), last_tick_at: new Date(Date.now() - 20 * 60_000) }).where("instance_id", "=", old).execute();
    await page.goto(`${url}/dashboard/traders`);
    const staleRow = page.locator("tr.stale");
    expect(await staleRow.count()).toBe(1);
    expect(await staleRow.innerText()).toContain("eth-momentum");
    expect(await staleRow.innerText()).toContain("stale");
    await shot(page, "traders");
    await page.goto(`${url}/dashboard`);
    expect(await page.locator("main").innerText()).toContain("1 stale");
    await shot(page, "overview");
  });

  it("refuses a cross-site POST that carries the session cookie but no CSRF token", async () => {
    const keysBefore = (await page.goto(`${url}/dashboard/keys`), await page.locator("tbody tr").count());
    const evilPort = await freePort();
    const evil: Server = createServer((_req, res) => {
      res.setHeader("content-type", "text/html");
      res.end(`<form id="f" method="post" action="${url}/dashboard/keys"></form><script>document.getElementById("f").submit()</script>`);
    });
    await new Promise<void>((r) => evil.listen(evilPort, "127.0.0.1", () => r()));
    try {
      const responses: number[] = [];
      page.on("response", (r) => r.url() === `${url}/dashboard/keys` && r.request().method() === "POST" && responses.push(r.status()));
      await page.goto(`http://127.0.0.1:${evilPort}/`);
      await page.waitForURL(`${url}/dashboard/keys`);
      await page.waitForLoadState();
      expect(responses).toEqual([403]);
      expect(await page.locator("main").innerText()).toContain("This request was refused");
    } finally {
      evil.close();
    }
    await page.goto(`${url}/dashboard/keys`);
    expect(await page.locator("tbody tr").count()).toBe(keysBefore);
  });

  it("reads well on a phone, and signs out", async () => {
    const phone = await browser.context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${url}/dashboard`);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(phone, "overview-phone");
    await phone.close();
    await page.goto(`${url}/dashboard/account`);
    await shot(page, "account");
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL(/\/dashboard\/login/);
    await page.goto(`${url}/dashboard/keys`);
    expect(new URL(page.url()).pathname).toBe("/dashboard/login");
  });
});
