/** Connected apps: the MCP clients the owner authorized over OAuth, with revoke (docs/oauth.md). */
import { Hono } from "hono";
import type { ConnectedClient } from "../../oauth/service";
import type { DashboardDeps, DashboardEnv } from "../context";
import { CsrfField, Empty, Notice, Time } from "../views/components";
import { render } from "../views/render";

const scopeText = (s: string) => (s.split(" ").includes("wallet") ? "verification, account and wallets" : "verification and account");

function ClientTable(p: { rows: ConnectedClient[]; csrf?: string }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Application</th>
            <th scope="col">Access</th>
            <th scope="col">Connected</th>
            <th scope="col">{p.csrf ? "Last refreshed" : "Revoked"}</th>
            {p.csrf && (
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {p.rows.map((r) => (
            <tr class={p.csrf ? undefined : "muted"}>
              <td>
                <strong>{r.clientName}</strong>
                <br />
                <span class="help">
                  <code>{r.clientId}</code>
                  {r.redirectHost ? ` · returns to ${r.redirectHost}` : ""}
                </span>
              </td>
              <td>
                {scopeText(r.scope)} <span class="help">({r.scope})</span>
              </td>
              <td>
                <Time d={r.connectedAt} />
              </td>
              <td>{p.csrf ? <Time d={r.refreshedAt} /> : <><Time d={r.revokedAt} /> <span class="help">{r.revokedReason ?? ""}</span></>}</td>
              {p.csrf && (
                <td class="actions">
                  <form method="post" action={`/dashboard/connected-clients/${r.grantId}/revoke`} data-confirm={`Disconnect ${r.clientName}? Its tokens stop working immediately.`}>
                    <CsrfField token={p.csrf} />
                    <button type="submit" class="btn-danger btn-small" aria-label={`Revoke ${r.clientName}`}>
                      Revoke
                    </button>
                  </form>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function connectedClientRoutes(deps: DashboardDeps) {
  const { oauth } = deps.services;
  const app = new Hono<DashboardEnv>();
  app.get("/connected-clients", async (c) => {
    const rows = await oauth.listConnected(c.get("principal").accountId);
    const live = rows.filter((r) => !r.revokedAt);
    const revoked = rows.filter((r) => r.revokedAt).slice(0, 20);
    return render(
      c,
      { title: "Connected apps", active: "connected" },
      <>
        {c.req.query("revoked") === "1" && <Notice kind="ok">The application was disconnected. Its tokens now get 401.</Notice>}
        <p>
          MCP clients you connected with “Sign in” (OAuth) instead of an API key. Each one holds a short-lived access token and a refresh token; revoking ends
          both at once.
        </p>
        <h2>Connected</h2>
        {live.length === 0 ? (
          <Empty title="No connected apps.">
            <p>
              Add Arbiter to an MCP client with the URL <code>{deps.publicUrl}/api/mcp</code> and no API key: it opens this dashboard to ask for your consent.
            </p>
          </Empty>
        ) : (
          <ClientTable rows={live} csrf={c.get("session").csrfToken} />
        )}
        {revoked.length > 0 && (
          <>
            <h2>Recently disconnected</h2>
            <ClientTable rows={revoked} />
          </>
        )}
      </>,
    );
  });
  app.post("/connected-clients/:grantId/revoke", async (c) => {
    await oauth.revokeGrant(c.get("principal").accountId, c.req.param("grantId"));
    return c.redirect("/dashboard/connected-clients?revoked=1", 303);
  });
  return app;
}
