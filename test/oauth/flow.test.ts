/**
 * The authorization server over HTTP (app.request), with the consent page walked by a cookie-keeping
 * dashboard client: discovery, registration rules, the code flow and its failure cases, refresh rotation
 * with reuse detection, revocation, expiry on a manual clock, scopes at the MCP endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizeQuery, consent, returnUrl, ManualClock, mcpCall, owner, pkcePair, register, startOAuthRuntime, token, type OAuthRuntime } from "./helpers";
import type { DashboardClient } from "../dashboard/client";
import { hashSecret } from "../../src/accounts/api-keys";

const REDIRECT = "http://127.0.0.1:43123/callback";
let t: OAuthRuntime;
const clock = new ManualClock();
let d: DashboardClient;
let accountId: string;
let clientId: string;

beforeAll(async () => {
  t = await startOAuthRuntime({ clock });
  ({ d, accountId } = await owner(t, "owner@example.com"));
  const r = await register(t, { client_name: "Test Agent", redirect_uris: [REDIRECT, "https://agent.example/cb"], token_endpoint_auth_method: "none" });
  expect(r.status).toBe(201);
  clientId = r.body.client_id;
});
afterAll(async () => t?.close());

/** Consent for a fresh PKCE pair; returns the code and the verifier. */
async function authorize(access: "mcp" | "wallet" = "mcp", redirectUri = REDIRECT) {
  const { verifier, challenge } = pkcePair();
  const back = await consent(d, authorizeQuery(t, { clientId, redirectUri, challenge }), access);
  expect(back.searchParams.get("state")).toBe("st-123");
  expect(back.searchParams.get("iss")).toBe(t.url);
  return { code: back.searchParams.get("code")!, verifier, back };
}

const redeem = (code: string, verifier: string, redirectUri = REDIRECT) =>
  token(t, { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: redirectUri, client_id: clientId, resource: `${t.url}/api/mcp` });

