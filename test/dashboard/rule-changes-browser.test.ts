/**
 * Who may loosen a wallet's rules, in a real browser against a real server on the sandbox chain (issue 18,
 * attack 1): the owner makes loosening theirs, an agent's loosening over MCP is held, the owner follows the
 * agent's link to the pending change, approves it, and reads the audit trail.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startEscrowRuntime, freshAddress, type EscrowRuntime } from "../wallets/helpers";
import { hasChromium, launchBrowser, shot, signUpWithKey } from "./browser";

const EMAIL = "rules-owner@example.com";
const PASSWORD = "a long and unguessable passphrase";

describe.skipIf(!hasChromium)("dashboard in Chromium: who may loosen a wallet's rules", () => {
  let e: EscrowRuntime;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let agent: Client;
  let apiKey = "";

  beforeAll(async () => {
    e = await startEscrowRuntime({ listen: true });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on("dialog", (d) => void d.accept());
    apiKey = await signUpWithKey(page, e.url, EMAIL, PASSWORD);
    agent = new Client({ name: "rules-agent", version: "1.0.0" });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${e.url}/api/mcp`), { requestInit: { headers: { "x-api-key": apiKey } } }));
  });
  afterAll(async () => {
    await agent?.close().catch(() => {});
    await browser?.close();
    await e?.close();
  });

  it("the owner sets the mode, sees the agent's pending loosening on the wallet page, approves it, and reads the audit trail", async () => {
    const supplier = freshAddress();
    const w = await e.createWallet(apiKey, { name: "treasury", mandate: "[judge:allow] pay our one supplier", limits: { maxPerTxUsd: 50, dailyCapUsd: 100, recipientAllowlist: [supplier] } });

    // The owner makes loosening theirs on the wallet's page.
    await page.goto(`${e.url}/dashboard/wallets/${w.id}`);
    const form = page.locator("form", { has: page.getByText("Who may loosen this wallet's rules") });
    await form.getByLabel(/Only me: an agent/).check();
    await form.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/notice=loosening_saved/);
    expect(await page.getByText("Saved: who may loosen this wallet's rules.").count()).toBe(1);
    expect(await page.locator("form", { has: page.getByText("Who may loosen this wallet's rules") }).getByLabel(/Only me: an agent/).isChecked()).toBe(true);

    // The agent tries to remove its limits and rewrite the mandate: held, with the link to the dashboard.
    const up = (await agent.callTool({ name: "update_escrow_wallet", arguments: { wallet: w.id, limits: { maxPerTxUsd: null, dailyCapUsd: null, recipientAllowlist: null }, mandate: "[judge:allow] anything" } })) as CallToolResult;
    expect(up.isError).toBe(true);
    const { approvalUrl, changeId } = up.structuredContent as { approvalUrl: string; changeId: string };
    expect((up.content[0] as { text: string }).text).toContain(approvalUrl);

    // The owner follows the link: the pending change, field by field, with approve and reject.
    await page.goto(approvalUrl);
    const pending = page.locator(`#rule-change-${changeId}`);
    expect(await page.getByRole("heading", { name: "Rule changes waiting for you (1)" }).count()).toBe(1);
    expect(await pending.getByText("maxPerTxUsd removed (was 50 USD): no per-transaction USD cap now").count()).toBe(1);
    expect(await pending.getByText("recipientAllowlist removed: any recipient is allowed now").count()).toBe(1);
    expect(await pending.getByText(/mandate replaced/).count()).toBe(1);
    expect(await pending.getByText(/API key/).count()).toBe(1);
    await shot(page, "wallet-rule-change-pending");
    // Nothing applied yet: the rules table still shows the caps.
    expect(await page.locator(".kvs").getByText("$50.00").count()).toBeGreaterThan(0);

    await pending.getByRole("button", { name: "Approve and loosen" }).click();
    await page.waitForURL(/notice=rule_change_approved/);
    expect(await page.getByRole("heading", { name: /Rule changes waiting for you/ }).count()).toBe(0);
    expect(await page.getByText(/none: only the mandate and the judge stand between/).count()).toBe(1);

    // The audit trail: the approved change by the API key, and the owner's own setting.
    const trail = page.locator("#rule-change-trail tbody tr");
    expect(await trail.count()).toBe(2);
    const approved = trail.nth(0);
    expect(await approved.locator(".status").innerText()).toBe("approved");
    expect(await approved.getByText(/API key/).count()).toBe(1);
    expect(await approved.getByText("dailyCapUsd removed (was 100 USD): no daily USD cap now").count()).toBe(1);
    const mode = trail.nth(1);
    expect(await mode.locator(".status").innerText()).toBe("applied");
    expect(await mode.getByText(/you \(owner\)/).count()).toBe(1);
    expect(await mode.getByText(/only the owner may loosen the rules/).count()).toBe(1);
    await shot(page, "wallet-rule-change-trail");
  });
});
