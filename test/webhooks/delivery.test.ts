import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { ManualClock } from "../../src/lib/clock";
import { ALL_SCOPES, type Principal } from "../../src/accounts/principal";
import { freshAddress, startEscrowRuntime, type EscrowRuntime } from "../wallets/helpers";
import { startReceiver, type Receiver } from "./receiver";
import { until } from "../helpers/process";

const ALL_EVENTS = ["proposal.awaiting_user", "proposal.executed", "proposal.failed", "proposal.expired", "proposal.rejected", "credits.low", "trader.stale"];
const owner = (accountId: string): Principal => ({ accountId, authMethod: "session", scopes: ALL_SCOPES, credentialId: null });

let t: EscrowRuntime;
let rx: Receiver;
const clock = new ManualClock(new Date());

beforeAll(async () => {
  t = await startEscrowRuntime({
    clock,
    env: { ALLOW_LOOPBACK_FETCH: "true", WEBHOOK_POLL_MS: "50", WEBHOOK_RETRY_BASE_MS: "100", WEBHOOK_DISABLE_AFTER_FAILURES: "4", TRADER_STALE_MS: "1000" },
  });
  rx = await startReceiver();
});
afterAll(async () => {
  await rx?.close();
  await t?.close();
});

async function subscribe(accountId: string, url: string, events = ALL_EVENTS) {
  const { endpoint, secret } = await t.runtime.services.webhooks.create(owner(accountId), { url, events });
  return { endpoint, secret };
}

async function fundedWallet(key: string, body: Record<string, unknown>) {
  const w = await t.createWallet(key, body);
  await t.fund(w.address, "ETH", "0.01");
  await t.fund(w.address, "USDC", "100");
  return w;
}

