/**
 * The MCP SDK's own OAuth client (`auth()`, `StreamableHTTPClientTransport` with an `authProvider`) against
 * the running server on the sandbox chain, with the consent page driven in Chromium: register, authorize with
 * `mcp` only, call verify_intent, be refused a wallet tool with the reconnect message, re-authorize with
 * `wallet` and succeed; refresh (explicit, then transparently after the access token expired); revoke and get
 * 401. Screenshots: docs/screenshots/oauth-consent.png, connected-apps.png.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { auth, UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { hasChromium, launchBrowser, shot } from "../dashboard/browser";
import { callbackServer, ManualClock, startOAuthRuntime, type OAuthRuntime } from "./helpers";

/** An in-memory OAuthClientProvider, as a native MCP host implements one: it opens the browser itself. */
class TestProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  stored?: OAuthTokens;
  verifier = "";
  authUrl?: URL;
  constructor(readonly redirect: string) {}
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: "SDK Test Agent", redirect_uris: [this.redirect], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  }
  state = () => "sdk-state";
  clientInformation = () => this.info;
  saveClientInformation = (i: OAuthClientInformationMixed) => void (this.info = i);
  tokens = () => this.stored;
  saveTokens = (t: OAuthTokens) => void (this.stored = t);
  redirectToAuthorization = (u: URL) => void (this.authUrl = u);
  saveCodeVerifier = (v: string) => void (this.verifier = v);
  codeVerifier = () => this.verifier;
  invalidateCredentials = (scope: string) => {
    if (scope === "all" || scope === "tokens") this.stored = undefined;
    if (scope === "all" || scope === "client") this.info = undefined;
  };
}

/**
 * The server runs in this process and @hono/node-server swaps the global Response for its own class; the SDK
 * reads OAuth error bodies only from `instanceof Response`, so hand it responses of the current global class.
 */
const sdkFetch: FetchLike = async (url, init) => {
  const r = await fetch(url, init);
  const body = [101, 204, 205, 304].includes(r.status) ? null : await r.arrayBuffer();
  return new Response(body, { status: r.status, statusText: r.statusText, headers: r.headers });
};

const EMAIL = "agent-owner@example.com";
const PASSWORD = "a long and unguessable passphrase";
const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

