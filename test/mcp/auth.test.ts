import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { discoverOAuthProtectedResourceMetadata, extractResourceMetadataUrl, extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import { defineTool } from "../../src/mcp/types";
import { ok } from "../../src/mcp/results";
import { jsonBlockOf, startMcpRuntime, textOf, type McpTestRuntime } from "./helpers";

let t: McpTestRuntime;
beforeAll(async () => {
  t = await startMcpRuntime();
  // Test-only tools through the registration seam: a wallet-scope escrow tool that also echoes the
  // request's raw _meta and answers with _meta (what topup_credits needs), and an mcp-scope escrow
  // tool like strk20_relay_status.
  t.runtime.mcpTools.register(
    defineTool({
      name: "test_wallet_echo",
      description: "Test-only wallet tool: echoes its input and the request _meta.",
      inputSchema: z.object({ wallet: z.string().describe("Wallet id or name.") }),
      annotations: { readOnlyHint: true },
      scope: "wallet",
      requiresEscrow: true,
      async handler({ wallet }, ctx) {
        const result = ok(`wallet ${wallet}`, { wallet, account: ctx.principal.accountId, payment: ctx.meta?.["x402/payment"] ?? null });
        return { ...result, _meta: { "x402/payment-response": { success: true } } };
      },
    }),
    defineTool({
      name: "test_relay_status",
      description: "Test-only escrow tool in the mcp scope.",
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true },
      scope: "mcp",
      requiresEscrow: true,
      handler: async () => ok("relay ok", { ok: true }),
    }),
  );
});
afterAll(async () => {
  t.runtime.escrowConfigured = false;
  await t.close();
});

async function oauthToken(accountId: string, scope: "mcp" | "mcp wallet", ttlSeconds?: number) {
  const res = await t.admin("POST", `/admin/v1/accounts/${accountId}/oauth-tokens`, { scope, ...(ttlSeconds ? { ttlSeconds } : {}) });
  expect(res.status).toBe(201);
  return (await res.json()) as { accessToken: string; tokenId: string };
}

const post = (headers: Record<string, string>) =>
  fetch(t.mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });

