import { Hono } from "hono";
import type { DashboardContext, DashboardDeps, DashboardEnv } from "../context";
import { Copy, CsrfField, Empty, Notice, Time } from "../views/components";
import { noticeFrom, render, seeOther } from "../views/render";

type KeyRow = Awaited<ReturnType<DashboardDeps["services"]["accounts"]["listKeys"]>>[number];

function KeysView(p: { csrf: string; keys: KeyRow[]; created?: { apiKey: string; prefix: string } }) {
  const live = p.keys.filter((k) => !k.revoked_at);
  const revoked = p.keys.filter((k) => k.revoked_at);
  return (
    <>
      {p.created && (
        <Notice kind="ok">
          <p>
            <strong>Your new API key.</strong> Copy it now: it is shown only once and cannot be recovered.
          </p>
          <p>
            <Copy value={p.created.apiKey} label="API key" />
          </p>
          <p class="help">
            Send it as <code>x-api-key</code> (or <code>Authorization: Bearer</code>). It draws on this account's credits.
          </p>
        </Notice>
      )}
      <form method="post" action="/dashboard/keys" class="inline">
        <CsrfField token={p.csrf} />
        <button type="submit" class="btn">
          Create API key
        </button>
      </form>
      <h2>Active keys</h2>
      {live.length === 0 ? (
        <Empty title="No active keys.">
          <p>Create a key for each agent or trader, so you can revoke one without stopping the others.</p>
        </Empty>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {live.map((k) => (
                <tr>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td>
                    <Time d={k.created_at} />
                  </td>
                  <td>
                    <Time d={k.last_used_at} />
                  </td>
                  <td class="actions">
                    <form method="post" action={`/dashboard/keys/${k.id}/revoke`} data-confirm={`Revoke ${k.prefix}…? Requests with this key will get 401 immediately.`}>
                      <CsrfField token={p.csrf} />
                      <button type="submit" class="btn-danger btn-small" aria-label={`Revoke key ${k.prefix}`}>
                        Revoke
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoked.length > 0 && (
        <>
          <h2>Revoked keys</h2>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Revoked</th>
                </tr>
              </thead>
              <tbody>
                {revoked.map((k) => (
                  <tr class="muted">
                    <td>
                      <code>{k.prefix}…</code>
                    </td>
                    <td>
                      <Time d={k.created_at} />
                    </td>
                    <td>
                      <Time d={k.last_used_at} />
                    </td>
                    <td>
                      <Time d={k.revoked_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}

/** API keys: create (secret shown once), list, revoke (immediate). */
export function keyRoutes(deps: DashboardDeps) {
  const { accounts } = deps.services;
  const app = new Hono<DashboardEnv>();
  const page = async (c: DashboardContext, created?: { apiKey: string; prefix: string }) => {
    const notice = created ? null : noticeFrom(c);
    const keys = await accounts.listKeys(c.get("principal").accountId);
    return render(
      c,
      { title: "API keys", active: "keys" },
      <>
        {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
        <KeysView csrf={c.get("session").csrfToken} keys={keys} created={created} />
      </>,
    );
  };
  app.get("/keys", (c) => page(c));
  app.post("/keys", async (c) => {
    const { apiKey, prefix } = await accounts.createKey(c.get("principal").accountId);
    // Rendered directly (not redirected) so the secret never sits in a URL or a later page.
    return page(c, { apiKey, prefix });
  });
  app.post("/keys/:keyId/revoke", async (c) => {
    await accounts.revokeKey(c.req.param("keyId"), c.get("principal").accountId);
    return seeOther(c, "/dashboard/keys", "key_revoked");
  });
  return app;
}
