/**
 * The owner's pictures in a real browser: the overview's 30-day charts, a wallet's 24-hour spend against
 * its cap and its balance history, traders' exposure and PnL, and the webhooks page with its delivery log.
 * Each chart's figures are checked as a screen reader gets them (the hidden table) and on hover (<title>).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { freshAddress, startEscrowRuntime, type EscrowRuntime } from "../wallets/helpers";
import { hasChromium, launchBrowser, shot, signUpWithKey } from "../dashboard/browser";
import { startReceiver, type Receiver } from "./receiver";

const EMAIL = "charts@example.com";
const PASSWORD = "a long and unguessable passphrase";

describe.skipIf(!hasChromium)("charts and webhooks in Chromium", () => {
  let e: EscrowRuntime;
  let rx: Receiver;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let apiKey = "";
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    e = await startEscrowRuntime({ listen: true, clock, env: { ALLOW_LOOPBACK_FETCH: "true", WEBHOOK_POLL_MS: "100" } });
    rx = await startReceiver();
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on("dialog", (d) => void d.accept());
    apiKey = await signUpWithKey(page, e.url, EMAIL, PASSWORD);
    const user = await e.runtime.database.db.selectFrom("users").select("account_id").where("email", "=", EMAIL).executeTakeFirstOrThrow();
    await e.admin("POST", `/admin/v1/accounts/${user.account_id}/credits`, { credits: 40, reason: "e2e" });
  });
  afterAll(async () => {
    await browser?.close();
    await rx?.close();
    await e?.close();
  });

  it("adds a webhook endpoint in the page; its delivery log shows what was sent", async () => {
    await page.goto(`${e.url}/dashboard/webhooks`);
    expect(await page.getByText("No endpoints yet.").count()).toBe(1);
    await page.getByLabel(/^URL/).fill(rx.url);
    await page.getByLabel(/^Description/).fill("ops pager");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = (await page.locator("[data-copy^='whsec_']").getAttribute("data-copy"))!;
    rx.setSecret(secret);
    await shot(page, "webhooks");

    const wallet = await e.createWallet(apiKey, { name: "held", mode: "safe" });
    await e.fund(wallet.address, "ETH", "0.01");
    await e.fund(wallet.address, "USDC", "50");
    const held = await e.propose(apiKey, wallet.id, { kind: "transfer", transfer: { asset: "USDC", amount: "4", to: freshAddress() } });
    const [got] = await rx.waitFor((x) => x.some((r) => r.type === "proposal.awaiting_user"));
    expect(got).toMatchObject({ verified: true, data: { proposalId: held.body.txId } });

    await page.getByRole("link", { name: rx.url }).click();
    await page.waitForURL(/\/dashboard\/webhooks\/whep_/);
    const log = await page.locator("table").innerText();
    expect(log).toContain("proposal.awaiting_user");
    expect(log).toContain("delivered");
    await shot(page, "webhook-endpoint");
  });

  it("draws the overview's verdicts, credits and proposal outcomes", async () => {
    for (const tag of ["allow", "allow", "block", "escalate"]) {
      const r = await e.request("POST", "/api/v1/intent", { key: apiKey, body: { intent: `[judge:${tag}] Only buy BTC.`, action: "buy 0.01 BTC" } });
      expect(r.status).toBe(201);
    }
    await page.goto(`${e.url}/dashboard`);
    const verdicts = page.locator("figure", { hasText: "Verifications per day, by verdict" });
    const today = clock.now().toISOString().slice(0, 10);
    const table = await verdicts.locator("table").innerText();
    // ALLOW, BLOCK, ESCALATE, none: the four verifications, plus the judge's ALLOW behind the held proposal.
    expect(table).toMatch(new RegExp(`${today}\\s+3\\s+1\\s+1\\s+0`));
    expect(await verdicts.locator("rect title").allTextContents()).toEqual(expect.arrayContaining([`${today}: 3 ALLOW`, `${today}: 1 BLOCK`, `${today}: 1 ESCALATE`]));
    const credits = await page.locator("figure", { hasText: "Credits spent and bought per day" }).locator("table").innerText();
    expect(credits).toMatch(new RegExp(`${today}\\s+5\\s+0`)); // four verifications and one proposal
    const outcomes = await page.locator("figure", { hasText: "Proposals by outcome" }).locator("svg").getAttribute("aria-label");
    expect(outcomes).toContain("1 awaiting you");
    await shot(page, "overview-charts");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "overview-charts-phone");
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it("shows a wallet's 24-hour spend against its cap and its balance over time", async () => {
    const w = await e.createWallet(apiKey, { name: "ops", limits: { dailyCapUsd: 100 } });
    await e.fund(w.address, "ETH", "0.01");
    await e.fund(w.address, "USDC", "200");
    await page.goto(`${e.url}/dashboard/wallets/${w.id}`);
    for (const amount of ["25", "15"]) expect((await e.propose(apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount, to: freshAddress() } })).body.status).toBe("executed");
    clock.advance(10 * 60_000); // the next page load keeps a second balance sample
    await page.reload();
    const meter = page.locator("figure", { hasText: "Spend in the rolling 24 hours" });
    expect(await meter.locator("svg").getAttribute("aria-label")).toBe("$40 of $100 daily cap used in the last 24 hours");
    const balance = page.locator("figure", { hasText: "Balance over time" });
    expect(await balance.locator("circle").count()).toBe(2);
    const usd = (await balance.locator("table tbody tr").allInnerTexts()).map((r) => Number(r.split("\t").pop()));
    // 40 USDC sent, plus the two transactions' gas in ETH.
    expect(usd[0] - usd[1]).toBeGreaterThanOrEqual(40);
    expect(usd[0] - usd[1]).toBeLessThan(41);

    await shot(page, "wallet-activity");
  });

  it("draws each trader's exposure and daily PnL from its heartbeats", async () => {
    const beat = (exposure: number, pnl: number) =>
      e.request("POST", "/api/v1/trader/heartbeat", {
        key: apiKey,
        body: {
          instanceId: "5b3c1f0e-2a4d-4e6f-8a9b-0c1d2e3f4a5b",
          name: "grid-bot",
          version: "2.3.0",
          state: "running",
          mode: "sandbox",
          dryRun: false,
          venue: "hyperliquid",
          walletAddress: "0x2c12261467291113c8de6962bdb297fbea37edc0",
          startedAt: new Date(clock.now().getTime() - 3600_000).toISOString(),
          lastTickAt: clock.now().toISOString(),
          openPositions: 2,
          totalExposureUsd: exposure,
          dailyRealizedPnlUsd: pnl,
          creditsRemaining: 30,
        },
      });
    for (const [x, p] of [
      [1200, 5],
      [1800, -12.5],
      [900, 20],
    ]) {
      expect((await beat(x, p)).status).toBe(200);
      clock.advance(5 * 60_000);
    }
    await page.goto(`${e.url}/dashboard/traders`);
    const chart = page.locator("figure", { hasText: "grid-bot: exposure and daily realized PnL" });
    expect(await chart.locator("circle").count()).toBe(6);
    expect(await chart.locator("circle title").allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/: \$-12\.5 daily PnL$/), expect.stringMatching(/: \$1\.8k exposure$/)]));
    await shot(page, "traders-charts");
  });
});
