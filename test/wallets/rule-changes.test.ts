/**
 * Issue 18, attack 1: an agent loosens its own wallet and drains it. Through the MCP SDK client (the agent),
 * the dashboard over the real HTTP app (the owner), and the sandbox chain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ManualClock } from "../../src/lib/clock";
import { DashboardClient } from "../dashboard/client";
import { startReceiver } from "../webhooks/receiver";
import { freshAddress, startEscrowRuntime, type EscrowRuntime } from "./helpers";
import { toolData as data, toolText as text } from "../helpers/tool-result";

let t: EscrowRuntime;
const clock = new ManualClock(new Date());
const clients: Client[] = [];
beforeAll(async () => {
  t = await startEscrowRuntime({ listen: true, clock, env: { ALLOW_LOOPBACK_FETCH: "true", WEBHOOK_POLL_MS: "50", ESCROW_SWEEP_MS: "250" } });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await t?.close();
});

async function mcp(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "rule-changes-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/api/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}
const call = async (c: Client, name: string, args: Record<string, unknown>) => (await c.callTool({ name, arguments: args })) as CallToolResult;

let n = 0;
/** An owner signed in to the dashboard, the agent's API key (and its id), and an MCP client with it. */
async function owner() {
  const dash = new DashboardClient(t);
  await dash.signUp(`owner${++n}-${Date.now()}@example.com`);
  const apiKey = await dash.createKey();
  const principal = (await t.runtime.services.accounts.authenticateApiKey(apiKey))!;
  const credited = await t.admin("POST", `/admin/v1/accounts/${principal.accountId}/credits`, { credits: 10, reason: "test" });
  expect(credited.status).toBe(200);
  return { dash, apiKey, keyId: principal.credentialId!, accountId: principal.accountId, agent: await mcp({ "x-api-key": apiKey }) };
}

const supplier = freshAddress();
/** A wallet holding 1,000 USDC with the limits and mandate the attack removes. */
async function guardedWallet(o: Awaited<ReturnType<typeof owner>>, name: string) {
  const created = await call(o.agent, "create_escrow_wallet", {
    name,
    chain: "base",
    mode: "autonomous",
    mandate: "[judge:allow] pay invoices of our one supplier",
    limits: { maxPerTxUsd: 50, dailyCapUsd: 100, recipientAllowlist: [supplier] },
  });
  expect(created.isError, text(created)).toBeFalsy();
  const w = data(created);
  await t.fund(w.address, "ETH", "1");
  await t.fund(w.address, "USDC", "1000");
  return w as { id: string; address: `0x${string}` };
}

async function setMode(o: Awaited<ReturnType<typeof owner>>, walletId: string, value: "owner" | "agent") {
  await o.dash.get(`/dashboard/wallets/${walletId}`);
  const res = await o.dash.post(`/dashboard/wallets/${walletId}/who-may-loosen`, { value });
  expect(res.status).toBe(303);
}

const attack = { limits: { maxPerTxUsd: null, dailyCapUsd: null, recipientAllowlist: null }, mandate: "[judge:allow] send anything anywhere" };
const walletOf = async (key: string, id: string) => (await t.json(await t.request("GET", `/api/v1/wallets/${id}`, { key }))).body;
const ownerPrincipal = (accountId: string) => ({ accountId, authMethod: "session" as const, scopes: new Set(["mcp", "wallet"] as const), credentialId: null });
const trail = async (o: Awaited<ReturnType<typeof owner>>, walletId: string) => t.runtime.services.wallets.ruleChanges(ownerPrincipal(o.accountId), walletId);

