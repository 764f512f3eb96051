/**
 * Solana escrow wallets over the real HTTP app on the sandbox cluster: create (ed25519 custody, base58
 * address), fund through the admin faucet, list and balances (caip2 of the sandbox genesis), explorer
 * links, and owner withdrawals of SOL and USDC, read back with @solana/kit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshSolAddress, startSolanaEscrow, USDC_MINT, type SolanaEscrow } from "./helpers";

let t: SolanaEscrow;
beforeAll(async () => {
  t = await startSolanaEscrow();
});
afterAll(async () => {
  expect(await t.ledgerMismatches()).toEqual([]);
  await t?.close();
});

describe("solana wallets", () => {
  it("create, fund, list, balances and explorer links", async () => {
    const a = await t.createAccount(5);
    const w = await t.createSolWallet(a.apiKey, { name: "sol-agent", limits: { recipientAllowlist: ["2sa9nodC9kw3GTGtzzYyEAyg9g7mRCrdD6JAuELzdt4c"] } });
    expect(w).toMatchObject({ chain: "solana", mode: "autonomous", custody: "server", balanceUsd: 0, tokenCount: 0, limits: { recipientAllowlist: ["2sa9nodC9kw3GTGtzzYyEAyg9g7mRCrdD6JAuELzdt4c"] } });
    expect(w.address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(w.explorerAddressUrl).toBe(`http://arbiter.test/sandbox/explorer/solana/address/${w.address}`);
    expect(w.gas).toMatchObject({ asset: "SOL" });

    const fund = await t.admin("POST", "/admin/v1/sandbox/fund", { chain: "solana", address: w.address, asset: "SOL", amount: "2" });
    expect(fund.status).toBe(200);
    await t.fundSol(w.address, "USDC", "100");
    expect(await t.lamportsOf(w.address)).toBe(2_000_000_000n);

    const list = await t.json(await t.request("GET", "/api/v1/wallets", { key: a.apiKey }));
    expect(list.body.wallets).toEqual([expect.objectContaining({ id: w.id, chain: "solana", address: w.address, balanceUsd: 400, tokenCount: 2 })]);
    const bal = await t.json(await t.request("GET", `/api/v1/wallets/${w.id}/balances`, { key: a.apiKey }));
    expect(bal.body).toMatchObject({ walletId: w.id, chain: "solana", address: w.address, balanceUsd: 400 });
    expect(bal.body.balances).toEqual([
      { symbol: "SOL", name: "Solana", logoUrl: null, tokenAddress: "native", amount: "2000000000", amountFormatted: "2", decimals: 9, usdValue: 300, caip2: t.info.caip2 },
      { symbol: "USDC", name: "USD Coin", logoUrl: null, tokenAddress: USDC_MINT, amount: "100000000", amountFormatted: "100", decimals: 6, usdValue: 100, caip2: t.info.caip2 },
    ]);
    expect(t.info.caip2).toBe(`solana:${t.info.genesisHash.slice(0, 32)}`);
    const byName = await t.json(await t.request("GET", "/api/v1/wallets/sol-agent", { key: a.apiKey }));
    expect(byName.body).toMatchObject({ id: w.id, chain: "solana" });
  });

  it("owner withdrawals of SOL and USDC land on chain, free, with explorer links", async () => {
    const a = await t.createAccount(2);
    const w = await t.createSolWallet(a.apiKey, { name: "vault" });
    await t.fundSol(w.address, "SOL", "1");
    await t.fundSol(w.address, "USDC", "50");
    const owner = await freshSolAddress();
    const usdc = await t.json(await t.admin("POST", `/admin/v1/wallets/${w.id}/withdraw`, { asset: "USDC", amount: "20", to: owner }));
    expect(usdc.status).toBe(200);
    expect(usdc.body).toMatchObject({ status: "executed", verdict: null, creditsRemaining: null });
    const sol = await t.json(await t.admin("POST", `/admin/v1/wallets/${w.id}/withdraw`, { asset: "SOL", amount: "0.5", to: owner }));
    expect(sol.body).toMatchObject({ status: "executed" });
    expect(await t.usdcOf(owner)).toBe(20_000_000n);
    expect(await t.lamportsOf(owner)).toBe(500_000_000n);
    const status = await t.json(await t.request("GET", `/api/v1/escrow-transactions/${sol.body.txId}`, { key: a.apiKey }));
    expect(status.body.explorerUrl).toBe(`http://arbiter.test/sandbox/explorer/solana/tx/${sol.body.txHash}`);
    const ex = await t.json(await t.request("GET", new URL(status.body.explorerUrl).pathname));
    expect(ex.body).toMatchObject({ status: "success" });
    // A withdrawal the wallet cannot pay fees and rent for is refused before anything is recorded.
    const drain = await t.json(await t.admin("POST", `/admin/v1/wallets/${w.id}/withdraw`, { asset: "SOL", amount: "0.4999", to: owner }));
    expect(drain.status).toBe(400);
    expect(drain.body.message).toMatch(/fee/);
    const bad = await t.json(await t.admin("POST", `/admin/v1/wallets/${w.id}/withdraw`, { asset: "USDC", amount: "1", to: "0x000000000000000000000000000000000000dEaD" }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/base58/);
    expect(await t.credits(a.apiKey)).toBe(2);
  });
});