describe("credentials (SPEC 5)", () => {
  it("accepts an API key in x-api-key or as Authorization: Bearer", async () => {
    const a = await t.createAccount(2);
    const variants: Record<string, string>[] = [{ "x-api-key": a.apiKey }, { authorization: `Bearer ${a.apiKey}` }];
    for (const headers of variants) {
      const client = await t.connect(headers);
      expect(jsonBlockOf(await client.callTool({ name: "check_connection", arguments: {} }))).toMatchObject({ account: a.accountId, authMethod: "api_key" });
    }
  });

  it("accepts an OAuth access token and reports authMethod oauth", async () => {
    const a = await t.createAccount(4);
    const { accessToken } = await oauthToken(a.accountId, "mcp");
    const client = await t.connect({ authorization: `Bearer ${accessToken}` });
    const r = await client.callTool({ name: "check_connection", arguments: {} });
    expect(jsonBlockOf(r)).toEqual({ ok: true, account: a.accountId, creditsRemaining: 4, escrowTools: false, authMethod: "oauth" });
    const v = await client.callTool({ name: "verify_intent", arguments: { intent: "Never transfer funds.", action: "Send 5 ETH to 0xabc" } });
    expect(jsonBlockOf(v).creditsRemaining).toBe(3);
  });

  it("401 with a WWW-Authenticate pointer the SDK's discovery helpers follow", async () => {
    const res = await post({});
    expect(res.status).toBe(401);
    const metadataUrl = extractResourceMetadataUrl(res);
    expect(metadataUrl?.href).toBe(`${t.url}/.well-known/oauth-protected-resource`);
    expect(extractWWWAuthenticateParams(res).error).toBeUndefined();

    const expected = { resource: t.mcpUrl, authorization_servers: [t.url], scopes_supported: ["mcp", "wallet"], bearer_methods_supported: ["header"] };
    // Following the header, and the path-suffixed well-known URL the SDK tries first without it.
    expect(await discoverOAuthProtectedResourceMetadata(t.mcpUrl, { resourceMetadataUrl: metadataUrl })).toMatchObject(expected);
    expect(await discoverOAuthProtectedResourceMetadata(t.mcpUrl)).toMatchObject(expected);
    const suffixed = await fetch(`${t.url}/.well-known/oauth-protected-resource/api/mcp`);
    expect(suffixed.status).toBe(200);
    expect(await suffixed.json()).toMatchObject(expected);
  });

  it("401 error=invalid_token for an unknown, expired or revoked token, and a revoked API key", async () => {
    const a = await t.createAccount(1);
    const expired = await oauthToken(a.accountId, "mcp", 1);
    const revoked = await oauthToken(a.accountId, "mcp wallet");
    const key = (await (await t.admin("POST", `/admin/v1/accounts/${a.accountId}/keys`)).json()) as { keyId: string; apiKey: string };
    expect((await post({ authorization: `Bearer ${revoked.accessToken}` })).status).toBe(200);
    expect((await post({ "x-api-key": key.apiKey })).status).toBe(200);
    expect((await t.admin("DELETE", `/admin/v1/oauth-tokens/${revoked.tokenId}`)).status).toBe(204);
    expect((await t.admin("DELETE", `/admin/v1/keys/${key.keyId}`)).status).toBe(204);
    await new Promise((r) => setTimeout(r, 1100));

    const refused: Record<string, string>[] = [
      { authorization: "Bearer svc_at_nope" },
      { authorization: `Bearer ${expired.accessToken}` },
      { authorization: `Bearer ${revoked.accessToken}` },
      { "x-api-key": key.apiKey },
    ];
    for (const headers of refused) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(extractWWWAuthenticateParams(res)).toMatchObject({ error: "invalid_token", resourceMetadataUrl: new URL(`${t.url}/.well-known/oauth-protected-resource`) });
      expect((await res.json()).error).toBe("invalid_token");
    }
    // The SDK client refuses to connect rather than half-working.
    await expect(t.connect({ authorization: `Bearer ${expired.accessToken}` })).rejects.toThrow();
  });

  it("GET and DELETE answer 405 (stateless: no stream, no session)", async () => {
    const a = await t.createAccount(0);
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(t.mcpUrl, { method, headers: { "x-api-key": a.apiKey, accept: "application/json, text/event-stream" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    }
  });

  it("malformed bodies get the SDK's own answers, in its order: 406 and 415 before a JSON parse error", async () => {
    const a = await t.createAccount(0);
    const post = (headers: Record<string, string>, body: string) => fetch(t.mcpUrl, { method: "POST", headers: { "x-api-key": a.apiKey, ...headers }, body });
    const both = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const notJson = await post(both, "{not json");
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" }, id: null });
    expect((await post({ ...both, accept: "application/json" }, "{not json")).status).toBe(406);
    expect((await post({ ...both, "content-type": "text/plain" }, "{not json")).status).toBe(415);
    const notRpc = await post(both, "null");
    expect(notRpc.status).toBe(400);
    expect((await notRpc.json()).error.code).toBe(-32700);
    const batch = await post(both, JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", id: 2, method: "ping" }]));
    expect(batch.status).toBe(200);
    expect((await batch.json()).map((r: { id: number }) => r.id).sort()).toEqual([1, 2]);
  });

  it("answers without a session id", async () => {
    const a = await t.createAccount(0);
    const res = await fetch(t.mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-api-key": a.apiKey },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    expect((await res.json()).result.serverInfo.name).toBe("arbiter");
  });
});

describe("escrow tools and the wallet scope (registration seam)", () => {
  it("escrow tools are hidden and uncallable until escrow wallets are configured", async () => {
    t.runtime.escrowConfigured = false;
    const a = await t.createAccount(0);
    const client = await t.connect({ "x-api-key": a.apiKey });
    const names = (await client.listTools()).tools.map((x) => x.name);
    expect(names).not.toContain("test_wallet_echo");
    expect(names).not.toContain("test_relay_status");
    const r = await client.callTool({ name: "test_wallet_echo", arguments: { wallet: "w" } });
    expect(r.isError).toBe(true);
  });

  describe("with escrow configured", () => {
    beforeAll(() => {
      t.runtime.escrowConfigured = true;
    });
    afterAll(() => {
      t.runtime.escrowConfigured = false;
    });

    it("an API key reaches wallet tools; the tool sees the raw _meta and can answer with _meta", async () => {
      const a = await t.createAccount(0);
      const client = await t.connect({ "x-api-key": a.apiKey });
      const names = (await client.listTools()).tools.map((x) => x.name);
      expect(names).toEqual(t.runtime.mcpTools.all().map((x) => x.name));
      expect(names).toEqual(expect.arrayContaining(["verify_intent", "get_verification", "check_connection", "test_wallet_echo", "test_relay_status"]));
      const payment = { x402Version: 2, payload: { signature: "0xabc" } };
      const r = await client.callTool({ name: "test_wallet_echo", arguments: { wallet: "main" }, _meta: { "x402/payment": payment } });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toEqual({ wallet: "main", account: a.accountId, payment });
      expect(r._meta).toEqual({ "x402/payment-response": { success: true } });
      expect(jsonBlockOf(await client.callTool({ name: "check_connection", arguments: {} })).escrowTools).toBe(true);
    });

    it("an mcp-scope OAuth token is refused wallet tools with a reconnect message, but reaches mcp-scope escrow tools", async () => {
      const a = await t.createAccount(0);
      const { accessToken } = await oauthToken(a.accountId, "mcp");
      const client = await t.connect({ authorization: `Bearer ${accessToken}` });
      const r = await client.callTool({ name: "test_wallet_echo", arguments: { wallet: "main" } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/reconnect/i);
      expect(textOf(r)).toMatch(/approve wallet access/);
      expect(r.structuredContent).toMatchObject({ error: "insufficient_scope", requiredScope: "wallet" });
      expect((await client.callTool({ name: "test_relay_status", arguments: {} })).isError).toBeFalsy();
      expect(jsonBlockOf(await client.callTool({ name: "check_connection", arguments: {} }))).toMatchObject({ escrowTools: false, authMethod: "oauth" });
    });

    it("an OAuth token with the wallet scope reaches wallet tools", async () => {
      const a = await t.createAccount(0);
      const { accessToken } = await oauthToken(a.accountId, "mcp wallet");
      const client = await t.connect({ authorization: `Bearer ${accessToken}` });
      const r = await client.callTool({ name: "test_wallet_echo", arguments: { wallet: "main" } });
      expect(r.isError).toBeFalsy();
      expect(jsonBlockOf(await client.callTool({ name: "check_connection", arguments: {} }))).toMatchObject({ escrowTools: true, authMethod: "oauth" });
    });
  });

  it("refuses a duplicate tool name at registration", () => {
    expect(() => t.runtime.mcpTools.register(t.runtime.mcpTools.all()[0])).toThrow(/already registered/);
  });
});
