/**
 * Self-custodial safe wallets in Chromium against a real server on the sandbox chain, with an injected
 * EIP-1193 wallet backed by a viem account: connect with SIWE, the agent proposes (whole pipeline, held),
 * the owner confirms and the browser wallet signs and sends the exact transaction, verified on chain.
 * Then what must not be recorded: another transaction of the owner's, one from another account, one already
 * recorded; and the no-JavaScript fallback that records a hash sent by hand.
 * Screenshots: docs/screenshots/embedded-connect.png, embedded-wallet.png, embedded-proposal-executed.png.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeFunctionData, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { hasChromium, launchBrowser, shot } from "../dashboard/browser";
import { ERC20, freshAddress, startEscrowRuntime, USDC, type EscrowRuntime } from "../wallets/helpers";
import { EMBEDDED_KEY_REF } from "../../src/wallets/custody/embedded";
import { injectWallet, walletClientFor, type WalletCall } from "./wallet-provider";

const EMAIL = "self-custody@example.com";
const PASSWORD = "a long and unguessable passphrase";

describe.skipIf(!hasChromium)("self-custodial safe wallet in Chromium with an injected EIP-1193 wallet", () => {
  let e: EscrowRuntime;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let calls: WalletCall[];
  let apiKey = "";
  let walletId = "";
  const owner = privateKeyToAccount(generatePrivateKey());
  const payee = freshAddress();
  const transfer = (amount: string) => ({ kind: "transfer", transfer: { asset: "USDC", amount, to: payee } });
  const usdcTransfer = (amount: bigint): Hex => encodeFunctionData({ abi: ERC20, functionName: "transfer", args: [payee, amount] });

  beforeAll(async () => {
    e = await startEscrowRuntime({ listen: true });
    await e.fund(owner.address, "ETH", "1");
    await e.fund(owner.address, "USDC", "500");
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on("dialog", (d) => void d.accept());
    ({ calls } = await injectWallet(page, owner, e.sandbox.rpcUrl));
    await page.goto(`${e.url}/dashboard/signup`);
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/dashboard\/keys/);
    await page.getByRole("button", { name: "Create API key" }).click();
    apiKey = (await page.locator("[data-copy^='svc_sk_live_']").getAttribute("data-copy"))!;
    const user = await e.runtime.database.db.selectFrom("users").select("account_id").where("email", "=", EMAIL).executeTakeFirstOrThrow();
    await e.admin("POST", `/admin/v1/accounts/${user.account_id}/credits`, { credits: 20, reason: "e2e" });
  });
  afterAll(async () => {
    await browser?.close();
    await e?.close();
  });

  it("connects the browser wallet with Sign-In with Ethereum: the owner's address becomes a safe wallet", async () => {
    await page.goto(`${e.url}/dashboard/wallets`);
    await page.getByRole("link", { name: "Connect your own wallet" }).click();
    await page.getByLabel(/^Name/).fill("my-safe");
    await page.getByLabel(/^Mandate/).fill("[judge:allow] Pay our vendors in USDC, at most 100 USDC per payment.");
    await page.getByLabel("Per-transaction cap (USD)").fill("100");
    await shot(page, "embedded-connect");
    await page.getByRole("button", { name: "Connect wallet and create" }).click();
    await page.waitForURL(/\/dashboard\/wallets\/wal_[a-z0-9]+\?notice=wallet_created/);
    walletId = new URL(page.url()).pathname.split("/").pop()!;
    expect(await page.locator("[data-copy^='0x']").first().getAttribute("data-copy")).toBe(owner.address);
    expect(await page.locator("main").innerText()).toMatch(/safe \(every proposal waits for you\) · embedded\s+custody \(owner-wallet\)/);
    expect(await page.getByRole("link", { name: "Withdraw" }).count()).toBe(0);
    await shot(page, "embedded-wallet");

    const signed = calls.find((c) => c.method === "personal_sign")!;
    const message = Buffer.from((signed.params[0] as string).slice(2), "hex").toString("utf8");
    expect(message.startsWith(`${e.url} wants you to sign in with your Ethereum account:\n${owner.address}\n`)).toBe(true);
    expect(message).toMatch(/Chain ID: 8453/);
    expect(message).toContain(`URI: ${e.url}/dashboard/wallets/connect`);

    const listed = await e.json(await e.request("GET", "/api/v1/wallets", { key: apiKey }));
    expect(listed.body.wallets[0]).toMatchObject({ id: walletId, custody: "embedded", mode: "safe", chain: "base", address: owner.address });
    const row = await e.runtime.database.db.selectFrom("wallets").select(["key_ref", "signer"]).where("id", "=", walletId).executeTakeFirstOrThrow();
    expect(row).toEqual({ key_ref: EMBEDDED_KEY_REF, signer: "owner-wallet" });
  });

  it("runs the whole pipeline and holds; the owner's wallet signs and sends the exact transaction; executed after the chain check", async () => {
    const r = await e.propose(apiKey, "my-safe", transfer("25"), "invoice 2001");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "awaiting_user", verdict: "ALLOW" });
    expect(r.body.scanId).toBeTruthy();
    expect(r.body.simulation.status).toBe("clean");
    expect(r.body.reasoning).toMatch(/^Held for the owner: /);

    await page.goto(r.body.approvalUrl);
    expect(await page.getByRole("button", { name: "Confirm and send" }).count()).toBe(0);
    await page.getByRole("button", { name: "Confirm in your wallet" }).click();
    await page.waitForURL(/notice=proposal_executed/);
    expect(await page.locator("article.proposal .status").first().innerText()).toBe("executed");
    await shot(page, "embedded-proposal-executed");

    const sent = calls.filter((c) => c.method === "eth_sendTransaction");
    expect(sent).toHaveLength(1);
    expect(sent[0].params[0]).toEqual({ from: owner.address, to: USDC, value: "0x0", data: usdcTransfer(25_000_000n), chainId: "0x2105" });
    const status = await e.json(await e.request("GET", `/api/v1/escrow-transactions/${r.body.txId}`, { key: apiKey }));
    expect(status.body.status).toBe("executed");
    const tx = await e.pub.getTransaction({ hash: status.body.txHash as Hex });
    expect(tx.from.toLowerCase()).toBe(owner.address.toLowerCase());
    expect(await e.usdcOf(payee)).toBe(25_000_000n);
  });

  it("records only the proposal's own transaction: not another one, not another account's, not one already recorded", async () => {
    const r = await e.propose(apiKey, "my-safe", transfer("10"), "invoice 2002");
    expect(r.body.status).toBe("awaiting_user");
    const id = r.body.txId as string;
    // The service itself never signs for it: the server-side confirmation is refused.
    const admin = await e.json(await e.admin("POST", `/admin/v1/proposals/${id}/confirm`));
    expect(admin.status).toBe(409);
    expect(admin.body.message).toMatch(/self-custodial/);

    await page.goto(`${e.url}/dashboard/proposals/${id}`);
    const csrf = (await page.locator('meta[name="csrf-token"]').getAttribute("content"))!;
    const api = (path: string, body?: unknown) =>
      page.evaluate(
        async ([p, b, t]) => {
          const res = await fetch(p as string, { method: "POST", headers: { "content-type": "application/json", "x-csrf-token": t as string }, body: JSON.stringify(b ?? {}) });
          return { status: res.status, body: await res.json() };
        },
        [path, body, csrf] as const,
      );
    const prepared = await api(`/dashboard/api/embedded/proposals/${id}/prepare`);
    expect(prepared.status).toBe(200);
    expect(prepared.body).toMatchObject({ status: "ready", requestHash: r.body.requestHash, transaction: { from: owner.address, to: USDC, value: "0x0", data: usdcTransfer(10_000_000n) } });

    const ownWallet = walletClientFor(owner, e.sandbox.rpcUrl);
    const other = privateKeyToAccount(generatePrivateKey());
    await e.fund(other.address, "ETH", "1");
    await e.fund(other.address, "USDC", "50");
    const record = async (hash: Hex) => {
      await page.goto(`${e.url}/dashboard/proposals/${id}`);
      await page.getByText("Already sent it from your wallet?").click();
      await page.getByLabel("Transaction hash").fill(hash);
      await page.getByRole("button", { name: "Record" }).click();
      await page.waitForLoadState();
      return page.locator("main").innerText();
    };
    const wrongAmount = await ownWallet.sendTransaction({ to: USDC, data: usdcTransfer(11_000_000n) });
    expect(await record(wrongAmount)).toMatch(/is not this proposal's: its data differs/);
    const fromOther = await walletClientFor(other, e.sandbox.rpcUrl).sendTransaction({ to: USDC, data: usdcTransfer(10_000_000n) });
    expect(await record(fromOther)).toMatch(/is not this proposal's: it was sent from/);
    const first = (await e.runtime.database.db.selectFrom("proposals").select("tx_hash").where("status", "=", "executed").executeTakeFirstOrThrow()).tx_hash as Hex;
    expect(await record(first)).toMatch(/is not this proposal's: its data differs|already recorded/);
    expect((await e.json(await e.request("GET", `/api/v1/escrow-transactions/${id}`, { key: apiKey }))).body.status).toBe("awaiting_user");

    // Sent by hand from the owner's wallet, recorded with the form (works without JavaScript).
    const right = await ownWallet.sendTransaction({ to: USDC, data: usdcTransfer(10_000_000n) });
    await record(right);
    await page.waitForURL(/notice=proposal_executed/);
    const done = await e.json(await e.request("GET", `/api/v1/escrow-transactions/${id}`, { key: apiKey }));
    expect(done.body).toMatchObject({ status: "executed", txHash: right });
    expect(await e.usdcOf(payee)).toBe(25_000_000n + 11_000_000n + 10_000_000n + 10_000_000n);
  });

  it("refuses what the owner's wallet cannot send as one transaction, and withdrawals (the funds are the owner's)", async () => {
    const batch = await e.propose(apiKey, "my-safe", { kind: "evm_calls", calls: [{ to: USDC, data: usdcTransfer(1n) }] });
    expect(batch.status).toBe(400);
    expect(batch.body).toMatchObject({ error: "propose_failed" });
    expect(batch.body.message).toMatch(/self-custodial wallet cannot run batches/);
    const w = await e.json(await e.admin("POST", `/admin/v1/wallets/${walletId}/withdraw`, { asset: "USDC", amount: "1", to: payee }));
    expect(w.status).toBe(409);
    expect(w.body.message).toMatch(/self-custodial/);
  });
});
