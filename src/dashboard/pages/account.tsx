import { Hono } from "hono";
import { describeUserAgent } from "../views/user-agent";
import type { DashboardDeps, DashboardEnv } from "../context";
import { clearSessionCookie } from "../auth/cookies";
import { Copy, CsrfField, Field, Notice, Time } from "../views/components";
import { noticeFrom, render } from "../views/render";

/** The owner's account, sessions, and sign-out (this device or everywhere). */
export function accountRoutes(deps: DashboardDeps) {
  const { auth } = deps;
  const app = new Hono<DashboardEnv>();

  app.get("/account", async (c) => {
    const session = c.get("session");
    const [account, sessions] = await Promise.all([deps.services.accounts.get(session.accountId), auth.listSessions(session.userId)]);
    const notice = noticeFrom(c);
    return render(
      c,
      { title: "Account", active: "account" },
      <>
        {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
        <section class="card">
          <dl class="kvs">
            <Field label="Account">{account.name}</Field>
            <Field label="Account id">
              <Copy value={account.id} label="account id" />
            </Field>
            <Field label="Owner">{session.email}</Field>
            <Field label="Created">
              <Time d={account.created_at} />
            </Field>
          </dl>
          <p class="help">
            Lost your password? The operator can print a one-time link to set a new one: <code>npm run cli -- account claim-link --account {account.id}</code>.
          </p>
        </section>
        <section class="card">
          <h2>Signed-in sessions</h2>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Device</th>
                  <th scope="col">Address</th>
                  <th scope="col">Signed in</th>
                  <th scope="col">Last active</th>
                </tr>
              </thead>
              <tbody>
                {sessions.map((s) => (
                  <tr>
                    <td class="clip" title={s.user_agent ?? undefined}>
                      {describeUserAgent(s.user_agent)}
                      {s.id === session.id && <strong> (this session)</strong>}
                    </td>
                    <td>{s.ip ?? ""}</td>
                    <td>
                      <Time d={s.created_at} />
                    </td>
                    <td>
                      <Time d={s.last_seen_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <form method="post" action="/dashboard/logout-everywhere" data-confirm="Sign out every session, this one included?">
            <CsrfField token={session.csrfToken} />
            <button type="submit" class="btn-danger">
              Sign out everywhere
            </button>
          </form>
        </section>
      </>,
    );
  });

  app.post("/logout", async (c) => {
    await auth.signOut(c.get("session").id);
    clearSessionCookie(c);
    return c.redirect("/dashboard/login", 303);
  });
  app.post("/logout-everywhere", async (c) => {
    await auth.signOutEverywhere(c.get("session").userId);
    clearSessionCookie(c);
    return c.redirect("/dashboard/login", 303);
  });
  return app;
}
