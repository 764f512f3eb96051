/**
 * Solana wallets in a real browser against a real server on the sandbox clusters: the owner creates a
 * Solana wallet in the dashboard (safe mode is not offered for it), it is funded from the sandbox faucet widget and shows
 * its balances, an agent's named USDC transfer is held (SPEC 3) and the owner confirms it in Chromium
 * (landed, read back with @solana/kit), rejects another, and withdraws SOL and USDC to an address.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshSolAddress, startSolanaEscrow, type SolanaEscrow } from "../chains/solana/helpers";
import { hasChromium, launchBrowser, ownerInBrowser, shot } from "./browser";

const EMAIL = "sol-owner@example.com";
const PASSWORD = "a long and unguessable passphrase";

describe.skipIf(!hasChromium)("dashboard in Chromium: Solana wallets", () => {
  let e: SolanaEscrow;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let apiKey = "";
  let wallet: { id: string; address: string };

  beforeAll(async () => {
    e = await startSolanaEscrow({ listen: true });
    ({ browser, page, apiKey } = await ownerInBrowser(e, { email: EMAIL, password: PASSWORD, credits: 20 }));
  });
  afterAll(async () => {
    await browser?.close();
    await e?.close();
  });

  it("creates a Solana wallet and shows its balances once funded", async () => {
    await page.goto(`${e.url}/dashboard/wallets/new`);
    expect(await page.locator("main").innerText()).toMatch(/Safe mode is not available on Solana/);
    await page.getByLabel(/^Name/).fill("sol-payments");
    await page.locator("#chain").selectOption("solana");
    await page.getByLabel(/Autonomous: an ALLOW/).check();
    await page.getByLabel(/^Mandate/).fill("[judge:allow] Pay our vendors in USDC.");
    await page.getByRole("button", { name: "Create wallet" }).click();
    await page.waitForURL(/\/dashboard\/wallets\/wal_[a-z0-9]+\?notice=wallet_created/);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const w = await e.json(await e.request("GET", `/api/v1/wallets/${id}`, { key: apiKey }));
    expect(w.body).toMatchObject({ chain: "solana", mode: "autonomous" });
    wallet = { id, address: w.body.address };
    expect(await page.locator(`[data-copy='${wallet.address}']`).count()).toBeGreaterThan(0);
    expect(await page.locator("main").innerText()).toMatch(/Fund the wallet with SOL/);

    // The sandbox faucet on the wallet page offers SOL (the fee asset) and USDC for a Solana wallet.
    const widget = await page.locator("#sandbox-fund").innerText();
    expect(widget).toContain("SOL");
    expect(widget).toContain("USDC");
    for (const [asset, amount] of [
      ["SOL", "1"],
      ["USDC", "200"],
    ]) {
      await page.locator("#fund-asset").selectOption(asset);
      await page.locator("#fund-amount").fill(amount);
      await page.locator("#sandbox-fund").getByRole("button", { name: "Fund" }).click();
      await page.waitForURL(/notice=sandbox_funded/);
    }
    expect(await e.lamportsOf(wallet.address)).toBe(1_000_000_000n);
    expect(await e.usdcOf(wallet.address)).toBe(200_000_000n);
    // Over the per-request cap: refused with the reason, nothing sent.
    await page.locator("#fund-asset").selectOption("SOL");
    await page.locator("#fund-amount").fill("11");
    await page.locator("#sandbox-fund").getByRole("button", { name: "Fund" }).click();
    expect(await page.locator("main").innerText()).toMatch(/at most 10 SOL/);
    expect(await e.lamportsOf(wallet.address)).toBe(1_000_000_000n);
    await page.goto(`${e.url}/dashboard/wallets/${wallet.id}`);
    const balances = await page.locator("table").first().innerText();
    expect(balances).toMatch(/SOL/);
    expect(balances).toMatch(/USDC/);
    expect(balances).toContain("200");
    await shot(page, "solana-wallet");
  });

  it("a named transfer waits for the owner, who confirms it in the browser: it lands on the cluster", async () => {
    const payee = await freshSolAddress();
    const r = await e.proposeSol(apiKey, "sol-payments", { kind: "transfer", transfer: { asset: "USDC", amount: "25", to: payee } }, "invoice 7");
    expect(r.body).toMatchObject({ status: "awaiting_user", verdict: "ALLOW" });
    await page.goto(r.body.approvalUrl);
    const card = await page.locator("article.proposal").innerText();
    expect(card).toMatch(/Sends 25 USDC \(\$25\.00\)/);
    expect(card).toContain(payee);
    expect(card).toMatch(/expires in/);
    await page.getByRole("button", { name: "Confirm and send" }).click();
    await page.waitForURL(/notice=proposal_executed/);
    expect(await page.locator("article.proposal .status").first().innerText()).toBe("executed");
    const link = page.getByRole("link", { name: /View the transaction on the explorer/ });
    expect(await link.getAttribute("href")).toMatch(/\/sandbox\/explorer\/solana\/tx\/[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    await shot(page, "solana-proposal-executed");
    expect(await e.usdcOf(payee)).toBe(25_000_000n);

    const other = await e.proposeSol(apiKey, wallet.id, { kind: "transfer", transfer: { asset: "SOL", amount: "0.1", to: payee } });
    await page.goto(`${e.url}/dashboard/proposals/${other.body.txId}`);
    await page.getByRole("button", { name: "Reject" }).click();
    await page.waitForURL(/notice=proposal_rejected/);
    expect(await e.lamportsOf(payee)).toBe(0n);
    expect((await e.json(await e.request("GET", `/api/v1/escrow-transactions/${other.body.txId}`, { key: apiKey }))).body.status).toBe("rejected");
  });

  it("withdraws SOL and USDC to an address", async () => {
    const owner = await freshSolAddress();
    for (const [asset, amount] of [
      ["USDC", "50"],
      ["SOL", "0.25"],
    ]) {
      await page.goto(`${e.url}/dashboard/wallets/${wallet.id}/withdraw`);
      await page.getByLabel("Asset").selectOption(asset);
      await page.getByLabel(/^Amount/).fill(amount);
      await page.getByLabel(/^Send to/).fill(owner);
      await page.getByRole("button", { name: "Review withdrawal" }).click();
      await page.getByRole("button", { name: `Send ${amount} ${asset}` }).click();
      expect(await page.locator(".notice-ok").first().innerText()).toContain(`Sent ${amount} ${asset}`);
    }
    expect(await e.usdcOf(owner)).toBe(50_000_000n);
    expect(await e.lamportsOf(owner)).toBe(250_000_000n);
  });
});
