import { Hono } from "hono";
import { isServiceError, type ServiceError } from "../../lib/errors";
import { clientIp } from "../../lib/client-ip";
import type { DashboardContext, DashboardDeps, DashboardEnv } from "../context";
import { preSessionToken, setSessionCookie } from "../auth/cookies";
import { preSessionCsrf } from "../security";
import { PASSWORD_MIN } from "../auth/password";
import type { IssuedSession } from "../auth/service";
import { CsrfField, Notice } from "../views/components";
import { render } from "../views/render";

/** Where to go after sign-in: only a dashboard path (no open redirect). */
export function safeNext(next: string | undefined | null): string {
  if (!next || !/^\/dashboard(?:[/?#][^\\\s]*)?$/.test(next)) return "/dashboard";
  return next;
}

const field = (body: Record<string, unknown>, k: string): string => (typeof body[k] === "string" ? (body[k] as string) : "");

const client = (c: DashboardContext) => ({ ip: clientIp(c), userAgent: c.req.header("user-agent") ?? null });

function signedIn(c: DashboardContext, issued: IssuedSession, next: string) {
  setSessionCookie(c, issued.token, issued.session.expiresAt);
  return c.redirect(next, 303);
}

/** Expected failures (bad password, throttled, invalid input) become the form's message; anything else is a bug. */
function formError(err: unknown): { status: 400 | 401 | 404 | 409 | 429; message: string } {
  if (!isServiceError(err)) throw err;
  const e = err as ServiceError;
  const status = ({ invalid_input: 400, unauthenticated: 401, not_found: 404, conflict: 409, rate_limited: 429 } as const)[e.kind as "invalid_input"];
  if (!status) throw err;
  return { status, message: e.detail ?? e.error };
}

function SignInForm(p: { csrf: string; next: string; email?: string; error?: string }) {
  return (
    <section class="auth card">
      {p.error && <Notice kind="error">{p.error}</Notice>}
      <form method="post" action="/dashboard/login" class="stack">
        <CsrfField token={p.csrf} />
        <input type="hidden" name="next" value={p.next} />
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required value={p.email ?? ""} />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit" class="btn">
          Sign in
        </button>
      </form>
      <p>
        No account yet? <a href="/dashboard/signup">Create one</a>.
      </p>
    </section>
  );
}

function SignUpForm(p: { csrf: string; email?: string; accountName?: string; error?: string }) {
  return (
    <section class="auth card">
      {p.error && <Notice kind="error">{p.error}</Notice>}
      <form method="post" action="/dashboard/signup" class="stack">
        <CsrfField token={p.csrf} />
        <label for="account">Account name (optional)</label>
        <input id="account" name="accountName" autocomplete="organization" maxlength={200} value={p.accountName ?? ""} />
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required value={p.email ?? ""} />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required minlength={PASSWORD_MIN} aria-describedby="pw-help" />
        <p id="pw-help" class="help">
          At least {PASSWORD_MIN} characters. This password controls wallets with real money: use a password manager.
        </p>
        <button type="submit" class="btn">
          Create account
        </button>
      </form>
      <p>
        Already have an account? <a href="/dashboard/login">Sign in</a>.
      </p>
    </section>
  );
}

function ClaimForm(p: { csrf: string; token: string; accountName: string; ownerEmail: string | null; email?: string; error?: string }) {
  return (
    <section class="auth card">
      {p.error && <Notice kind="error">{p.error}</Notice>}
      <p>
        {p.ownerEmail ? (
          <>
            Set a new password for <strong>{p.ownerEmail}</strong>, owner of the account <strong>{p.accountName}</strong>. Every signed-in session of
            this owner will be signed out.
          </>
        ) : (
          <>
            Claim the account <strong>{p.accountName}</strong>: choose the email and password you will sign in with.
          </>
        )}
      </p>
      <form method="post" action={`/dashboard/claim/${p.token}`} class="stack">
        <CsrfField token={p.csrf} />
        {!p.ownerEmail && (
          <>
            <label for="email">Email</label>
            <input id="email" name="email" type="email" autocomplete="username" required value={p.email ?? ""} />
          </>
        )}
        <label for="password">New password</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required minlength={PASSWORD_MIN} aria-describedby="pw-help" />
        <p id="pw-help" class="help">
          At least {PASSWORD_MIN} characters. This link works once.
        </p>
        <button type="submit" class="btn">
          {p.ownerEmail ? "Set password" : "Claim account"}
        </button>
      </form>
    </section>
  );
}

/** Sign-in, sign-up and claim pages: the only dashboard routes reachable without a session. */
export function authRoutes(deps: DashboardDeps) {
  const { auth } = deps;
  const app = new Hono<DashboardEnv>();

  app.get("/login", (c) => render(c, { title: "Sign in" }, <SignInForm csrf={preSessionToken(c)} next={safeNext(c.req.query("next"))} />));
  app.post("/login", preSessionCsrf, async (c) => {
    const body = await c.req.parseBody();
    const next = safeNext(field(body, "next"));
    try {
      return signedIn(c, await auth.signIn({ email: field(body, "email"), password: field(body, "password") }, client(c)), next);
    } catch (err) {
      const { status, message } = formError(err);
      return render(c, { title: "Sign in", status }, <SignInForm csrf={preSessionToken(c)} next={next} email={field(body, "email")} error={message} />);
    }
  });

  app.get("/signup", (c) => render(c, { title: "Create your account" }, <SignUpForm csrf={preSessionToken(c)} />));
  app.post("/signup", preSessionCsrf, async (c) => {
    const body = await c.req.parseBody();
    const input = { email: field(body, "email"), password: field(body, "password"), accountName: field(body, "accountName") };
    try {
      return signedIn(c, await auth.signUp(input, client(c)), "/dashboard/keys?notice=welcome");
    } catch (err) {
      const { status, message } = formError(err);
      return render(c, { title: "Create your account", status }, <SignUpForm csrf={preSessionToken(c)} email={input.email} accountName={input.accountName} error={message} />);
    }
  });

  const claimGone = (c: DashboardContext) =>
    render(
      c,
      { title: "Claim link", status: 404 },
      <Notice kind="error">This link is invalid, used or expired. Ask the operator for a new one.</Notice>,
    );

  app.get("/claim/:token", async (c) => {
    const token = c.req.param("token");
    const claim = await auth.describeClaim(token);
    if (!claim) return claimGone(c);
    return render(c, { title: claim.ownerEmail ? "Set your password" : "Claim your account" }, <ClaimForm csrf={preSessionToken(c)} token={token} {...claim} />);
  });
  app.post("/claim/:token", preSessionCsrf, async (c) => {
    const token = c.req.param("token");
    const body = await c.req.parseBody();
    try {
      return signedIn(c, await auth.redeemClaim(token, { email: field(body, "email"), password: field(body, "password") }, client(c)), "/dashboard");
    } catch (err) {
      const { status, message } = formError(err);
      const claim = await auth.describeClaim(token);
      if (!claim) return claimGone(c);
      return render(
        c,
        { title: claim.ownerEmail ? "Set your password" : "Claim your account", status },
        <ClaimForm csrf={preSessionToken(c)} token={token} {...claim} email={field(body, "email")} error={message} />,
      );
    }
  });
  return app;
}
