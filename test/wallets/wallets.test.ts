import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEscrowRuntime, USDC, type EscrowRuntime } from "./helpers";
import { startTestRuntime } from "../helpers/runtime";

let t: EscrowRuntime;
beforeAll(async () => {
  t = await startEscrowRuntime();
});
afterAll(async () => {
  await t?.close();
});

describe("POST /api/v1/wallets (SPEC 4.7)", () => {
  it("creates a Base wallet with a fresh address, limits and gas guidance", async () => {
    const a = await t.createAccount(5);
    const r = await t.json(
      await t.request("POST", "/api/v1/wallets", {
        key: a.apiKey,
        body: { name: "ops", chainType: "ethereum", mode: "safe", mandate: "Pay vendors up to $50.", limits: { maxPerTxUsd: 50, tokenAllowlist: ["USDC", "eth"], recipientAllowlist: ["0x000000000000000000000000000000000000dEaD"] } },
      }),
    );
    expect(r.status).toBe(201);
    const w = r.body;
    expect(w.id).toMatch(/^wal_/);
    expect(w.chain).toBe("base");
    expect(w.mode).toBe("safe");
    expect(w.custody).toBe("server");
    expect(w.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(w.limits).toEqual({ maxPerTxUsd: 50, tokenAllowlist: [USDC, "native"], recipientAllowlist: ["0x000000000000000000000000000000000000dEaD"] });
    expect(w.rules.enforcement).toEqual({ maxPerTxUsd: "service", tokenAllowlist: "service", recipientAllowlist: "service", mandate: "judge" });
    expect(w.provider).toBe("arbiter-keystore");
    expect(w.gas.note).toMatch(/pays its own gas in ETH/);
    expect(w.explorerAddressUrl).toContain(w.address);
    expect(w).not.toHaveProperty("key_ref");
    expect(JSON.stringify(w)).not.toMatch(/"ct"|privateKey/);
    expect(w.balanceUsd).toBe(0);
    expect(w.pendingCount).toBe(0);
    expect(w.archivedAt).toBeNull();
  });

  it("answers the SPEC 7 validation errors", async () => {
    const a = await t.createAccount(0);
    const post = async (body: unknown, raw?: string) => t.json(await t.request("POST", "/api/v1/wallets", { key: a.apiKey, ...(raw ? { raw } : { body }) }));
    expect((await post(undefined, "{nope")).body.error).toBe("invalid JSON body");
    expect((await post({ chain: "base", mode: "safe" })).body.error).toBe("name is required");
    expect((await post({ name: "  ", chain: "base", mode: "safe" })).body.error).toBe("name is required");
    const badChain = await post({ name: "x", chain: "bitcoin", mode: "safe" });
    expect(badChain.status).toBe(400);
    expect(badChain.body.error).toMatch(/^chain must be one of base, solana, starknet/);
    expect((await post({ name: "x", mode: "safe" })).body.error).toMatch(/^chain must be/);
    expect((await post({ name: "x", chain: "base", mode: "yolo" })).body.error).toBe("mode must be autonomous or safe");
    expect((await post({ name: "x", chain: "base" })).body.error).toBe("mode must be autonomous or safe");
    const limit = await post({ name: "x", chain: "base", mode: "safe", limits: { maxPerTxUsd: 0 } });
    expect(limit.body).toMatchObject({ error: "create_failed" });
    expect(limit.body.message).toMatch(/maxPerTxUsd: must be between 0.01 and 1000000000/);
    expect((await post({ name: "x", chain: "base", mode: "safe", limits: { dailyCapUsd: 1e10 } })).body.error).toBe("create_failed");
    expect((await post({ name: "x", chain: "base", mode: "safe", limits: { recipientAllowlist: ["bob"] } })).body.message).toMatch(/not a 0x address/);
    expect((await post({ name: "x", chain: "base", mode: "safe", limits: { surprise: 1 } })).body.error).toBe("create_failed");
    // SPEC 4.7: safe mode is Base and Starknet only.
    const sol = await post({ name: "x", chain: "solana", mode: "safe" });
    expect(sol.body.error).toBe("create_failed");
    expect(sol.body.message).toMatch(/safe is not available on solana wallets/);
    await post({ name: "dup", chain: "base", mode: "safe" });
    const dup = await post({ name: "dup", chain: "base", mode: "safe" });
    expect(dup.body).toMatchObject({ error: "create_failed" });
    expect(dup.body.message).toMatch(/already exists/);
  });

  it("holds at most 25 live wallets per account", async () => {
    const a = await t.createAccount(0);
    await Promise.all(Array.from({ length: 25 }, (_, i) => t.createWallet(a.apiKey, { name: `w${i}` })));
    const over = await t.json(await t.request("POST", "/api/v1/wallets", { key: a.apiKey, body: { name: "w25", chain: "base", mode: "safe" } }));
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ error: "create_failed" });
    expect(over.body.message).toMatch(/at most 25 live wallets/);
    // Archiving one frees a place; unarchiving it again is refused while 25 are live.
    const list = (await t.json(await t.request("GET", "/api/v1/wallets", { key: a.apiKey }))).body.wallets as { id: string }[];
    expect(list).toHaveLength(25);
    expect((await t.admin("POST", `/admin/v1/wallets/${list[0].id}/archive`)).status).toBe(200);
    await t.createWallet(a.apiKey, { name: "w25" });
    const un = await t.json(await t.admin("POST", `/admin/v1/wallets/${list[0].id}/unarchive`));
    expect(un.status).toBe(409);
  });
});