describe.skipIf(!hasChromium)("MCP SDK OAuth client against the server, consent in Chromium", () => {
  let t: OAuthRuntime;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let cb: Awaited<ReturnType<typeof callbackServer>>;
  let provider: TestProvider;
  const clock = new ManualClock();
  const clients: Client[] = [];

  const connect = async () => {
    const client = new Client({ name: "oauth-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(t.mcpUrl), { authProvider: provider, fetch: sdkFetch }));
    clients.push(client);
    return client;
  };

  /** Opens the authorization URL the SDK built, grants `access`, and returns the code the callback received. */
  const consentInBrowser = async (access: RegExp, screenshot?: string) => {
    expect(provider.authUrl).toBeDefined();
    const url = provider.authUrl!;
    provider.authUrl = undefined;
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("resource")).toBe(t.mcpUrl);
    const callback = cb.next();
    await page.goto(url.toString());
    await page.getByRole("heading", { name: "Connect SDK Test Agent to Arbiter?" }).waitFor();
    await page.getByLabel(access).check();
    if (screenshot) await shot(page, screenshot);
    await page.getByRole("button", { name: "Allow" }).click();
    const hit = await callback;
    expect(hit.searchParams.get("state")).toBe("sdk-state");
    expect(hit.searchParams.get("iss")).toBe(t.url);
    await page.waitForURL(/\/callback\?/);
    return hit.searchParams.get("code")!;
  };

  beforeAll(async () => {
    t = await startOAuthRuntime({ listen: true, clock, env: { SANDBOX: "true", SANDBOX_RPC_PORT: "0" } });
    cb = await callbackServer();
    provider = new TestProvider(cb.url);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on("dialog", (d) => void d.accept());
    await page.goto(`${t.url}/dashboard/signup`);
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/dashboard\/keys/);
    const user = await t.runtime.database.db.selectFrom("users").select("account_id").where("email", "=", EMAIL).executeTakeFirstOrThrow();
    await t.admin("POST", `/admin/v1/accounts/${user.account_id}/credits`, { credits: 10, reason: "oauth e2e" });
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await browser?.close();
    await cb?.close();
    await t?.close();
  });

  it("registers, authorizes with mcp only, verifies, and is refused wallet tools with the reconnect message", async () => {
    await expect(connect()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.info?.client_id).toMatch(/^cli_/);
    expect(provider.authUrl?.searchParams.get("scope")).toBe("mcp wallet");
    const code = await consentInBrowser(/Verification and account only/, "oauth-consent");
    expect(await auth(provider, { serverUrl: new URL(t.mcpUrl), authorizationCode: code, fetchFn: sdkFetch })).toBe("AUTHORIZED");
    expect(provider.stored).toMatchObject({ token_type: "Bearer", scope: "mcp", expires_in: 3600 });

    const client = await connect();
    const check = await client.callTool({ name: "check_connection", arguments: {} });
    expect(check.structuredContent).toMatchObject({ ok: true, authMethod: "oauth", escrowTools: false });
    const v = await client.callTool({ name: "verify_intent", arguments: { intent: "Only buy ETH, at most 100 USDC.", action: "Buy 50 USDC of ETH on Base." } });
    expect(v.isError).toBeFalsy();
    expect(text(v)).toMatch(/Verdict|verdict/);
    const w = await client.callTool({ name: "list_escrow_wallets", arguments: {} });
    expect(w.isError).toBe(true);
    expect(text(w)).toMatch(/wallet access not granted.*Reconnect Arbiter in your MCP client/);
  });

  it("re-authorizes with wallet access and the wallet tool succeeds", async () => {
    provider.invalidateCredentials("tokens");
    expect(await auth(provider, { serverUrl: new URL(t.mcpUrl), fetchFn: sdkFetch })).toBe("REDIRECT");
    const code = await consentInBrowser(/Verification, account and wallets/);
    expect(await auth(provider, { serverUrl: new URL(t.mcpUrl), authorizationCode: code, fetchFn: sdkFetch })).toBe("AUTHORIZED");
    expect(provider.stored?.scope).toBe("mcp wallet");
    const client = await connect();
    expect((await client.callTool({ name: "check_connection", arguments: {} })).structuredContent).toMatchObject({ authMethod: "oauth", escrowTools: true });
    const w = await client.callTool({ name: "list_escrow_wallets", arguments: {} });
    expect(w.isError).toBeFalsy();
  });

  it("refreshes with a rotated refresh token, explicitly and transparently once the access token expired", async () => {
    const before = { ...provider.stored! };
    expect(await auth(provider, { serverUrl: new URL(t.mcpUrl), fetchFn: sdkFetch })).toBe("AUTHORIZED");
    expect(provider.stored!.access_token).not.toBe(before.access_token);
    expect(provider.stored!.refresh_token).not.toBe(before.refresh_token);

    const client = await connect();
    const stale = provider.stored!.access_token;
    clock.advance(3601_000);
    const raw = await fetch(t.mcpUrl, { method: "POST", headers: { authorization: `Bearer ${stale}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(raw.status).toBe(401);
    // The SDK sees the 401, refreshes, and retries: the call succeeds with a new token.
    const r = await client.callTool({ name: "check_connection", arguments: {} });
    expect(r.structuredContent).toMatchObject({ authMethod: "oauth" });
    expect(provider.stored!.access_token).not.toBe(stale);
  });

  it("lists the connection in the dashboard; revocation (RFC 7009) gets 401 and the SDK must authorize again", async () => {
    await page.goto(`${t.url}/dashboard/connected-clients`);
    expect(await page.locator("main").innerText()).toMatch(/SDK Test Agent[\s\S]*verification, account and wallets/);
    await shot(page, "connected-apps");

    const meta = (await (await fetch(`${t.url}/.well-known/oauth-authorization-server`)).json()) as { revocation_endpoint: string };
    const tokens = provider.stored!;
    const res = await fetch(meta.revocation_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.refresh_token!, token_type_hint: "refresh_token", client_id: provider.info!.client_id }),
    });
    expect(res.status).toBe(200);
    const raw = await fetch(t.mcpUrl, { method: "POST", headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(raw.status).toBe(401);
    expect(raw.headers.get("www-authenticate")).toContain(`resource_metadata="${t.url}/.well-known/oauth-protected-resource"`);
    // The SDK tries its refresh token, is refused, drops its tokens and asks for a new authorization.
    await expect(connect()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.stored).toBeUndefined();
    expect(provider.authUrl).toBeDefined();
    await page.goto(`${t.url}/dashboard/connected-clients`);
    expect(await page.getByRole("heading", { name: "Recently disconnected" }).count()).toBe(1);
  });
});
