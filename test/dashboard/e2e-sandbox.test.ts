/**
 * A dashboard-only user on the sandbox, in Chromium against a real server: sign up, see that this is a sandbox,
 * buy credits through the real x402 path (paid by a faucet-funded payer, settled on the sandbox chain), create a
 * wallet, fund it from the faucet on its page, and watch an agent's transfer execute on chain. No CLI, no admin
 * token anywhere in the flow.
 */
import type { Page } from "playwright-core";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshAddress, startEscrowRuntime, type EscrowRuntime } from "../wallets/helpers";
import { hasChromium, launchBrowser, shot } from "./browser";

const EMAIL = "newcomer@example.com";
const PASSWORD = "a long and unguessable passphrase";

describe.skipIf(!hasChromium)("dashboard in Chromium: the sandbox needs no operator", () => {
  let e: EscrowRuntime;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let apiKey = "";
  let wallet: { id: string; address: Address };

  beforeAll(async () => {
    e = await startEscrowRuntime({ listen: true });
    browser = await launchBrowser();
    page = await browser.context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await e?.close();
  });

  it("signs up with 0 credits and buys credits with sandbox USDC through the real x402 top-up", async () => {
    await page.goto(`${e.url}/dashboard/signup`);
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/dashboard\/keys/);
    await page.getByRole("button", { name: "Create API key" }).click();
    apiKey = (await page.locator("[data-copy^='svc_sk_live_']").getAttribute("data-copy"))!;
    expect(await e.credits(apiKey)).toBe(0);

    await page.goto(`${e.url}/dashboard/credits`);
    expect(await page.locator("main").innerText()).toContain("This is a sandbox.");
    const payTo = (await (await e.admin("GET", "/admin/v1/sandbox")).json()).payTo as Address;
    const before = await e.usdcOf(payTo);
    await page.getByLabel("Credits to buy").fill("100");
    await page.getByRole("button", { name: "Buy with sandbox USDC" }).click();
    await page.waitForURL(/notice=sandbox_credits/);
    expect(await e.credits(apiKey)).toBe(100);
    // Settled on chain: the top-up recipient holds 5 USDC more (100 credits x 0.05).
    expect((await e.usdcOf(payTo)) - before).toBe(5_000_000n);
    const main = await page.locator("main").innerText();
    expect(main).toContain("Top-up (USDC over x402)");
    await shot(page, "credits-sandbox");
  });

  it("creates a wallet, funds it from the faucet on its page, and an agent's transfer executes on chain", async () => {
    await page.goto(`${e.url}/dashboard/wallets/new`);
    await page.getByLabel(/^Name/).fill("ops");
    await page.getByLabel(/Autonomous: an ALLOW/).check();
    await page.getByLabel(/^Mandate/).fill("[judge:allow] Only send USDC to our vendors, at most 50 USDC per transfer.");
    await page.getByRole("button", { name: "Create wallet" }).click();
    await page.waitForURL(/\/dashboard\/wallets\/wal_[a-z0-9]+\?notice=wallet_created/);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const address = (await page.locator("[data-copy^='0x']").first().getAttribute("data-copy")) as Address;
    wallet = { id, address };
    expect(await page.locator("main").innerText()).toContain("Fund from the sandbox faucet");

    await page.getByLabel("Asset", { exact: true }).selectOption("ETH");
    await page.getByLabel("Amount", { exact: true }).fill("0.05");
    await page.getByRole("button", { name: "Fund", exact: true }).click();
    await page.waitForURL(/notice=sandbox_funded/);
    await page.getByLabel("Asset", { exact: true }).selectOption("USDC");
    await page.getByLabel("Amount", { exact: true }).fill("200");
    await page.getByRole("button", { name: "Fund", exact: true }).click();
    await page.waitForURL(/notice=sandbox_funded/);
    expect(await e.usdcOf(address)).toBe(200_000_000n);
    expect(await e.ethOf(address)).toBe(50_000_000_000_000_000n);
    await shot(page, "wallet-sandbox-fund");

    // A faucet amount over the per-request cap is refused with a readable page, nothing sent.
    await page.getByLabel("Amount", { exact: true }).fill("1000000");
    await page.getByRole("button", { name: "Fund", exact: true }).click();
    expect(await page.locator("main").innerText()).toMatch(/at most 10000 USDC/);
    expect(await e.usdcOf(address)).toBe(200_000_000n);

    const to = freshAddress();
    const r = await e.propose(apiKey, wallet.id, { kind: "transfer", transfer: { asset: "USDC", amount: "25", to } });
    expect(r.body.status).toBe("executed");
    expect(await e.usdcOf(to)).toBe(25_000_000n);
    expect(await e.credits(apiKey)).toBe(99);
    await page.goto(`${e.url}/dashboard/wallets/${wallet.id}`);
    expect(await page.locator("main").innerText()).toMatch(/executed/i);
    await shot(page, "wallet-sandbox-transfer");
  });
});