describe("GET /api/v1/wallets and balances (SPEC 4.6, 4.8, 2.6)", () => {
  it("lists live wallets with live balances; archived only with includeArchived=true", async () => {
    const a = await t.createAccount(0);
    const w1 = await t.createWallet(a.apiKey, { name: "one" });
    const w2 = await t.createWallet(a.apiKey, { name: "two" });
    await t.fund(w1.address, "ETH", "0.5");
    await t.fund(w1.address, "USDC", "25");
    const list = await t.json(await t.request("GET", "/api/v1/wallets", { key: a.apiKey }));
    expect(list.status).toBe(200);
    const one = list.body.wallets.find((w: { id: string }) => w.id === w1.id);
    // Sandbox prices: ETH $3,000, USDC $1.
    expect(one.balanceUsd).toBe(1525);
    expect(one.tokenCount).toBe(2);
    expect(one).not.toHaveProperty("rules");

    expect((await t.admin("POST", `/admin/v1/wallets/${w2.id}/archive`)).status).toBe(200);
    const live = await t.json(await t.request("GET", "/api/v1/wallets", { key: a.apiKey }));
    expect(live.body.wallets.map((w: { id: string }) => w.id)).toEqual([w1.id]);
    const all = await t.json(await t.request("GET", "/api/v1/wallets?includeArchived=true", { key: a.apiKey }));
    expect(all.body.wallets.map((w: { id: string }) => w.id)).toEqual([w1.id, w2.id]);
    expect(all.body.wallets[1].archivedAt).toMatch(/^\d{4}-/);
  });

  it("reads balances by id or name: ETH plus known tokens with base units, whole units, USD and CAIP-2", async () => {
    const a = await t.createAccount(0);
    const w = await t.createWallet(a.apiKey, { name: "treasury" });
    await t.fund(w.address, "ETH", "0.25");
    await t.fund(w.address, "USDC", "12.5");
    for (const ref of [w.id, "treasury"]) {
      const r = await t.json(await t.request("GET", `/api/v1/wallets/${ref}/balances`, { key: a.apiKey }));
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ walletId: w.id, name: "treasury", chain: "base", address: w.address, balanceUsd: 762.5 });
      expect(r.body.balances).toEqual([
        { symbol: "ETH", name: "Ether", logoUrl: null, tokenAddress: "native", amount: "250000000000000000", amountFormatted: "0.25", decimals: 18, usdValue: 750, caip2: "eip155:8453" },
        { symbol: "USDC", name: "USD Coin", logoUrl: null, tokenAddress: USDC, amount: "12500000", amountFormatted: "12.5", decimals: 6, usdValue: 12.5, caip2: "eip155:8453" },
      ]);
    }
  });

  it("keeps accounts apart: another account's wallet is 404 not_found", async () => {
    const a = await t.createAccount(1);
    const b = await t.createAccount(1);
    const w = await t.createWallet(a.apiKey, { name: "mine" });
    for (const ref of [w.id, "mine"]) {
      const r = await t.json(await t.request("GET", `/api/v1/wallets/${ref}/balances`, { key: b.apiKey }));
      expect(r.status).toBe(404);
      expect(r.body.error).toBe("not_found");
      const p = await t.propose(b.apiKey, ref, { kind: "transfer", transfer: { asset: "ETH", amount: "0.1", to: w.address } });
      expect(p.status).toBe(404);
      expect(p.body.error).toBe("not_found");
    }
    expect((await t.request("GET", "/api/v1/wallets")).status).toBe(401);
  });
});

describe("escrow not configured", () => {
  it("answers 503 escrow_unconfigured on create when no chain is configured", async () => {
    const plain = await startTestRuntime();
    try {
      const a = await plain.createAccount(0);
      const r = await plain.request("POST", "/api/v1/wallets", { key: a.apiKey, body: { name: "x", chain: "base", mode: "safe" } });
      expect(r.status).toBe(503);
      expect(await r.json()).toMatchObject({ error: "escrow_unconfigured" });
      const list = await plain.request("GET", "/api/v1/wallets", { key: a.apiKey });
      expect(await list.json()).toEqual({ wallets: [] });
    } finally {
      await plain.close();
    }
  });
});
