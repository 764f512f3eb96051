/**
 * Starknet wallets in a real browser against a real server with the sandbox Starknet node: the owner creates
 * a safe Starknet wallet in the dashboard, an agent proposes through the API, the owner confirms the held
 * proposal (executed on chain, checked with starknet.js), follows the explorer link to the sandbox explorer,
 * rejects another proposal and withdraws to a Starknet address.
 */
import type { Page } from "playwright-core";
import { RpcProvider } from "starknet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEscrowRuntime } from "../wallets/helpers";
import { freshFelt, withStarknet, type StarknetEscrow } from "../wallets/starknet-helpers";
import { hasChromium, launchBrowser, ownerInBrowser, shot } from "./browser";

const EMAIL = "stark-treasurer@example.com";
const PASSWORD = "a long and unguessable passphrase";

describe.skipIf(!hasChromium)("dashboard in Chromium: Starknet safe wallets", () => {
  let e: StarknetEscrow;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let apiKey = "";
  let wallet: { id: string; address: string };
  const payee = freshFelt();
  const transfer = (amount: string) => ({ kind: "transfer", transfer: { asset: "USDC", amount, to: payee } });

  beforeAll(async () => {
    const base = await startEscrowRuntime({ listen: true });
    e = withStarknet(base, new RpcProvider({ nodeUrl: base.runtime.starknet!.sandbox!.url }));
    ({ browser, page, apiKey } = await ownerInBrowser(e, { email: EMAIL, password: PASSWORD, credits: 20 }));
  });
  afterAll(async () => {
    await browser?.close();
    await e?.close();
  });

  it("creates a safe Starknet wallet in the dashboard and shows its STRK fee note and balances", async () => {
    await page.goto(`${e.url}/dashboard/wallets/new`);
    await page.getByLabel(/^Name/).fill("stark-payments");
    await page.getByLabel("Chain").selectOption("starknet");
    await page.getByLabel(/Safe: every proposal waits/).check();
    await page.getByLabel(/^Mandate/).fill("[judge:allow] Pay our vendors in USDC on Starknet.");
    await page.getByRole("button", { name: "Create wallet" }).click();
    await page.waitForURL(/\/dashboard\/wallets\/wal_[a-z0-9]+\?notice=wallet_created/);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const address = (await page.locator("[data-copy^='0x']").first().getAttribute("data-copy"))!;
    expect(address).toMatch(/^0x[0-9a-f]{64}$/);
    wallet = { id, address };
    const head = await page.locator("main").innerText();
    expect(head).toContain("starknet · safe");
    expect(head).toMatch(/Fees are paid in STRK/);
    expect(head).toContain("It pays its own fees in STRK");
    expect(await page.getByRole("link", { name: "View on the explorer" }).getAttribute("href")).toBe(`${e.url}/sandbox/explorer/starknet/address/${address}`);

    // The sandbox faucet on the wallet page offers STRK (the fee asset) for a Starknet wallet.
    expect(await page.locator("#sandbox-fund").innerText()).toContain("STRK");
    await page.locator("#fund-asset").selectOption("STRK");
    await page.locator("#fund-amount").fill("5");
    await page.getByRole("button", { name: "Fund", exact: true }).click();
    await page.waitForURL(/notice=sandbox_funded/);
    expect(await e.snBalance("STRK", address)).toBe(5n * 10n ** 18n);
    await e.fundSn(address, "USDC", "200");
    await page.reload();
    const balances = await page.locator("table").first().innerText();
    expect(balances).toContain("STRK");
    expect(balances).toContain("USDC");
    expect(balances).toContain("200");
    await shot(page, "starknet-wallet");
  });

  it("holds an agent's proposal for the owner, who confirms it: executed once on Starknet", async () => {
    const r = await e.proposeSn(apiKey, "stark-payments", transfer("25"), "invoice 7");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "awaiting_user", verdict: "ALLOW" });
    expect(r.body.approvalUrl).toBe(`${e.url}/dashboard/proposals/${r.body.txId}`);
    expect(await e.snNonce(wallet.address)).toBeNull();

    await page.goto(r.body.approvalUrl);
    const card = await page.locator("article.proposal").innerText();
    expect(card).toMatch(/Sends 25 USDC \(\$25\.00\) to 0x/);
    expect(card).toContain(payee);
    expect(card).toContain("starknet");
    await shot(page, "starknet-proposal-held");
    await page.getByRole("button", { name: "Confirm and send" }).click();
    await page.waitForURL(/notice=proposal_executed/);
    expect(await page.locator("article.proposal .status").first().innerText()).toBe("executed");
    expect(await e.snBalance("USDC", payee)).toBe(25_000_000n);
    expect(await e.snNonce(wallet.address)).toBe(2n);

    // The explorer link opens the sandbox explorer's page for the transaction.
    const href = await page.getByRole("link", { name: /View the transaction on the explorer/ }).getAttribute("href");
    const status = await e.json(await e.request("GET", `/api/v1/escrow-transactions/${r.body.txId}`, { key: apiKey }));
    expect(status.body).toMatchObject({ status: "executed" });
    expect(href).toBe(`${e.url}/sandbox/explorer/starknet/tx/${status.body.txHash}`);
    await page.goto(href!);
    const explorer = await page.locator("main").innerText();
    expect(explorer).toContain("succeeded");
    expect(explorer).toContain(payee);
    expect(explorer).toMatch(/transfer/);
    await shot(page, "starknet-explorer-tx");
  });

  it("the owner rejects a held proposal: nothing is sent", async () => {
    const r = await e.proposeSn(apiKey, wallet.id, transfer("40"));
    expect(r.body.status).toBe("awaiting_user");
    await page.goto(`${e.url}/dashboard/proposals`);
    expect(await page.getByRole("heading", { name: "Awaiting you (1)" }).count()).toBe(1);
    await page.goto(`${e.url}/dashboard/proposals/${r.body.txId}`);
    await page.getByRole("button", { name: "Reject" }).click();
    await page.waitForURL(/notice=proposal_rejected/);
    expect(await page.locator("article.proposal .status").first().innerText()).toBe("rejected");
    expect(await e.snBalance("USDC", payee)).toBe(25_000_000n);
    expect(await e.snNonce(wallet.address)).toBe(2n);
  });

  it("withdraws to a Starknet address the owner types, after a confirmation step", async () => {
    const to = freshFelt();
    await page.goto(`${e.url}/dashboard/wallets/${wallet.id}/withdraw`);
    expect(await page.getByLabel("Asset").locator("option").allInnerTexts()).toEqual(expect.arrayContaining(["STRK", "USDC"]));
    await page.getByLabel("Asset").selectOption("USDC");
    await page.getByLabel(/^Amount/).fill("100");
    await page.getByLabel(/^Send to/).fill(to);
    await page.getByRole("button", { name: "Review withdrawal" }).click();
    expect(await page.locator("main").innerText()).toContain(to);
    expect(await e.snBalance("USDC", to)).toBe(0n);
    await page.getByRole("button", { name: "Send 100 USDC" }).click();
    await page.waitForSelector(".notice-ok");
    expect(await page.locator(".notice-ok").innerText()).toContain("Sent 100 USDC");
    expect(await e.snBalance("USDC", to)).toBe(100_000_000n);
    await shot(page, "starknet-withdraw-done");
  });
});
