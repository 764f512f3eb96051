/**
 * The OAuth authorization endpoint (docs/oauth.md): a consent page behind the dashboard's session and CSRF
 * middleware. It names the client (its own, unverified claim), where the owner returns afterwards, and lets
 * the owner grant `mcp`, or `mcp` and `wallet` when the client asked for wallet access.
 *
 * The decision POST answers with a small page that forwards to the client (meta refresh plus a link), not
 * a 303: the dashboard's CSP has `form-action 'self'`, and browsers apply it to redirects after a form
 * submission, so a redirect to the client's loopback or https address would be blocked.
 */
import { Hono, type MiddlewareHandler } from "hono";
import type { Scope } from "../../accounts/principal";
import type { AuthorizeCheck, AuthorizeParams } from "../../oauth/authorize";
import { AUTHORIZE_PARAMS } from "../../oauth/authorize";
import type { DashboardContext, DashboardDeps, DashboardEnv } from "../context";
import { CsrfField, Field, Notice } from "../views/components";
import { render } from "../views/render";

type Request = Extract<AuthorizeCheck, { ok: true }>["request"];

function where(uri: string): string {
  const u = new URL(uri);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

function Consent(p: { req: Request; csrf: string; account: string; email: string }) {
  const { req } = p;
  const wantsWallet = req.requestedScope.includes("wallet");
  const hidden: AuthorizeParams = {
    response_type: "code",
    client_id: req.client.id,
    redirect_uri: req.redirectUri,
    code_challenge: req.codeChallenge,
    code_challenge_method: "S256",
    resource: req.resource,
    scope: req.requestedScope.join(" "),
    ...(req.state !== null ? { state: req.state } : {}),
  };
  return (
    <section class="card consent">
      <p>
        <strong>{req.client.client_name}</strong> wants to use Arbiter on your behalf, as account <strong>{p.account}</strong> ({p.email}).
      </p>
      <p class="help">The name is what the application says about itself; Arbiter cannot verify it. Allow only an application you just connected yourself.</p>
      <dl class="kvs">
        <Field label="Application id">
          <code>{req.client.id}</code>
        </Field>
        <Field label="Returns you to">
          <code>{where(req.redirectUri)}</code>
        </Field>
        {req.client.client_uri && (
          <Field label="Says it is from">
            <code>{req.client.client_uri}</code>
          </Field>
        )}
        <Field label="Access is for">
          <code>{req.resource}</code> (this Arbiter's MCP server)
        </Field>
      </dl>
      <form method="post" action="/dashboard/oauth/authorize" class="stack">
        <CsrfField token={p.csrf} />
        {Object.entries(hidden).map(([k, v]) => (
          <input type="hidden" name={k} value={v} />
        ))}
        <fieldset>
          <legend>What it may do</legend>
          <label>
            <input type="radio" name="access" value="mcp" checked /> Verification and account only (scope mcp): verify actions, read verifications, check the connection and
            buy credits. Each verification spends a credit.
          </label>
          {wantsWallet && (
            <label>
              <input type="radio" name="access" value="wallet" /> Verification, account and wallets (scopes mcp and wallet): also create and change escrow wallets, read
              balances and propose transactions from them. Proposals still go through limits and the judge, and safe wallets wait for you.
            </label>
          )}
        </fieldset>
        {!wantsWallet && <p class="help">The application did not ask for wallet access.</p>}
        <p class="help">You can disconnect it at any time under Connected apps; its tokens then stop working immediately.</p>
        <div class="row">
          <button type="submit" name="decision" value="allow" class="btn">
            Allow
          </button>
          <button type="submit" name="decision" value="deny" class="btn-secondary">
            Deny
          </button>
        </div>
      </form>
    </section>
  );
}

/**
 * The page that hands the browser back to the client: no form redirect, so `form-action` does not apply.
 * Used for errors found on the GET too: that GET may be the end of the sign-in form's redirect chain.
 */
function ReturnPage(p: { url: string; allowed: boolean; why?: string }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta http-equiv="refresh" content={`0;url=${p.url}`} />
        <title>Returning to the application · Arbiter</title>
        <link rel="stylesheet" href="/dashboard/assets/app.css" />
      </head>
      <body>
        <main id="main">
          <h1>{p.allowed ? "Access allowed" : "Access not granted"}</h1>
          {p.why && <p>{p.why}</p>}
          <p>
            Returning you to the application. If nothing happens, <a href={p.url}>continue to the application</a>. You can close this tab afterwards.
          </p>
        </main>
      </body>
    </html>
  );
}

function paramsFrom(get: (k: string) => string | undefined): AuthorizeParams {
  const p: AuthorizeParams = {};
  for (const k of AUTHORIZE_PARAMS) {
    const v = get(k);
    if (v !== undefined) p[k] = v;
  }
  return p;
}

/**
 * Runs before sign-in is required: a request whose client, redirect URI or PKCE is wrong fails now (an error
 * page, or the error sent back to a registered redirect URI), instead of after the owner signed in.
 */
export function oauthPreflight(deps: DashboardDeps): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    if (c.req.method !== "GET") return next();
    const all = c.req.queries();
    const duplicated = AUTHORIZE_PARAMS.filter((k) => (all[k]?.length ?? 0) > 1);
    const check = await deps.services.oauth.checkAuthorization(paramsFrom((k) => c.req.query(k)), duplicated);
    if (check.ok) return next();
    if (check.redirect) return c.html(<ReturnPage url={check.redirect} allowed={false} why={check.message} />);
    return render(c, { title: "Authorization refused", status: 400 }, <Notice kind="error">{check.message}</Notice>);
  };
}

