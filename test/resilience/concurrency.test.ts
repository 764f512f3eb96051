/**
 * Everything at once on one service (real sandbox chain, real database: PGlite, or PostgreSQL when
 * DATABASE_URL is set): many accounts and keys verifying past their balance, the same x402 payments
 * replayed concurrently (and one offered to two accounts), and concurrent proposals against capped and
 * uncapped wallets. Afterwards the invariants of DESIGN "Data and invariants" are checked on the data:
 * every ledger sums to its balance, no balance is negative, no authorization is credited twice, no daily
 * cap is exceeded, no transaction is sent twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { getAddress, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { startTopupRuntime, type TopupRuntime } from "../topup/helpers";

let t: TopupRuntime;
beforeAll(async () => {
  t = await startTopupRuntime();
});
afterAll(async () => {
  await t?.close();
});

const VERIFY = { intent: "Trade only BTC and ETH perpetuals on Hyperliquid. Max notional $2,000 per order.", action: "buy 0.01 BTC perpetual on Hyperliquid at market" };
const json = async (r: Response | Promise<Response>) => {
  const res = await r;
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
};

async function newKey(accountId: string): Promise<string> {
  const res = await t.admin("POST", `/admin/v1/accounts/${accountId}/keys`);
  return ((await res.json()) as { apiKey: string }).apiKey;
}

async function wallet(key: string, name: string, to: Address, limits?: Record<string, unknown>) {
  const r = await json(await t.request("POST", "/api/v1/wallets", { key, body: { name, chain: "base", mode: "autonomous", mandate: `Send at most 50 USDC per transfer to ${to}.`, ...(limits ? { limits } : {}) } }));
  if (r.status !== 201) throw new Error(`wallet: ${r.status} ${JSON.stringify(r.body)}`);
  await t.sandbox.faucet.fund({ address: r.body.address, asset: "ETH", amount: "1" });
  await t.sandbox.faucet.fund({ address: r.body.address, asset: "USDC", amount: "1000" });
  return r.body as { id: string; address: Address };
}

describe("verification, top-up replays and proposals at once", () => {
  it("keeps every invariant", { timeout: 180_000 }, async () => {
    // Verifiers: 4 accounts x 2 keys, 20 credits each, 36 attempts each.
    const verifiers = await Promise.all(Array.from({ length: 4 }, () => t.createAccount(20)));
    const verifierKeys = await Promise.all(verifiers.map(async (a) => [a.apiKey, await newKey(a.accountId)]));

    // Payers: 2 accounts, 3 payments each, each payment sent 4 times at once; one more offered to both.
    const buyers = await Promise.all([t.createAccount(0), t.createAccount(0)]);
    const payer = await t.payer("10");
    const signed = [];
    for (const b of buyers) for (let i = 0; i < 3; i++) signed.push({ buyer: b, header: (await t.sign(payer, "?credits=20", { "x-api-key": b.apiKey })).header });
    const contested = (await t.sign(payer, "?credits=20", { "x-api-key": buyers[0].apiKey })).header;

    // Proposers: one account, a wallet capped at $100/day (8 x $30 offered) and an uncapped one (6 x $1).
    const proposer = await t.createAccount(50);
    const bob = getAddress(privateKeyToAccount(generatePrivateKey()).address);
    const capped = await wallet(proposer.apiKey, "capped", bob, { dailyCapUsd: 100 });
    const open = await wallet(proposer.apiKey, "open", bob);

    const verifications = verifierKeys.flatMap((keys) => keys.flatMap((key) => Array.from({ length: 18 }, () => json(t.request("POST", "/api/v1/intent", { key, body: VERIFY })))));
    const topups = [
      ...signed.flatMap((s) => Array.from({ length: 4 }, () => t.post("?credits=20", { "x-api-key": s.buyer.apiKey, "PAYMENT-SIGNATURE": s.header }))),
      ...buyers.map((b) => t.post("?credits=20", { "x-api-key": b.apiKey, "PAYMENT-SIGNATURE": contested })),
    ];
    const transfer = (w: string, amount: string) => json(t.request("POST", `/api/v1/wallets/${w}/propose`, { key: proposer.apiKey, body: { input: { kind: "transfer", chain: "base", transfer: { asset: "USDC", amount, to: bob } } } }));
    const proposals = [...Array.from({ length: 8 }, () => transfer(capped.id, "30")), ...Array.from({ length: 6 }, () => transfer(open.id, "1"))];
    const [v, p, tp] = await Promise.all([Promise.all(verifications), Promise.all(proposals), Promise.all(topups)]);

    // Verifications: exactly the balance was spent, the rest refused with 402, nothing else.
    expect(v.filter((r) => r.status === 201)).toHaveLength(4 * 20);
    expect(v.filter((r) => r.status === 402)).toHaveLength(4 * 36 - 4 * 20);
    for (const a of verifiers) expect(await t.accountBalance(a.accountId)).toBe(0);

    // Top-ups: each authorization credited once; replays say so; the contested one went to one account.
    expect(tp.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(tp.filter((r) => r.status === 409)).toHaveLength(1);
    expect(tp.filter((r) => r.status === 200 && r.body.replayed === false)).toHaveLength(7);
    const credited = (await t.accountBalance(buyers[0].accountId)) + (await t.accountBalance(buyers[1].accountId));
    expect(credited).toBe(7 * 20);
    expect(await t.usdcOf(payer.address)).toBe(3_000_000n); // 10 USDC - 7 x 1 USDC

    // Proposals: three fit under the cap; all small ones executed; every executed one has its own transaction.
    const cappedResults = p.slice(0, 8).map((r) => r.body.status);
    expect(cappedResults.filter((s) => s === "executed")).toHaveLength(3);
    expect(cappedResults.filter((s) => s === "blocked")).toHaveLength(5);
    expect(p.slice(8).map((r) => r.body.status)).toEqual(Array(6).fill("executed"));
    expect(await t.usdcOf(bob)).toBe(96_000_000n);

    // The invariants, on the data.
    const db = t.runtime.database.db;
    expect(await t.ledgerMismatches()).toEqual([]);
    expect((await db.selectFrom("accounts").select("id").where("credits_remaining", "<", 0).execute()).length).toBe(0);
    const twice = await sql<{ n: number }>`select count(*)::int as n from credit_entries where reason = 'topup:x402' group by ref having count(*) > 1`.execute(db);
    expect(twice.rows).toEqual([]);
    const dupAuth = await sql<{ n: number }>`select count(*)::int as n from topup_payments group by lower(payer), nonce having count(*) > 1`.execute(db);
    expect(dupAuth.rows).toEqual([]);
    const executed = await db.selectFrom("proposals").select(["wallet_id", "tx_hash", "reserved_usd", "nonce"]).where("status", "=", "executed").execute();
    expect(new Set(executed.map((e) => e.tx_hash)).size).toBe(executed.length);
    const cappedSpent = executed.filter((e) => e.wallet_id === capped.id).reduce((s, e) => s + Number(e.reserved_usd), 0);
    expect(cappedSpent).toBeLessThanOrEqual(100);
    for (const w of [capped, open]) {
      const mine = executed.filter((e) => e.wallet_id === w.id);
      expect(new Set(mine.map((e) => e.nonce)).size).toBe(mine.length);
      expect(await t.pub.getTransactionCount({ address: w.address })).toBe(mine.length);
    }
  });
});