describe("webhook delivery", () => {
  it("sends each proposal event once, signed, with links, and never another account's", async () => {
    const a = await t.createAccount(10);
    const b = await t.createAccount(10);
    const { secret } = await subscribe(a.accountId, rx.url);
    rx.setSecret(secret);
    const other = await startReceiver();
    const sub = await subscribe(b.accountId, other.url);
    other.setSecret(sub.secret);
    try {
      const safe = await fundedWallet(a.apiKey, { name: "held", mode: "safe" });
      const held = await t.propose(a.apiKey, safe.id, { kind: "transfer", transfer: { asset: "USDC", amount: "5", to: freshAddress() } });
      expect(held.body.status).toBe("awaiting_user");
      const auto = await fundedWallet(a.apiKey, { name: "auto" });
      const done = await t.propose(a.apiKey, auto.id, { kind: "transfer", transfer: { asset: "USDC", amount: "3", to: freshAddress() } });
      expect(done.body.status).toBe("executed");
      const rej = await t.admin("POST", `/admin/v1/proposals/${held.body.txId}/reject`);
      expect(rej.status).toBe(200);
      const bWallet = await fundedWallet(b.apiKey, { name: "b-held", mode: "safe" });
      const bHeld = await t.propose(b.apiKey, bWallet.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: freshAddress() } });

      const got = await rx.waitFor((x) => x.length >= 3);
      const otherGot = await other.waitFor((x) => x.length >= 1);
      await new Promise((ok) => setTimeout(ok, 300)); // nothing more arrives
      expect(rx.all.every((r) => r.verified)).toBe(true);
      expect(got.map((r) => [r.type, r.data.proposalId])).toEqual(
        expect.arrayContaining([
          ["proposal.awaiting_user", held.body.txId],
          ["proposal.executed", done.body.txId],
          ["proposal.rejected", held.body.txId],
        ]),
      );
      expect(rx.accepted()).toHaveLength(3);
      const waiting = got.find((r) => r.type === "proposal.awaiting_user")!;
      expect(waiting.data.approvalUrl).toBe(held.body.approvalUrl);
      expect(new Date(waiting.data.approvalExpiresAt).getTime()).toBeGreaterThan(clock.now().getTime());
      expect(got.find((r) => r.type === "proposal.executed")!.data.txHash).toBe(done.body.txHash);
      // Account B's event went to B's endpoint only.
      expect(otherGot.map((r) => r.data.proposalId)).toEqual([bHeld.body.txId]);
      expect(rx.all.some((r) => r.data.proposalId === bHeld.body.txId)).toBe(false);
      expect(other.all.every((r) => r.verified)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("reports an expired proposal once the window passes", async () => {
    const a = await t.createAccount(5);
    const r2 = await startReceiver();
    const { secret } = await subscribe(a.accountId, r2.url, ["proposal.expired"]);
    r2.setSecret(secret);
    try {
      const w = await fundedWallet(a.apiKey, { name: "slow", mode: "safe" });
      const held = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "2", to: freshAddress() } });
      clock.advance(61 * 60_000);
      await t.runtime.services.proposals.expireHeld();
      const got = await r2.waitFor((x) => x.length >= 1);
      expect(got.map((r) => [r.type, r.data.proposalId, r.verified])).toEqual([["proposal.expired", held.body.txId, true]]);
    } finally {
      await r2.close();
    }
  });

  it("fires credits.low once when the balance crosses the owner's threshold", async () => {
    const a = await t.createAccount(5);
    const r3 = await startReceiver();
    await subscribe(a.accountId, r3.url, ["credits.low"]);
    await t.runtime.services.webhooks.setCreditsLowThreshold(owner(a.accountId), 3);
    try {
      const verify = () => t.request("POST", "/api/v1/intent", { key: a.apiKey, body: { intent: "Only buy BTC.", action: "buy 1 BTC" } });
      for (let i = 0; i < 4; i++) expect((await verify()).status).toBe(201); // 5 -> 1: crosses 3 once
      const got = await r3.waitFor((x) => x.length >= 1);
      await new Promise((ok) => setTimeout(ok, 300));
      expect(r3.accepted()).toHaveLength(1);
      expect(got[0].data).toMatchObject({ creditsRemaining: 3, threshold: 3 });
    } finally {
      await r3.close();
    }
  });

  it("reports a stale trader once per silence", async () => {
    const a = await t.createAccount(5);
    const r4 = await startReceiver();
    await subscribe(a.accountId, r4.url, ["trader.stale"]);
    const beat = () =>
      t.request("POST", "/api/v1/trader/heartbeat", {
        key: a.apiKey,
        body: {
          instanceId: "7b0f2c1e-8d5a-4c3b-9e2f-1a2b3c4d5e6f",
          name: "grid-bot",
          version: "1.0.0",
          state: "running",
          mode: "sandbox",
          dryRun: true,
          venue: "hyperliquid",
          walletAddress: "0x2c12261467291113c8de6962bdb297fbea37edc0",
          startedAt: new Date().toISOString(),
          lastTickAt: new Date().toISOString(),
          openPositions: 1,
          totalExposureUsd: 1200,
          dailyRealizedPnlUsd: 14.5,
          creditsRemaining: 5,
        },
      });
    try {
      expect((await beat()).status).toBeLessThan(300);
      await new Promise((ok) => setTimeout(ok, 300));
      expect(r4.all).toHaveLength(0); // fresh: nothing to report
      clock.advance(1_500); // the service clock: a second and a half of silence
      const first = await r4.waitFor((x) => x.length >= 1);
      expect(first[0].data).toMatchObject({ name: "grid-bot", instanceId: "7b0f2c1e-8d5a-4c3b-9e2f-1a2b3c4d5e6f" });
      await new Promise((ok) => setTimeout(ok, 1500));
      expect(r4.accepted()).toHaveLength(1); // one silence, one event
      expect((await beat()).status).toBeLessThan(300);
      clock.advance(1_500);
      await r4.waitFor((x) => x.length >= 2);
    } finally {
      await r4.close();
    }
  });

  it("retries through the receiver's downtime, then disables an endpoint that keeps failing", async () => {
    const a = await t.createAccount(20);
    const r5 = await startReceiver();
    const { endpoint } = await subscribe(a.accountId, r5.url, ["proposal.awaiting_user"]);
    const w = await fundedWallet(a.apiKey, { name: "down", mode: "safe" });
    let failures = 2;
    r5.respondWith(() => (failures-- > 0 ? 503 : 204));
    try {
      const held = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: freshAddress() } });
      const got = await r5.waitFor((x) => x.length >= 1);
      expect(got[0].data.proposalId).toBe(held.body.txId);
      expect(r5.all.map((r) => r.status)).toEqual([503, 503, 204]);
      expect(new Set(r5.all.map((r) => r.id)).size).toBe(1); // the same webhook-id on every attempt
      // The receiver has answered 204; the worker records that answer just after, so wait for the record.
      const delivered = await until("the delivery recorded as delivered", async () => {
        const [d] = await t.runtime.services.webhooks.deliveries(owner(a.accountId), endpoint.id);
        return d?.status === "pending" ? null : d;
      }, 5_000);
      expect(delivered).toMatchObject({ status: "delivered", attempts: 3, lastStatus: 204 });

      // Down for good: after 4 failures in a row the endpoint is disabled and the owner is told why.
      r5.respondWith(() => 500);
      await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: freshAddress() } });
      for (let i = 0; i < 100 && (await t.runtime.services.webhooks.get(owner(a.accountId), endpoint.id)).state !== "disabled"; i++) await new Promise((ok) => setTimeout(ok, 100));
      const ep = await t.runtime.services.webhooks.get(owner(a.accountId), endpoint.id);
      expect(ep.state).toBe("disabled");
      expect(ep.disabledReason).toMatch(/4 deliveries failed in a row/);
      const before = r5.all.length;
      await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: freshAddress() } });
      await new Promise((ok) => setTimeout(ok, 400));
      expect(r5.all.length).toBe(before); // nothing is sent to a disabled endpoint

      // The owner turns it back on and resends the one that gave up: it arrives with its original id.
      r5.respondWith(() => 200);
      await t.runtime.services.webhooks.enable(owner(a.accountId), endpoint.id);
      const failed = (await t.runtime.services.webhooks.deliveries(owner(a.accountId), endpoint.id)).find((d) => d.status === "pending" || d.status === "failed")!;
      await t.runtime.services.webhooks.resend(owner(a.accountId), failed.id);
      const after = await r5.waitFor((x) => x.some((r) => r.id === failed.eventId));
      expect(after.filter((r) => r.id === failed.eventId)).toHaveLength(1);
    } finally {
      await r5.close();
    }
  });

  it("signs with both secrets for a day after a rotation; the new secret is shown once", async () => {
    const a = await t.createAccount(5);
    const r6 = await startReceiver();
    const { endpoint, secret: oldSecret } = await subscribe(a.accountId, r6.url, ["proposal.awaiting_user"]);
    const { secret: newSecret } = await t.runtime.services.webhooks.rotateSecret(owner(a.accountId), endpoint.id);
    expect(newSecret).not.toBe(oldSecret);
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    r6.setSecret(newSecret);
    try {
      const w = await fundedWallet(a.apiKey, { name: "rot", mode: "safe" });
      await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: freshAddress() } });
      const [got] = await r6.waitFor((x) => x.length >= 1);
      expect(got.verified).toBe(true);
      expect(got.headers["webhook-signature"].split(" ")).toHaveLength(2);
      // A receiver still on the old secret verifies the same request too; a wrong secret does not.
      expect(() => new Webhook(oldSecret).verify(got.raw, got.headers)).not.toThrow();
      expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).verify(got.raw, got.headers)).toThrow();
      expect(JSON.parse(got.raw)).toMatchObject({ type: "proposal.awaiting_user", timestamp: expect.stringMatching(/^\d{4}-/) });
    } finally {
      await r6.close();
    }
  });

  it("refuses endpoint URLs that are not http(s), carry credentials or point at a private address", async () => {
    const a = await t.createAccount(1);
    const p = owner(a.accountId);
    await expect(t.runtime.services.webhooks.create(p, { url: "ftp://example.com/x", events: ["credits.low"] })).rejects.toMatchObject({ kind: "invalid_input" });
    await expect(t.runtime.services.webhooks.create(p, { url: "http://user:pw@example.com/x", events: ["credits.low"] })).rejects.toMatchObject({ kind: "invalid_input" });
    await expect(t.runtime.services.webhooks.create(p, { url: "http://10.0.0.7/x", events: ["credits.low"] })).rejects.toMatchObject({ kind: "invalid_input" });
    await expect(t.runtime.services.webhooks.create(p, { url: "https://example.com/x", events: [] })).rejects.toMatchObject({ kind: "invalid_input" });
    await expect(t.runtime.services.webhooks.create(p, { url: "https://example.com/x", events: ["proposal.unknown"] })).rejects.toMatchObject({ kind: "invalid_input" });
    // Another account's endpoint is not found, never shown.
    const b = await t.createAccount(1);
    const { endpoint } = await subscribe(b.accountId, rx.url, ["credits.low"]);
    await expect(t.runtime.services.webhooks.get(p, endpoint.id)).rejects.toMatchObject({ kind: "not_found" });
    await expect(t.runtime.services.webhooks.rotateSecret(p, endpoint.id)).rejects.toMatchObject({ kind: "not_found" });
  });
});