export function oauthConsentRoutes(deps: DashboardDeps) {
  const { oauth, accounts } = deps.services;
  const app = new Hono<DashboardEnv>();

  const refused = (c: DashboardContext, message: string) =>
    render(c, { title: "Authorization refused", status: 400 }, <Notice kind="error">{message}</Notice>);

  app.get("/oauth/authorize", async (c) => {
    const all = c.req.queries();
    const duplicated = AUTHORIZE_PARAMS.filter((k) => (all[k]?.length ?? 0) > 1);
    const check = await oauth.checkAuthorization(paramsFrom((k) => c.req.query(k)), duplicated);
    if (!check.ok) return check.redirect ? c.html(<ReturnPage url={check.redirect} allowed={false} why={check.message} />) : refused(c, check.message);
    const session = c.get("session");
    const account = await accounts.get(session.accountId);
    return render(
      c,
      { title: `Connect ${check.request.client.client_name} to Arbiter?` },
      <Consent req={check.request} csrf={session.csrfToken} account={account.name} email={session.email} />,
    );
  });

  app.post("/oauth/authorize", async (c) => {
    const body = await c.req.parseBody();
    const field = (k: string) => (typeof body[k] === "string" ? (body[k] as string) : undefined);
    const check = await oauth.checkAuthorization(paramsFrom(field));
    if (!check.ok) return check.redirect ? c.html(<ReturnPage url={check.redirect} allowed={false} why={check.message} />) : refused(c, check.message);
    const req = check.request;
    if (field("decision") !== "allow") return c.html(<ReturnPage url={oauth.deny(req)} allowed={false} />);
    const access = field("access");
    if (access !== "mcp" && access !== "wallet") return refused(c, "Choose what the application may do.");
    if (access === "wallet" && !req.requestedScope.includes("wallet")) return refused(c, "The application did not ask for wallet access.");
    const granted: Scope[] = access === "wallet" ? ["mcp", "wallet"] : ["mcp"];
    const session = c.get("session");
    const url = await oauth.approve(req, granted, { accountId: session.accountId, userId: session.userId });
    return c.html(<ReturnPage url={url} allowed />);
  });
  return app;
}
