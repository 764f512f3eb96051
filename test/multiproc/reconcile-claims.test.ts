/**
 * Two reconcilers at once on one database settle each x402 payment and each self-custodial (embedded)
 * proposal (and, beside them, proposals the service sent itself) exactly once: one status change per row (one webhook event each, recorded by the status
 * trigger), and the two reports together count each row once.
 *
 * On PostgreSQL (DATABASE_URL) the two sweeps run on separate pool connections, as two processes would: each
 * row is claimed with its advisory lock (src/db/claim.ts keyClaimer), and the sweep that does not get it
 * skips the row. On PGlite the database is one process's alone, so nothing is claimed and the two sweeps
 * interleave on its one session: only the guarded status change stands between them, and a sweep may count
 * only a change it made (the settle step once counted a row another sweep had already moved).
 *
 * Real anvil, a real x402 resource server settling through the sandbox facilitator, the MCP tool over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { sql } from "kysely";
import { ALL_SCOPES } from "../../src/accounts/principal";
import { freshAddress, startEscrowRuntime, type EscrowRuntime } from "../wallets/helpers";
import { startResourceServer, type ResourceServer } from "../x402-pay/resource";
import { toolData } from "../helpers/tool-result";

let t: EscrowRuntime;
let rs: ResourceServer;
let client: Client | null = null;
beforeAll(async () => {
  t = await startEscrowRuntime({ listen: true, env: { ALLOW_LOOPBACK_FETCH: "true" } });
  rs = await startResourceServer(t.sandbox.createFacilitator());
});
afterAll(async () => {
  await client?.close().catch(() => {});
  await rs?.close();
  await t?.close();
});

const HOUR_AGO = () => new Date(Date.now() - 3_600_000);

describe("two reconcilers on one database", () => {
  it("settle each x402 payment and each self-custodial proposal once: one status change, counted once", async () => {
    const a = await t.createAccount(50);
    client = new Client({ name: "reconcile-claims-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/api/mcp`), { requestInit: { headers: { "x-api-key": a.apiKey } } }));
    const pay = async (wallet: string, name: string, over: { refuse?: boolean } = {}) => {
      rs.routes.set(name, { price: 10_000n, payTo: freshAddress(), content: `content of ${name}`, ...over });
      const r = (await client!.callTool({ name: "escrow_pay_x402", arguments: { wallet, url: `${rs.url}/paid/${name}` } })) as CallToolResult;
      return toolData(r) as { txId: string; status: string };
    };

    // x402: four payments settled on chain, two refused by the resource (their authorization never used).
    const payer = await t.createWallet(a.apiKey, { name: "x402-payer" });
    await t.fund(payer.address, "USDC", "10");
    const paid: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await pay(payer.id, `used-${i}`);
      expect(r.status).toBe("executed");
      paid.push(r.txId);
    }
    const unused: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await pay(payer.id, `unused-${i}`, { refuse: true });
      expect(r.status).toBe("executing");
      unused.push(r.txId);
    }

    // Self-custodial: the owner's wallet sent these; three landed, and one's nonce was taken by another
    // transaction (its own hash never mined). The service holds no signed bytes for them.
    const owner = await t.createWallet(a.apiKey, { name: "self-custody" });
    await t.fund(owner.address, "ETH", "1");
    await t.fund(owner.address, "USDC", "100");
    const sent: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await t.propose(a.apiKey, owner.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: freshAddress() } });
      expect(r.body.status).toBe("executed");
      sent.push(r.body.txId as string);
    }

    // And, beside them, two the service signed and sent itself (the sweep's main path, by stored bytes).
    const custodied = await t.createWallet(a.apiKey, { name: "server-custody" });
    await t.fund(custodied.address, "ETH", "1");
    await t.fund(custodied.address, "USDC", "100");
    const signed: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await t.propose(a.apiKey, custodied.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: freshAddress() } });
      expect(r.body.status).toBe("executed");
      signed.push(r.body.txId as string);
    }

    // What a crash leaves: each still `executing`, older than any live sender's lease.
    const db = t.runtime.database.db;
    await db.updateTable("wallets").set({ custody: "embedded" }).where("id", "=", owner.id).execute();
    await db.updateTable("proposals").set({ status: "executing", updated_at: HOUR_AGO(), tx_hash: null, error: null }).where("id", "in", paid).execute();
    await sql`update x402_payments set completed_at = null where proposal_id in (${sql.join(paid)})`.execute(db);
    await db.updateTable("proposals").set({ updated_at: HOUR_AGO() }).where("id", "in", unused).execute();
    await sql`update x402_payments set valid_before = now() - interval '5 minutes' where proposal_id in (${sql.join(unused)})`.execute(db);
    await db.updateTable("proposals").set({ status: "executing", updated_at: HOUR_AGO() }).where("id", "in", sent.slice(0, 3)).execute();
    await db.updateTable("proposals").set({ status: "executing", updated_at: HOUR_AGO(), tx_hash: `0x${"ab".repeat(32)}` }).where("id", "=", sent[3]).execute();
    await db.updateTable("proposals").set({ status: "executing", updated_at: HOUR_AGO() }).where("id", "in", signed).execute();

    // Every status change from here on records one event (the proposals trigger, in the change's transaction).
    const principal = { accountId: a.accountId, authMethod: "session" as const, scopes: ALL_SCOPES, credentialId: null };
    await t.runtime.services.webhooks.create(principal, { url: "http://127.0.0.1:9/hook", events: ["proposal.executed", "proposal.failed"] });

    const proposals = t.runtime.services.proposals;
    const reports = await Promise.all([proposals.reconcile(), proposals.reconcile()]);
    expect(reports[0].executed + reports[1].executed).toBe(4 + 3 + 2);
    expect(reports[0].failed + reports[1].failed).toBe(2 + 1);
    expect(reports[0].rebroadcast + reports[1].rebroadcast).toBe(0);

    const all = [...paid, ...unused, ...sent, ...signed];
    const rows = await db.selectFrom("proposals").select(["id", "status", "tx_hash", "error"]).where("id", "in", all).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of paid) expect(byId.get(id)).toMatchObject({ status: "executed", tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), error: "settled on chain after the resource answered" });
    for (const id of unused) expect(byId.get(id)).toMatchObject({ status: "failed", error: "the signed authorization expired unused: nothing moved" });
    for (const id of [...sent.slice(0, 3), ...signed]) expect(byId.get(id)?.status).toBe("executed");
    expect(byId.get(sent[3])).toMatchObject({ status: "failed", error: expect.stringMatching(/^dropped or replaced/) });
    const completed = await sql<{ n: number }>`select count(*)::int as n from x402_payments where proposal_id in (${sql.join([...paid, ...unused])}) and completed_at is not null`.execute(db);
    expect(completed.rows[0].n).toBe(6);

    // One event per row: no status was changed twice.
    const events = await db.selectFrom("webhook_events").select(["type", sql<string>`payload->>'proposalId'`.as("proposal")]).where("account_id", "=", a.accountId).execute();
    const count = new Map<string, number>();
    for (const e of events) count.set(e.proposal, (count.get(e.proposal) ?? 0) + 1);
    expect(Object.fromEntries([...count].sort())).toEqual(Object.fromEntries(all.map((id) => [id, 1] as const).sort()));
    expect(events.filter((e) => e.type === "proposal.executed").length).toBe(9);

    // A later sweep finds nothing left to do.
    const again = await proposals.reconcile();
    expect(again.executed + again.failed + again.rebroadcast).toBe(0);
    expect(await t.ledgerMismatches()).toEqual([]);
  }, 120_000);
});
