/**
 * Production wiring: BASE_RPC_URL pointing at a Base-compatible node (here an anvil the test runs, not
 * the service's own sandbox). Prices come from Chainlink feeds read over that RPC; on this node there are
 * none, so USD values are unknown (null), never guessed, and USD limits hold proposals for the owner.
 * Also: legacy `ethereum` wallets are listed and read, and cannot transact without an Ethereum chain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { startSandbox, type Sandbox } from "../../src/sandbox";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { freshAddress, USDC } from "./helpers";

let node: Sandbox;
let t: TestRuntime;
beforeAll(async () => {
  node = await startSandbox({ stateFile: false });
  t = await startTestRuntime({ env: { SANDBOX: "false", BASE_RPC_URL: node.rpcUrl } });
});
afterAll(async () => {
  await t?.close();
  await node?.stop();
});

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, any> }); // eslint-disable-line @typescript-eslint/no-explicit-any

describe("production chain (BASE_RPC_URL)", () => {
  it("executes on the configured RPC with Basescan links; unknown prices stay null", async () => {
    expect(t.runtime.chain?.sandbox).toBeNull();
    const a = await t.createAccount(5);
    const w = (await json(await t.request("POST", "/api/v1/wallets", { key: a.apiKey, body: { name: "prod", chain: "base", mode: "autonomous", mandate: "anything" } }))).body;
    expect(w.explorerAddressUrl).toBe(`https://basescan.org/address/${w.address}`);
    await node.faucet.fund({ address: w.address, asset: "ETH", amount: "1" });
    await node.faucet.fund({ address: w.address, asset: "USDC", amount: "20" });
    const bal = (await json(await t.request("GET", `/api/v1/wallets/${w.id}/balances`, { key: a.apiKey }))).body;
    expect(bal.balances.map((b: { symbol: string; usdValue: number | null }) => [b.symbol, b.usdValue])).toEqual([
      ["ETH", null],
      ["USDC", null],
    ]);
    expect(bal.warnings[0]).toMatch(/no USD price for ETH, USDC/);

    // The default judge (rules engine) decides; this mandate is one it understands.
    const bob = freshAddress();
    const owner = { accountId: a.accountId, authMethod: "api_key" as const, scopes: new Set(["mcp", "wallet"] as const), credentialId: null };
    const patch = await t.runtime.services.wallets.update(owner, w.id, { mandate: `Send at most 10 USDC per transfer to ${bob}.` });
    expect(patch.changed).toEqual(["mandate replaced"]);
    const r = (await json(await t.request("POST", `/api/v1/wallets/${w.id}/propose`, { key: a.apiKey, body: { input: { kind: "transfer", chain: "base", transfer: { asset: "USDC", amount: "4", to: bob } } } }))).body;
    expect(r.simulation.changes[0]).toMatchObject({ symbol: "USDC", contractAddress: USDC, usdValue: null });
    expect(r.status).toBe("executed");
    expect(r.explorerUrl).toBe(`https://basescan.org/tx/${r.txHash}`);

    // A USD limit cannot be checked without a price: even an ALLOW waits for the owner.
    await t.runtime.services.wallets.update(owner, w.id, { limits: { maxPerTxUsd: 100 } });
    const held = (await json(await t.request("POST", `/api/v1/wallets/${w.id}/propose`, { key: a.apiKey, body: { input: { kind: "transfer", chain: "base", transfer: { asset: "USDC", amount: "4", to: bob } } } }))).body;
    expect(held.status).toBe("awaiting_user");

    // No batch executor is configured for production Base: batches are refused, not faked.
    const batch = await json(await t.request("POST", `/api/v1/wallets/${w.id}/propose`, { key: a.apiKey, body: { input: { kind: "evm_calls", chain: "base", calls: [{ to: bob, value: "1" }] } } }));
    expect(batch.status).toBe(400);
    expect(batch.body.message).toMatch(/no EIP-7702 batch executor/);
  });

  it("reads legacy ethereum wallets; they cannot transact here", async () => {
    const a = await t.createAccount(5);
    const address = freshAddress();
    await sql`insert into wallets (id, account_id, name, chain, mode, address, mandate, limits, signer, key_ref, created_at, updated_at)
      values ('wal_legacyeth000000', ${a.accountId}, 'legacy', 'ethereum', 'safe', ${address}, null, '{}', 'arbiter-keystore', '{}', now(), now())`.execute(t.runtime.database.db);
    const list = (await json(await t.request("GET", "/api/v1/wallets", { key: a.apiKey }))).body;
    expect(list.wallets).toEqual([expect.objectContaining({ id: "wal_legacyeth000000", chain: "ethereum", address, balanceUsd: null })]);
    const bal = await json(await t.request("GET", "/api/v1/wallets/legacy/balances", { key: a.apiKey }));
    expect(bal.status).toBe(503);
    expect(bal.body.error).toBe("chain_unavailable");
    const base = await json(await t.request("POST", "/api/v1/wallets/legacy/propose", { key: a.apiKey, body: { input: { kind: "transfer", chain: "base", transfer: { asset: "ETH", amount: "1", to: address } } } }));
    expect(base.status).toBe(400);
    expect(base.body.message).toMatch(/^wrong chain: this wallet is on ethereum/);
    const eth = await json(await t.request("POST", "/api/v1/wallets/legacy/propose", { key: a.apiKey, body: { input: { kind: "transfer", chain: "ethereum", transfer: { asset: "ETH", amount: "1", to: address } } } }));
    expect(eth.status).toBe(409);
    expect(eth.body).toMatchObject({ error: "propose_failed" });
  });
});