describe("discovery and registration", () => {
  it("serves RFC 8414 metadata beside the protected-resource metadata", async () => {
    const as = await (await t.app.request("/.well-known/oauth-authorization-server")).json();
    expect(as).toMatchObject({
      issuer: t.url,
      authorization_endpoint: `${t.url}/dashboard/oauth/authorize`,
      token_endpoint: `${t.url}/oauth/token`,
      registration_endpoint: `${t.url}/oauth/register`,
      revocation_endpoint: `${t.url}/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      scopes_supported: ["mcp", "wallet"],
    });
    const pr = await (await t.app.request("/.well-known/oauth-protected-resource")).json();
    expect(pr).toMatchObject({ resource: `${t.url}/api/mcp`, authorization_servers: [t.url] });
  });

  it("registers public clients only, with https or loopback http redirects", async () => {
    const ok = await register(t, { redirect_uris: ["http://localhost:9/cb"], token_endpoint_auth_method: "client_secret_post" });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] });
    expect(ok.body.client_secret).toBeUndefined();
    for (const bad of [["http://agent.example/cb"], ["https://agent.example/cb#frag"], ["myapp://cb"], ["javascript:alert(1)"], [], "https://x.example"]) {
      const r = await register(t, { redirect_uris: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.error).toBe("invalid_redirect_uri");
    }
    expect((await register(t, { redirect_uris: ["https://a.example/cb"], scope: "admin" })).body.error).toBe("invalid_client_metadata");
  });
});

describe("authorization code with PKCE", () => {
  it("issues short-lived opaque tokens bound to the MCP resource; check_connection says oauth", async () => {
    const { code, verifier } = await authorize("mcp");
    const r = await redeem(code, verifier);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "mcp" });
    expect(r.body.access_token).toMatch(/^svc_at_[A-Za-z0-9_-]{43}$/);
    expect(r.body.refresh_token).toMatch(/^svc_rt_[A-Za-z0-9_-]{43}$/);
    // Stored hashed only.
    const rows = await t.runtime.database.db.selectFrom("oauth_tokens").select("token_hash").execute();
    expect(rows.some((x) => x.token_hash.includes(r.body.access_token))).toBe(false);
    const c = await mcpCall(t, r.body.access_token, "check_connection");
    expect(c.result?.structuredContent).toMatchObject({ ok: true, account: accountId, authMethod: "oauth", escrowTools: false });
  });

  it("refuses a wrong PKCE verifier, a mismatched redirect_uri, another client, and keeps the code for the right request", async () => {
    const { code, verifier } = await authorize("mcp");
    const wrong = await redeem(code, pkcePair().verifier);
    expect(wrong).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(wrong.body.error_description).toMatch(/PKCE/);
    expect((await redeem(code, verifier, "http://127.0.0.1:43124/callback")).body.error).toBe("invalid_grant");
    const other = (await register(t, { redirect_uris: [REDIRECT] })).body.client_id;
    expect((await token(t, { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: other })).body.error).toBe("invalid_grant");
    expect((await redeem(code, verifier)).status).toBe(200);
  });

  it("a reused code is refused and revokes the tokens issued from it", async () => {
    const { code, verifier } = await authorize("mcp");
    const first = await redeem(code, verifier);
    expect(first.status).toBe(200);
    expect((await mcpCall(t, first.body.access_token, "check_connection")).status).toBe(200);
    const again = await redeem(code, verifier);
    expect(again).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(again.body.error_description).toMatch(/already used.*revoked/);
    const after = await mcpCall(t, first.body.access_token, "check_connection");
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await token(t, { grant_type: "refresh_token", refresh_token: first.body.refresh_token, client_id: clientId })).body.error).toBe("invalid_grant");
  });

  it("codes expire after 60 seconds", async () => {
    const { code, verifier } = await authorize("mcp");
    clock.advance(61_000);
    const r = await redeem(code, verifier);
    expect(r.body).toMatchObject({ error: "invalid_grant" });
    expect(r.body.error_description).toMatch(/expired/);
  });

  it("matches redirect URIs exactly, except the port of a loopback URI (RFC 8252)", async () => {
    const { challenge } = pkcePair();
    // Another port on the registered loopback URI: accepted, and the code is bound to that exact URI.
    const { code, verifier } = await authorize("mcp", "http://127.0.0.1:50999/callback");
    expect((await redeem(code, verifier, REDIRECT)).body.error).toBe("invalid_grant");
    for (const bad of ["http://127.0.0.1:43123/other", "http://localhost:43123/callback", "https://agent.example/cb/x", "https://agent.example/cb?x=1", "https://evil.example/cb"]) {
      const page = await d.get(authorizeQuery(t, { clientId, redirectUri: bad, challenge }));
      expect(page.status, bad).toBe(400);
      expect(page.headers.get("location")).toBeNull();
      expect(d.lastHtml).toContain("not one the application registered");
    }
    const unknown = await d.get(authorizeQuery(t, { clientId: "cli_0000000000000000", redirectUri: REDIRECT, challenge }));
    expect(unknown.status).toBe(400);
  });

  it("sends request errors back to the client: no PKCE, plain PKCE, bad scope, other resource, denial", async () => {
    const { challenge } = pkcePair();
    const cases: [Record<string, string>, string][] = [
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ scope: "mcp admin" }, "invalid_scope"],
      [{ resource: "https://other.example/api/mcp" }, "invalid_target"],
    ];
    for (const [extra, error] of cases) {
      const res = await d.get(authorizeQuery(t, { clientId, redirectUri: REDIRECT, challenge, extra }));
      expect(res.status).toBe(200);
      const loc = returnUrl(d.lastHtml);
      expect(loc.origin + loc.pathname).toBe(REDIRECT);
      expect(loc.searchParams.get("error")).toBe(error);
      expect(loc.searchParams.get("state")).toBe("st-123");
    }
    await d.get(authorizeQuery(t, { clientId, redirectUri: REDIRECT, challenge: "" }));
    expect(returnUrl(d.lastHtml).searchParams.get("error")).toBe("invalid_request");
    const back = await consent(d, authorizeQuery(t, { clientId, redirectUri: REDIRECT, challenge }), "mcp", "deny");
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("code")).toBeNull();
  });

  it("refuses a bad client, redirect URI or PKCE before anyone is asked to sign in", async () => {
    const { challenge } = pkcePair();
    // Unknown client, no PKCE: an error page, no sign-in redirect, no redirect to the URI it names.
    const unknown = await t.app.request(authorizeQuery(t, { clientId: "cli_0000000000000000", redirectUri: "https://evil.example/cb", challenge: "", extra: { code_challenge_method: "" } }));
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get("location")).toBeNull();
    const html = await unknown.text();
    expect(html).toContain("unknown client_id");
    expect(html).not.toContain("evil.example");
    // A registered client with an unregistered redirect URI: the same, signed out.
    const badUri = await t.app.request(authorizeQuery(t, { clientId, redirectUri: "https://evil.example/cb", challenge }));
    expect(badUri.status).toBe(400);
    expect(badUri.headers.get("location")).toBeNull();
    expect(await badUri.text()).toContain("not one the application registered");
    // A registered client and URI without PKCE: the error goes back to the client, still without sign-in.
    const noPkce = await t.app.request(authorizeQuery(t, { clientId, redirectUri: REDIRECT, challenge: "" }));
    expect(noPkce.status).toBe(200);
    const back = returnUrl(await noPkce.text());
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("error_description")).toMatch(/PKCE/);
  });

  it("consent needs a signed-in owner and the session's CSRF token", async () => {
    const { challenge } = pkcePair();
    const path = authorizeQuery(t, { clientId, redirectUri: REDIRECT, challenge });
    const anon = await t.app.request(path);
    expect(anon.status).toBe(303);
    expect(anon.headers.get("location")).toBe(`/dashboard/login?next=${encodeURIComponent(path)}`);
    await d.get(path);
    const form = { client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256", response_type: "code", decision: "allow", access: "mcp" };
    expect((await d.post("/dashboard/oauth/authorize", form, { csrf: null })).status).toBe(403);
    expect((await d.post("/dashboard/oauth/authorize", form, { origin: "https://evil.example" })).status).toBe(403);
    // The wallet scope cannot be granted when the client did not ask for it.
    await d.get(authorizeQuery(t, { clientId, redirectUri: REDIRECT, challenge, scope: "mcp" }));
    expect(d.lastHtml).not.toContain('value="wallet"');
    expect((await d.post("/dashboard/oauth/authorize", { ...form, scope: "mcp", access: "wallet" })).status).toBe(400);
  });
});

describe("tokens: refresh, scopes, expiry, revocation", () => {
  it("rotates refresh tokens; a reused refresh token revokes the whole family", async () => {
    const { code, verifier } = await authorize("wallet");
    const first = (await redeem(code, verifier)).body;
    expect(first.scope).toBe("mcp wallet");
    const second = await token(t, { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: clientId, resource: `${t.url}/api/mcp` });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    // Narrowing is allowed, widening is not.
    const narrowed = await token(t, { grant_type: "refresh_token", refresh_token: second.body.refresh_token, client_id: clientId, scope: "mcp" });
    expect(narrowed.body.scope).toBe("mcp");
    // Back to what the owner granted is fine (RFC 6749 6); beyond it is not.
    const back = await token(t, { grant_type: "refresh_token", refresh_token: narrowed.body.refresh_token, client_id: clientId, scope: "mcp wallet" });
    expect(back.body.scope).toBe("mcp wallet");
    const mcpOnly = await authorize("mcp");
    const small = (await redeem(mcpOnly.code, mcpOnly.verifier)).body;
    expect((await token(t, { grant_type: "refresh_token", refresh_token: small.refresh_token, client_id: clientId, scope: "mcp wallet" })).body.error).toBe("invalid_scope");
    // Reuse of a rotated token: refused, and every token of the grant stops working.
    const reuse = await token(t, { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: clientId });
    expect(reuse.body.error).toBe("invalid_grant");
    expect((await mcpCall(t, second.body.access_token, "check_connection")).status).toBe(401);
    expect((await token(t, { grant_type: "refresh_token", refresh_token: narrowed.body.refresh_token, client_id: clientId })).body.error).toBe("invalid_grant");
  });

  it("an mcp-only token is refused wallet tools with the reconnect message (SPEC 5)", async () => {
    t.runtime.escrowConfigured = true; // list the wallet tools without a chain: the scope check comes first
    try {
      const { code, verifier } = await authorize("mcp");
      const tok = (await redeem(code, verifier)).body.access_token as string;
      const r = await mcpCall(t, tok, "list_escrow_wallets");
      expect(r.result?.isError).toBe(true);
      expect(r.result?.content[0].text).toMatch(/wallet access not granted.*Reconnect/);
      expect(r.result?.structuredContent).toMatchObject({ error: "insufficient_scope", requiredScope: "wallet" });
    } finally {
      t.runtime.escrowConfigured = false;
    }
  });

  it("access tokens expire after an hour (401), and the refresh token still works", async () => {
    const { code, verifier } = await authorize("mcp");
    const tok = (await redeem(code, verifier)).body;
    clock.advance(3601_000);
    expect((await mcpCall(t, tok.access_token, "check_connection")).status).toBe(401);
    const fresh = await token(t, { grant_type: "refresh_token", refresh_token: tok.refresh_token, client_id: clientId });
    expect((await mcpCall(t, fresh.body.access_token, "check_connection")).status).toBe(200);
  });

  it("revocation (RFC 7009) ends the connection; other clients and unknown tokens get 200 and change nothing", async () => {
    const { code, verifier } = await authorize("mcp");
    const tok = (await redeem(code, verifier)).body;
    const other = (await register(t, { redirect_uris: [REDIRECT] })).body.client_id;
    expect((await token(t, { token: tok.access_token, client_id: other }, "/oauth/revoke")).status).toBe(200);
    expect((await mcpCall(t, tok.access_token, "check_connection")).status).toBe(200);
    expect((await token(t, { token: "svc_at_nonsense", client_id: clientId }, "/oauth/revoke")).status).toBe(200);
    expect((await token(t, { token: tok.access_token, client_id: clientId }, "/oauth/revoke")).status).toBe(200);
    expect((await mcpCall(t, tok.access_token, "check_connection")).status).toBe(401);
    expect((await token(t, { grant_type: "refresh_token", refresh_token: tok.refresh_token, client_id: clientId })).body.error).toBe("invalid_grant");
  });

  it("answers RFC 6749 errors: unsupported_grant_type, invalid_client, invalid_request", async () => {
    expect((await token(t, { grant_type: "password", client_id: clientId })).body.error).toBe("unsupported_grant_type");
    const unknown = await token(t, { grant_type: "authorization_code", code: "x", code_verifier: "y", redirect_uri: REDIRECT, client_id: "cli_zzzzzzzzzzzzzzzz" });
    expect(unknown).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect((await token(t, { grant_type: "authorization_code", client_id: clientId })).body.error).toBe("invalid_request");
    const json = await t.app.request("/oauth/token", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(((await json.json()) as { error: string }).error).toBe("invalid_request");
    const dup = await t.app.request("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `grant_type=refresh_token&client_id=${clientId}&client_id=${clientId}` });
    expect(((await dup.json()) as { error: string }).error).toBe("invalid_request");
  });

  it("the dashboard lists connected clients and revokes one (its tokens get 401 at once)", async () => {
    const { code, verifier } = await authorize("wallet");
    const tok = (await redeem(code, verifier)).body;
    await d.get("/dashboard/connected-clients");
    expect(d.lastHtml).toContain("Test Agent");
    expect(d.lastHtml).toContain("verification, account and wallets");
    const grant = await t.runtime.database.db.selectFrom("oauth_tokens").select("grant_id").where("token_hash", "=", hashSecret(tok.access_token)).executeTakeFirstOrThrow();
    const res = await d.post(`/dashboard/connected-clients/${grant.grant_id}/revoke`, {});
    expect(res.status).toBe(303);
    expect((await mcpCall(t, tok.access_token, "check_connection")).status).toBe(401);
    // Another account cannot revoke (or see) this account's connections.
    const other = await owner(t, "other@example.com");
    await other.d.get("/dashboard/connected-clients");
    expect(other.d.lastHtml).not.toContain("Test Agent");
    expect((await other.d.post(`/dashboard/connected-clients/${grant.grant_id}/revoke`, {})).status).toBe(404);
  });
});
