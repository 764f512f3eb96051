/**
 * EIP-55 (issue 18, attack 8): a mixed-case address whose checksum is wrong (one character typed off) is
 * refused with 400 naming the field wherever an address enters: proposals, limits, owner withdrawals,
 * heartbeats (x402 payTo: test/x402-pay/pay.test.ts). All-lowercase stays accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkEvmAddress } from "../../src/chains/evm/address";
import { freshAddress, startEscrowRuntime, USDC, type EscrowRuntime } from "./helpers";

let t: EscrowRuntime;
beforeAll(async () => {
  t = await startEscrowRuntime();
});
afterAll(async () => {
  await t?.close();
});

/** The checksummed address with the case of one letter flipped: same bytes, broken checksum. */
export function mistyped(address: string): string {
  for (;;) {
    const a = address.slice(2);
    const letters = [...a].map((ch, i) => (/[a-fA-F]/.test(ch) ? i : -1)).filter((i) => i >= 0);
    for (const i of letters) {
      const flipped = `0x${a.slice(0, i)}${a[i] === a[i].toLowerCase() ? a[i].toUpperCase() : a[i].toLowerCase()}${a.slice(i + 1)}`;
      if (!checkEvmAddress(flipped).ok) return flipped;
    }
    address = freshAddress();
  }
}

describe("EIP-55 checksums", () => {
  it("the parser: checksummed, all-lowercase and all-uppercase pass; one flipped letter fails", () => {
    const good = freshAddress();
    expect(checkEvmAddress(good)).toEqual({ ok: true, address: good });
    expect(checkEvmAddress(good.toLowerCase())).toEqual({ ok: true, address: good });
    expect(checkEvmAddress(`0x${good.slice(2).toUpperCase()}`)).toEqual({ ok: true, address: good });
    expect(checkEvmAddress(mistyped(good))).toMatchObject({ ok: false, reason: "checksum" });
    expect(checkEvmAddress("0x1234")).toMatchObject({ ok: false, reason: "shape" });
  });

  it("a proposal to a mistyped address is 400 invalid_input naming the field; nothing is judged or sent", async () => {
    const a = await t.createAccount(5);
    const w = await t.createWallet(a.apiKey, { name: "eip55-propose" });
    await t.fund(w.address, "USDC", "10");
    await t.fund(w.address, "ETH", "0.01");
    const bob = freshAddress();
    const bad = mistyped(bob);
    const r = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: bad } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: "invalid_input" });
    expect(r.body.message).toMatch(/^input\.transfer\.to: .*EIP-55 checksum/);
    const call = await t.propose(a.apiKey, w.id, { kind: "evm_transaction", transaction: { to: bad, value: "1" } });
    expect(call.status).toBe(400);
    expect(call.body.message).toMatch(/^input\.transaction\.to: .*checksum/);
    const batch = await t.propose(a.apiKey, w.id, { kind: "evm_calls", calls: [{ to: bob }, { to: bad }] });
    expect(batch.status).toBe(400);
    expect(batch.body.message).toMatch(/^input\.calls\.1\.to: .*checksum/);
    const asset = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: mistyped(USDC), amount: "1", to: bob } });
    expect(asset.status).toBe(400);
    expect(asset.body.message).toMatch(/^input\.transfer\.asset: .*checksum/);
    expect(await t.credits(a.apiKey)).toBe(5);
    expect(await t.usdcOf(bob)).toBe(0n);

    // All lowercase carries no checksum: accepted, and the money reaches the right address.
    const ok = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: bob.toLowerCase() } });
    expect(ok.body.status).toBe("executed");
    expect(await t.usdcOf(bob)).toBe(1_000_000n);
  });

  it("limits with a mistyped recipient or token are refused at creation, naming the field", async () => {
    const a = await t.createAccount(0);
    const bad = mistyped(freshAddress());
    const r = await t.json(await t.request("POST", "/api/v1/wallets", { key: a.apiKey, body: { name: "eip55-limits", chain: "base", mode: "safe", limits: { recipientAllowlist: [bad] } } }));
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/limits\.recipientAllowlist\.0: .*checksum/);
    const tok = await t.json(await t.request("POST", "/api/v1/wallets", { key: a.apiKey, body: { name: "eip55-limits", chain: "base", mode: "safe", limits: { tokenAllowlist: [mistyped(USDC)] } } }));
    expect(tok.status).toBe(400);
    expect(tok.body.message).toMatch(/limits\.tokenAllowlist\.0: .*checksum/);
    const lower = await t.json(await t.request("POST", "/api/v1/wallets", { key: a.apiKey, body: { name: "eip55-limits", chain: "base", mode: "safe", limits: { recipientAllowlist: [bad.toLowerCase()] } } }));
    expect(lower.status).toBe(201);
  });

  it("an owner withdrawal to a mistyped address is 400 invalid_input naming `to`", async () => {
    const a = await t.createAccount(0);
    const w = await t.createWallet(a.apiKey, { name: "eip55-withdraw" });
    await t.fund(w.address, "USDC", "5");
    await t.fund(w.address, "ETH", "0.01");
    const bob = freshAddress();
    const r = await t.json(await t.admin("POST", `/admin/v1/wallets/${w.id}/withdraw`, { asset: "USDC", amount: "1", to: mistyped(bob) }));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: "invalid_input" });
    expect(r.body.message).toMatch(/^to: .*checksum/);
    expect(await t.usdcOf(bob)).toBe(0n);
  });

  it("a heartbeat with a mistyped walletAddress is 400 naming it", async () => {
    const a = await t.createAccount(0);
    const hb = {
      instanceId: crypto.randomUUID(),
      name: "trader",
      version: "1",
      state: "running",
      mode: "sandbox",
      dryRun: true,
      venue: "hyperliquid",
      startedAt: "2026-11-21T11:00:00Z",
      lastTickAt: "2026-11-21T11:59:30Z",
    };
    const addr = freshAddress();
    const bad = await t.json(await t.request("POST", "/api/v1/trader/heartbeat", { key: a.apiKey, body: { ...hb, walletAddress: mistyped(addr) } }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^walletAddress: .*checksum/);
    expect((await t.request("POST", "/api/v1/trader/heartbeat", { key: a.apiKey, body: { ...hb, walletAddress: addr.toLowerCase() } })).status).toBe(200);
  });
});