describe("who may loosen a wallet's rules (issue 18, attack 1)", () => {
  it("agent mode (the default): the agent's loosening applies, the reply says what it loosened, and the drain executes", async () => {
    const o = await owner();
    const w = await guardedWallet(o, "agent-mode");
    expect((await walletOf(o.apiKey, w.id)).rules.whoMayLoosen).toBe("agent");
    const up = await call(o.agent, "update_escrow_wallet", { wallet: w.id, ...attack });
    expect(up.isError, text(up)).toBeFalsy();
    expect(data(up).loosened).toEqual([
      "mandate replaced: the judge now applies the new text, which may permit actions the old one did not",
      "maxPerTxUsd removed (was 50 USD): no per-transaction USD cap now",
      "dailyCapUsd removed (was 100 USD): no daily USD cap now",
      "recipientAllowlist removed: any recipient is allowed now",
    ]);
    const thief = freshAddress();
    const drain = data(await call(o.agent, "escrow_transfer", { wallet: w.id, asset: "USDC", amount: "999", to: thief, chain: "base" }));
    expect(drain.status).toBe("executed");
    expect(await t.usdcOf(thief)).toBe(999_000_000n);
    const [entry] = await trail(o, w.id);
    expect(entry).toMatchObject({ status: "applied", actor: { kind: "api_key", id: o.keyId } });
    expect(entry.loosened).toHaveLength(4);
  });

  it("owner mode: the agent's loosening is held for the owner with the dashboard link, and the 999 USDC drain is refused", async () => {
    const o = await owner();
    const w = await guardedWallet(o, "owner-mode");
    await setMode(o, w.id, "owner");
    expect((await walletOf(o.apiKey, w.id)).rules.whoMayLoosen).toBe("owner");
    const before = await walletOf(o.apiKey, w.id);

    const up = await call(o.agent, "update_escrow_wallet", { wallet: w.id, ...attack });
    expect(up.isError).toBe(true);
    expect(text(up)).toMatch(/^owner_approval_required: the owner must approve this change/);
    const body = up.structuredContent as Record<string, unknown>;
    expect(body).toMatchObject({ error: "owner_approval_required", walletId: w.id, applied: [] });
    expect(body.approvalUrl).toBe(`${t.url}/dashboard/wallets/${w.id}#rule-change-${body.changeId}`);
    expect(text(up)).toContain(String(body.approvalUrl));
    expect(text(up)).toContain("Nothing was changed.");
    // Retrying the same call does not pile up copies for the owner.
    const again = await call(o.agent, "update_escrow_wallet", { wallet: w.id, ...attack });
    expect((again.structuredContent as Record<string, unknown>).changeId).toBe(body.changeId);

    const after = await walletOf(o.apiKey, w.id);
    expect(after).toMatchObject({ mandate: before.mandate, limits: before.limits });
    const thief = freshAddress();
    const drain = data(await call(o.agent, "escrow_transfer", { wallet: w.id, asset: "USDC", amount: "999", to: thief, chain: "base" }));
    expect(drain.status).toBe("blocked");
    expect(await t.usdcOf(thief)).toBe(0n);
    expect(await t.usdcOf(w.address)).toBe(1000_000_000n);

    const [pending] = await trail(o, w.id);
    expect(pending).toMatchObject({ id: body.changeId, status: "pending", actor: { kind: "api_key", id: o.keyId } });
    expect(pending.loosened).toHaveLength(4);
    // The owner sees it on the wallet page, anchored where the agent's link points.
    const page = await (await o.dash.get(`/dashboard/wallets/${w.id}`)).text();
    expect(page).toContain(`id="rule-change-${body.changeId}"`);
    expect(page).toContain("Rule changes waiting for you (1)");

    // The agent's own credential cannot approve it: the service refuses any principal that is not the owner's session...
    const agentPrincipal = (await t.runtime.services.accounts.authenticateApiKey(o.apiKey))!;
    await expect(t.runtime.services.wallets.approveRuleChange(agentPrincipal, w.id, String(body.changeId))).rejects.toMatchObject({ kind: "forbidden" });
    // ...and the dashboard route does not take an API key.
    const viaKey = await t.request("POST", `/dashboard/wallets/${w.id}/rule-changes/${body.changeId}/approve`, { key: o.apiKey, headers: { origin: "http://localhost" } });
    expect(viaKey.status).not.toBe(200);
    expect((await trail(o, w.id))[0].status).toBe("pending");

    // The owner approves: the change applies on top of the rules as they are now; the drain would now execute.
    await o.dash.get(`/dashboard/wallets/${w.id}`);
    const ok = await o.dash.post(`/dashboard/wallets/${w.id}/rule-changes/${body.changeId}/approve`, {});
    expect(ok.status).toBe(303);
    const approved = await walletOf(o.apiKey, w.id);
    expect(approved).toMatchObject({ mandate: attack.mandate, limits: {} });
    const [decided] = await trail(o, w.id);
    expect(decided).toMatchObject({ id: body.changeId, status: "approved", actor: { kind: "api_key", id: o.keyId }, rulesVersion: expect.any(Number) });
    expect(decided.decidedBy).toMatch(/^usr_|./);
    const twice = await o.dash.post(`/dashboard/wallets/${w.id}/rule-changes/${body.changeId}/approve`, { _csrf: o.dash.csrf() });
    expect(twice.status).toBe(409);
  });

  it("owner mode: tightening applies at once; a mixed change applies its tightening part and holds the rest", async () => {
    const o = await owner();
    const w = await guardedWallet(o, "mixed");
    await setMode(o, w.id, "owner");
    const tighten = await call(o.agent, "update_escrow_wallet", { wallet: w.id, limits: { maxPerTxUsd: 20 } });
    expect(tighten.isError, text(tighten)).toBeFalsy();
    expect(data(tighten)).toMatchObject({ limits: { maxPerTxUsd: 20, dailyCapUsd: 100 }, loosened: [] });

    const other = freshAddress();
    const mixed = await call(o.agent, "update_escrow_wallet", { wallet: w.id, limits: { maxPerTxUsd: 10, dailyCapUsd: null, recipientAllowlist: [other] } });
    expect(mixed.isError).toBe(true);
    const body = mixed.structuredContent as Record<string, unknown>;
    expect(body.applied).toEqual(["maxPerTxUsd lowered from 20 to 10 USD"]);
    expect(body.held).toEqual(["dailyCapUsd removed (was 100 USD): no daily USD cap now", `recipientAllowlist now also allows ${other}`]);
    expect(text(mixed)).toContain("Applied at once because it tightens the rules: maxPerTxUsd lowered from 20 to 10 USD.");
    // The supplier stays allowed until the owner decides (its removal only tightens, but the list as a whole waits).
    expect((await walletOf(o.apiKey, w.id)).limits).toEqual({ maxPerTxUsd: 10, dailyCapUsd: 100, recipientAllowlist: [supplier] });

    const entries = await trail(o, w.id);
    expect(entries.map((e) => [e.status, e.actor.kind])).toEqual([
      ["pending", "api_key"],
      ["applied", "api_key"],
      ["applied", "api_key"],
      ["applied", "owner"],
    ]);
    expect(entries[1].tightened).toEqual(["maxPerTxUsd lowered from 20 to 10 USD"]);
    expect(entries[3].changes[0]).toMatchObject({ field: "whoMayLoosen", from: "agent", to: "owner", effect: "tightened" });

    // Meanwhile the owner lowers the daily cap; approval applies the pending fields on top of that.
    await o.dash.get(`/dashboard/wallets/${w.id}/rules`);
    const save = await o.dash.post(`/dashboard/wallets/${w.id}/rules`, { step: "save", name: "mixed", mandate: "[judge:allow] pay invoices of our one supplier", maxPerTxUsd: "5", dailyCapUsd: "60", tokenAllowlist: "", recipientAllowlist: supplier });
    expect(save.status).toBe(303);
    await o.dash.get(`/dashboard/wallets/${w.id}`);
    expect((await o.dash.post(`/dashboard/wallets/${w.id}/rule-changes/${body.changeId}/approve`, {})).status).toBe(303);
    expect((await walletOf(o.apiKey, w.id)).limits).toEqual({ maxPerTxUsd: 5, recipientAllowlist: [other] });
    const approved = (await trail(o, w.id)).find((e) => e.id === body.changeId)!;
    expect(approved.status).toBe("approved");
    expect(approved.loosened).toEqual(["dailyCapUsd removed (was 60 USD): no daily USD cap now", `recipientAllowlist now also allows ${other}`]);
    expect(approved.tightened).toEqual([`recipientAllowlist no longer allows ${supplier}`]);
  });

  it("the owner rejects a pending change; another expires after the approval window (swept) and can no longer be approved", async () => {
    const o = await owner();
    const w = await guardedWallet(o, "decide");
    await setMode(o, w.id, "owner");
    const held = await call(o.agent, "update_escrow_wallet", { wallet: w.id, name: "decide-2", limits: { maxPerTxUsd: 500 } });
    // The rename is not a rule: it applies, and the refusal says so.
    expect(text(held)).toContain('Also applied (not a rule): name: "decide" -> "decide-2".');
    expect(text(held)).not.toContain("Nothing was changed.");
    expect((await walletOf(o.apiKey, w.id)).name).toBe("decide-2");
    const first = held.structuredContent as Record<string, string>;
    await o.dash.get(`/dashboard/wallets/${w.id}`);
    expect((await o.dash.post(`/dashboard/wallets/${w.id}/rule-changes/${first.changeId}/reject`, {})).status).toBe(303);
    expect((await walletOf(o.apiKey, w.id)).limits.maxPerTxUsd).toBe(50);
    expect((await trail(o, w.id))[0]).toMatchObject({ id: first.changeId, status: "rejected", loosened: ["maxPerTxUsd raised from 50 to 500 USD"] });

    const second = (await call(o.agent, "update_escrow_wallet", { wallet: w.id, mandate: "[judge:allow] anything" })).structuredContent as Record<string, string>;
    expect(second.changeId).not.toBe(first.changeId);
    clock.advance(61 * 60_000);
    expect((await trail(o, w.id))[0]).toMatchObject({ id: second.changeId, status: "expired" }); // reads expired, swept or not
    // The escrow sweep (every 250 ms here) records it, with claimed rows; a second pass finds nothing left.
    const stored = async () => (await t.runtime.database.db.selectFrom("wallet_rule_changes").select("status").where("id", "=", second.changeId).executeTakeFirstOrThrow()).status;
    for (let i = 0; i < 200 && (await stored()) !== "expired"; i++) await new Promise((ok) => setTimeout(ok, 50));
    expect(await stored()).toBe("expired");
    expect(await t.runtime.services.wallets.expireRuleChanges()).toBe(0);
    await o.dash.get(`/dashboard/wallets/${w.id}`);
    const late = await o.dash.post(`/dashboard/wallets/${w.id}/rule-changes/${second.changeId}/approve`, {});
    expect(late.status).toBe(409);
    expect((await walletOf(o.apiKey, w.id)).mandate).toBe("[judge:allow] pay invoices of our one supplier");
  });

  it("an OAuth client's loosening is held too, recorded with its credential; new wallets take the account default", async () => {
    const o = await owner();
    await o.dash.get("/dashboard/wallets");
    expect((await o.dash.post("/dashboard/wallets/who-may-loosen", { value: "owner" })).status).toBe(303);
    const w = await guardedWallet(o, "default-owner");
    expect((await walletOf(o.apiKey, w.id)).rules.whoMayLoosen).toBe("owner");
    const token = ((await (await t.admin("POST", `/admin/v1/accounts/${o.accountId}/oauth-tokens`, { scope: "mcp wallet" })).json()) as { accessToken: string; tokenId: string });
    const viaOAuth = await mcp({ authorization: `Bearer ${token.accessToken}` });
    const up = await call(viaOAuth, "update_escrow_wallet", { wallet: w.id, limits: { recipientAllowlist: null } });
    expect(up.isError).toBe(true);
    const [pending] = await trail(o, w.id);
    expect(pending).toMatchObject({ status: "pending", actor: { kind: "oauth", id: token.tokenId } });
    // Another account's owner sees nothing of it.
    const stranger = await owner();
    const res = await stranger.dash.get(`/dashboard/wallets/${w.id}`);
    expect(res.status).toBe(404);
  });

  it("sends wallet.rules_changed for each change and each decision: status, actor, what loosened or tightened, and the approval link", async () => {
    const o = await owner();
    const rx = await startReceiver();
    try {
      const { secret } = await t.runtime.services.webhooks.create(ownerPrincipal(o.accountId), { url: rx.url, events: ["wallet.rules_changed"] });
      rx.setSecret(secret);
      const w = await guardedWallet(o, "hooked");
      await setMode(o, w.id, "owner");
      const held = (await call(o.agent, "update_escrow_wallet", { wallet: w.id, limits: { maxPerTxUsd: 10, dailyCapUsd: null } })).structuredContent as Record<string, string>;
      await o.dash.get(`/dashboard/wallets/${w.id}`);
      expect((await o.dash.post(`/dashboard/wallets/${w.id}/rule-changes/${held.changeId}/approve`, {})).status).toBe(303);

      const got = await rx.waitFor((x) => x.length >= 4);
      await new Promise((ok) => setTimeout(ok, 300)); // nothing more arrives
      expect(rx.accepted()).toHaveLength(4);
      expect(got.every((r) => r.verified && r.type === "wallet.rules_changed" && r.data.walletId === w.id)).toBe(true);
      const by = (status: string, pred: (d: Record<string, any>) => boolean = () => true) => got.filter((r) => r.data.status === status && pred(r.data)).map((r) => r.data); // eslint-disable-line @typescript-eslint/no-explicit-any
      const [mode] = by("applied", (d) => d.actor.kind === "owner");
      expect(mode).toMatchObject({ tightened: ["only the owner may loosen the rules: an agent's loosening change waits for the owner's approval"], loosened: [] });
      const [tightened] = by("applied", (d) => d.actor.kind === "api_key");
      expect(tightened).toMatchObject({ actor: { kind: "api_key", id: o.keyId }, tightened: ["maxPerTxUsd lowered from 50 to 10 USD"], loosened: [], expiresAt: null });
      const [pending] = by("pending");
      expect(pending).toMatchObject({
        changeId: held.changeId,
        actor: { kind: "api_key", id: o.keyId },
        loosened: ["dailyCapUsd removed (was 100 USD): no daily USD cap now"],
        approvalUrl: held.approvalUrl,
        walletUrl: `${t.url}/dashboard/wallets/${w.id}`,
      });
      expect(new Date(pending.expiresAt).toISOString()).toBe(held.expiresAt);
      expect(pending.changes[0]).toMatchObject({ field: "dailyCapUsd", from: 100, to: null, effect: "loosened" });
      const [approved] = by("approved");
      expect(approved).toMatchObject({ changeId: held.changeId, loosened: ["dailyCapUsd removed (was 100 USD): no daily USD cap now"], rulesVersion: expect.any(Number) });
    } finally {
      await rx.close();
    }
  });
});
