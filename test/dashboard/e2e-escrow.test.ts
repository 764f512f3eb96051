/**
 * Wallets in a real browser against a real server on the sandbox chain: create a safe wallet, fund it,
 * an agent proposes through the API, the owner follows the approval link through sign-in and confirms
 * (executed on chain), rejects another, reviews a loosening rule change, withdraws; another account's
 * proposal is 404.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Address } from "viem";
import { startEscrowRuntime, freshAddress, type EscrowRuntime } from "../wallets/helpers";
import { decodeQr, hasChromium, launchBrowser, ownerInBrowser, shot } from "./browser";

const EMAIL = "treasurer@example.com";
const PASSWORD = "a long and unguessable passphrase";

describe.skipIf(!hasChromium)("dashboard in Chromium: wallets, proposals, withdrawals", () => {
  let e: EscrowRuntime;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let apiKey = "";
  let wallet: { id: string; address: Address };
  const payee = freshAddress();
  const transfer = (amount: string, to: Address = payee) => ({ kind: "transfer", transfer: { asset: "USDC", amount, to } });

  const signIn = async (p: Page) => {
    await p.getByLabel("Email").fill(EMAIL);
    await p.getByLabel("Password").fill(PASSWORD);
    await p.getByRole("button", { name: "Sign in" }).click();
  };

  beforeAll(async () => {
    e = await startEscrowRuntime({ listen: true });
    ({ browser, page, apiKey } = await ownerInBrowser(e, { email: EMAIL, password: PASSWORD, credits: 20 }));
  });
  afterAll(async () => {
    await browser?.close();
    await e?.close();
  });

  it("creates a safe wallet with a limit, shows its address with a QR code, and its balances once funded", async () => {
    await page.goto(`${e.url}/dashboard/wallets`);
    expect(await page.getByText("No wallets yet.").count()).toBe(1);
    await page.getByRole("link", { name: "Create wallet" }).click();
    await page.getByLabel(/^Name/).fill("vendor-payments");
    await page.getByLabel(/Safe: every proposal waits/).check();
    await page.getByLabel(/^Mandate/).fill("[judge:allow] Pay our vendors in USDC, at most 100 USDC per payment.");
    await page.getByLabel("Per-transaction cap (USD)").fill("100");
    await page.getByRole("button", { name: "Create wallet" }).click();
    await page.waitForURL(/\/dashboard\/wallets\/wal_[a-z0-9]+\?notice=wallet_created/);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const address = (await page.locator("[data-copy^='0x']").first().getAttribute("data-copy")) as Address;
    wallet = { id, address };
    expect(await page.getByText("This wallet holds nothing yet.").count()).toBe(1);

    await e.fund(address, "ETH", "1");
    await e.fund(address, "USDC", "500");
    await page.reload();
    const balances = await page.locator("table").first().innerText();
    expect(balances).toContain("USDC");
    expect(balances).toContain("500");
    expect(await page.locator("main").innerText()).toMatch(/Per-transaction cap\s+\$100\.00/);
    const file = await shot(page, "wallet");
    const decoded = decodeQr(file);
    if (decoded !== null) expect(decoded).toBe(address);
    await page.goto(`${e.url}/dashboard/wallets`);
    await shot(page, "wallets");
  });

  it("follows the approval link through sign-in and confirms a held proposal, executed on chain", async () => {
    const r = await e.propose(apiKey, "vendor-payments", transfer("25"), "invoice 1001");
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("awaiting_user");
    expect(r.body.approvalUrl).toBe(`${e.url}/dashboard/proposals/${r.body.txId}`);

    const fresh = await launchBrowser();
    try {
      const p = await fresh.context.newPage();
      p.on("dialog", (d) => void d.accept());
      await p.goto(r.body.approvalUrl);
      expect(new URL(p.url()).pathname).toBe("/dashboard/login");
      await signIn(p);
      await p.waitForURL(r.body.approvalUrl);
      const card = await p.locator("article.proposal").innerText();
      expect(card).toMatch(/Sends 25 USDC \(\$25\.00\) to 0x/);
      expect(card.toLowerCase()).toContain(payee.toLowerCase()); // the full recipient, to check before confirming
      expect(card).toContain("ALLOW");
      expect(card).toContain("within the mandate");
      expect(card).toMatch(/expires in \d+:\d\d|expires in 1 h/);
      await shot(p, "proposal-held");
      await p.getByRole("button", { name: "Confirm and send" }).click();
      await p.waitForURL(/notice=proposal_executed/);
      expect(await p.locator("article.proposal .status").first().innerText()).toBe("executed");
      expect(await p.getByRole("link", { name: /View the transaction on the explorer/ }).count()).toBe(1);
      await shot(p, "proposal-executed");
    } finally {
      await fresh.close();
    }
    expect(await e.usdcOf(payee)).toBe(25_000_000n);
    const status = await e.json(await e.request("GET", `/api/v1/escrow-transactions/${r.body.txId}`, { key: apiKey }));
    expect(status.body).toMatchObject({ status: "executed" });
    expect(status.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("lists held proposals first and rejects one", async () => {
    const r = await e.propose(apiKey, wallet.id, transfer("40"), "invoice 1002");
    expect(r.body.status).toBe("awaiting_user");
    await page.goto(`${e.url}/dashboard/proposals`);
    expect(await page.getByRole("heading", { name: "Awaiting you (1)" }).count()).toBe(1);
    expect(await page.locator("article.proposal").innerText()).toMatch(/Sends 40 USDC/);
    expect(await page.locator(".nav .badge").innerText()).toBe("1");
    await shot(page, "proposals");
    const phone = await browser.context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${e.url}/dashboard/proposals/${r.body.txId}`);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await shot(phone, "proposal-phone");
    await phone.close();
    await page.getByRole("button", { name: "Reject" }).click();
    await page.waitForURL(/notice=proposal_rejected/);
    expect(await page.locator("article.proposal .status").first().innerText()).toBe("rejected");
    const status = await e.json(await e.request("GET", `/api/v1/escrow-transactions/${r.body.txId}`, { key: apiKey }));
    expect(status.body.status).toBe("rejected");
    expect(await e.usdcOf(payee)).toBe(25_000_000n);
  });

  it("shows what a rule change loosens before saving it", async () => {
    await page.goto(`${e.url}/dashboard/wallets/${wallet.id}/rules`);
    await page.getByLabel("Per-transaction cap (USD)").fill("250");
    await page.getByRole("button", { name: "Review change" }).click();
    const warn = await page.locator(".notice-warn").first().innerText();
    expect(warn).toContain("This change loosens the rules");
    expect(warn).toContain("maxPerTxUsd raised from 100 to 250 USD");
    await shot(page, "wallet-rules-review");
    // Nothing is saved by the review.
    expect((await e.runtime.services.wallets.get({ accountId: (await e.runtime.database.db.selectFrom("wallets").select("account_id").where("id", "=", wallet.id).executeTakeFirstOrThrow()).account_id, authMethod: "session", scopes: new Set(), credentialId: null }, wallet.id)).limits.maxPerTxUsd).toBe(100);
    await page.getByRole("button", { name: "Save and loosen the rules" }).click();
    await page.waitForURL(/notice=wallet_loosened/);
    expect(await page.locator("main").innerText()).toMatch(/Per-transaction cap\s+\$250\.00/);
  });

  it("withdraws to an address the owner types, after a confirmation step", async () => {
    const to = freshAddress();
    await page.goto(`${e.url}/dashboard/wallets/${wallet.id}/withdraw`);
    await page.getByLabel("Asset").selectOption("USDC");
    await page.getByLabel(/^Amount/).fill("100");
    await page.getByLabel(/^Send to/).fill(to);
    await page.getByRole("button", { name: "Review withdrawal" }).click();
    expect(await page.locator("main").innerText()).toContain(to);
    await shot(page, "withdraw-review");
    expect(await e.usdcOf(to)).toBe(0n);
    await page.getByRole("button", { name: "Send 100 USDC" }).click();
    await page.waitForSelector(".notice-ok");
    expect(await page.locator(".notice-ok").innerText()).toContain("Sent 100 USDC");
    expect(await e.usdcOf(to)).toBe(100_000_000n);
    await shot(page, "withdraw-done");
    await page.goto(`${e.url}/dashboard`);
    await shot(page, "overview-wallets");
  });

  it("answers 404 for another account's proposal, in the page and for its owner verbs", async () => {
    const other = await e.createAccount(5, "other");
    const w = await e.createWallet(other.apiKey, { name: "theirs", mode: "safe" });
    const r = await e.propose(other.apiKey, w.id, transfer("1"));
    expect(r.status).toBe(200);
    const res = await page.goto(`${e.url}/dashboard/proposals/${r.body.txId}`);
    expect(res!.status()).toBe(404);
    expect(await page.locator("main").innerText()).toContain("There is nothing here on your account.");
    const csrf = await page.locator('meta[name="csrf-token"]').getAttribute("content");
    const post = await page.evaluate(
      async ([id, token]) => (await fetch(`/dashboard/proposals/${id}/confirm`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `_csrf=${token}` })).status,
      [r.body.txId as string, csrf!],
    );
    expect(post).toBe(404);
    expect((await page.goto(`${e.url}/dashboard/wallets/${w.id}`))!.status()).toBe(404);
  });

  it("shows the top-up terms when top-ups are enabled (the sandbox settles them on its own chain)", async () => {
    await page.goto(`${e.url}/dashboard/credits`);
    const text = await page.locator("main").innerText();
    if (text.includes("Top-ups are not enabled")) return; // this deployment has no facilitator
    expect(text).toMatch(/svc_topup_/);
    expect(text).toContain("eip155:8453");
    await shot(page, "credits-topup");
  });

  it("archives the wallet from its page", async () => {
    await page.goto(`${e.url}/dashboard/wallets/${wallet.id}`);
    await page.getByRole("button", { name: "Archive wallet" }).click();
    await page.waitForURL(/notice=wallet_archived/);
    expect(await page.locator("main").innerText()).toContain("Archived");
    const r = await e.propose(apiKey, wallet.id, transfer("1"));
    expect(r.status).toBe(409);
  });
});
