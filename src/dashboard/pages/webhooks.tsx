import { Hono } from "hono";
import type { DashboardContext, DashboardDeps, DashboardEnv } from "../context";
import { Copy, CsrfField, Empty, Notice, Time } from "../views/components";
import { noticeFrom, render, seeOther } from "../views/render";
import { EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES } from "../../webhooks/events";
import type { DeliveryView, EndpointView } from "../../webhooks/endpoints";
import { isServiceError } from "../../lib/errors";

function SecretOnce(p: { secret: string }) {
  return (
    <Notice kind="ok">
      <p>
        <strong>The endpoint's signing secret.</strong> Copy it now: it is shown only once. Your receiver checks each request's <code>webhook-signature</code> with
        it (see docs/webhooks.md).
      </p>
      <p>
        <Copy value={p.secret} label="signing secret" />
      </p>
    </Notice>
  );
}

function StateBadge(p: { e: EndpointView }) {
  const cls = p.e.state === "active" ? "status s-ok" : p.e.state === "paused" ? "status s-muted" : "status s-bad";
  return <span class={cls}>{p.e.state}</span>;
}

function EventChoices(p: { checked?: readonly string[] }) {
  return (
    <fieldset>
      <legend>Events to send</legend>
      {WEBHOOK_EVENT_TYPES.map((t) => (
        <label class="check">
          <input type="checkbox" name="events" value={t} checked={!p.checked || p.checked.includes(t)} /> <code>{t}</code> <span class="help">{EVENT_DESCRIPTIONS[t]}</span>
        </label>
      ))}
    </fieldset>
  );
}

function EndpointForm(p: { csrf: string; error?: string; url?: string; description?: string; events?: string[] }) {
  return (
    <form method="post" action="/dashboard/webhooks" class="card">
      <h2>Add an endpoint</h2>
      {p.error && <Notice kind="error">{p.error}</Notice>}
      <CsrfField token={p.csrf} />
      <label>
        URL <span class="help">(https; the service refuses private and loopback addresses)</span>
        <input name="url" type="url" required value={p.url ?? ""} placeholder="https://example.com/arbiter-events" />
      </label>
      <label>
        Description <span class="help">(optional)</span>
        <input name="description" maxlength={200} value={p.description ?? ""} />
      </label>
      <EventChoices checked={p.events} />
      <button type="submit" class="btn">
        Add endpoint
      </button>
    </form>
  );
}

function Deliveries(p: { csrf: string; endpointId: string; items: DeliveryView[] }) {
  if (p.items.length === 0) return <Empty title="Nothing sent yet." />;
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last answer</th>
            <th scope="col">Recorded</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {p.items.map((d) => (
            <tr>
              <td>
                <code>{d.type}</code>
                <br />
                <span class="help mono">{d.eventId}</span>
              </td>
              <td>
                {d.status}
                {d.status === "pending" && d.attempts > 0 && (
                  <span class="help">
                    {" "}
                    next try <Time d={d.nextAttemptAt} />
                  </span>
                )}
              </td>
              <td class="num">{d.attempts}</td>
              <td>{d.lastError ?? (d.lastStatus ? `HTTP ${d.lastStatus}` : "")}</td>
              <td>
                <Time d={d.createdAt} />
              </td>
              <td class="actions">
                <form method="post" action={`/dashboard/webhooks/${p.endpointId}/deliveries/${d.id}/resend`}>
                  <CsrfField token={p.csrf} />
                  <button type="submit" class="btn-secondary btn-small" aria-label={`Resend ${d.type} ${d.eventId}`}>
                    Resend
                  </button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Webhook endpoints: add (secret shown once), rotate, pause, re-enable, delete, the delivery log with resend. */
export function webhookRoutes(deps: DashboardDeps) {
  const { webhooks } = deps.services;
  const app = new Hono<DashboardEnv>();

  const formInput = async (c: DashboardContext) => {
    const b = await c.req.parseBody({ all: true });
    const events = b.events === undefined ? [] : ([] as unknown[]).concat(b.events).map(String);
    return { url: String(b.url ?? ""), description: String(b.description ?? "") || undefined, events };
  };

  const listPage = async (c: DashboardContext, extra: { secret?: string; error?: string; input?: { url: string; description?: string; events: string[] } } = {}) => {
    const principal = c.get("principal");
    const [items, threshold] = await Promise.all([webhooks.list(principal), webhooks.creditsLowThreshold(principal)]);
    const notice = noticeFrom(c);
    const csrf = c.get("session").csrfToken;
    return render(
      c,
      { title: "Webhooks", active: "webhooks" },
      <>
        {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
        {extra.secret && <SecretOnce secret={extra.secret} />}
        <p class="help">
          Arbiter sends events to your systems as signed HTTPS POSTs in the Standard Webhooks format (<code>webhook-id</code>, <code>webhook-timestamp</code>,{" "}
          <code>webhook-signature</code>), at least once: de-duplicate by <code>webhook-id</code>. Failed deliveries are retried with back-off for 24 hours.
        </p>
        {items.some((e) => e.state === "disabled") && (
          <Notice kind="warn">An endpoint was disabled after repeated failures. Open it to see why, fix the receiver, then turn it back on.</Notice>
        )}
        {items.length === 0 ? (
          <Empty title="No endpoints yet." />
        ) : (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Endpoint</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {items.map((e) => (
                  <tr>
                    <td>
                      <a href={`/dashboard/webhooks/${e.id}`}>{e.url}</a>
                      {e.description && <div class="help">{e.description}</div>}
                    </td>
                    <td>{e.events.length === WEBHOOK_EVENT_TYPES.length ? "all" : e.events.join(", ")}</td>
                    <td>
                      <StateBadge e={e} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <EndpointForm csrf={csrf} error={extra.error} {...(extra.input ?? {})} />
        <form method="post" action="/dashboard/webhooks/credits-low" class="card">
          <h2>Low-credit alert</h2>
          <CsrfField token={csrf} />
          <label>
            Send <code>credits.low</code> when the balance falls to or below <span class="help">(credits; empty turns it off)</span>
            <input name="threshold" type="number" min="0" max="1000000" step="1" value={threshold === null ? "" : String(threshold)} />
          </label>
          <button type="submit" class="btn-secondary">
            Save threshold
          </button>
        </form>
      </>,
    );
  };

  app.get("/webhooks", (c) => listPage(c));
  app.post("/webhooks", async (c) => {
    const input = await formInput(c);
    try {
      const { secret } = await webhooks.create(c.get("principal"), input);
      return listPage(c, { secret }); // rendered, not redirected: the secret never sits in a URL
    } catch (err) {
      if (isServiceError(err) && err.kind === "invalid_input") return listPage(c, { error: err.detail ?? err.error, input });
      throw err;
    }
  });
  app.post("/webhooks/credits-low", async (c) => {
    const b = await c.req.parseBody();
    const raw = String(b.threshold ?? "").trim();
    await webhooks.setCreditsLowThreshold(c.get("principal"), raw === "" ? null : Number(raw));
    return seeOther(c, "/dashboard/webhooks", "threshold_saved");
  });

  const detail = async (c: DashboardContext, secret?: string) => {
    const principal = c.get("principal");
    const e = await webhooks.get(principal, c.req.param("id")!);
    const items = await webhooks.deliveries(principal, e.id);
    const notice = noticeFrom(c);
    const csrf = c.get("session").csrfToken;
    const action = (path: string, label: string, cls = "btn-secondary", confirm?: string) => (
      <form method="post" action={`/dashboard/webhooks/${e.id}/${path}`} data-confirm={confirm}>
        <CsrfField token={csrf} />
        <button type="submit" class={cls}>
          {label}
        </button>
      </form>
    );
    return render(
      c,
      { title: "Webhook endpoint", active: "webhooks" },
      <>
        {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
        {secret && <SecretOnce secret={secret} />}
        {e.state === "disabled" && <Notice kind="error">Disabled: {e.disabledReason}. Nothing is sent to it until you turn it back on.</Notice>}
        <section class="card">
          <p>
            <strong>{e.url}</strong> <StateBadge e={e} />
          </p>
          {e.description && <p class="help">{e.description}</p>}
          <p class="help">Events: {e.events.join(", ")}</p>
          <div class="row">
            {e.state === "disabled" && action("enable", "Turn back on", "btn")}
            {e.state === "active" && action("pause", "Pause")}
            {e.state === "paused" && action("resume", "Resume", "btn")}
            {action("rotate", "Rotate secret", "btn-secondary", "Rotate the signing secret? The old one keeps signing (as a second signature) for 24 hours.")}
            {action("delete", "Delete", "btn-danger", "Delete this endpoint and its delivery log?")}
          </div>
        </section>
        <section>
          <h2>Delivery log</h2>
          <Deliveries csrf={csrf} endpointId={e.id} items={items} />
        </section>
        <p>
          <a href="/dashboard/webhooks">All endpoints</a>
        </p>
      </>,
    );
  };

  app.get("/webhooks/:id", (c) => detail(c));
  app.post("/webhooks/:id/rotate", async (c) => {
    const { secret } = await webhooks.rotateSecret(c.get("principal"), c.req.param("id"));
    return detail(c, secret);
  });
  for (const verb of ["pause", "resume", "enable"] as const) {
    app.post(`/webhooks/:id/${verb}`, async (c) => {
      await webhooks[verb](c.get("principal"), c.req.param("id"));
      return seeOther(c, `/dashboard/webhooks/${c.req.param("id")}`, `webhook_${verb}d`);
    });
  }
  app.post("/webhooks/:id/delete", async (c) => {
    await webhooks.remove(c.get("principal"), c.req.param("id"));
    return seeOther(c, "/dashboard/webhooks", "webhook_deleted");
  });
  app.post("/webhooks/:id/deliveries/:delivery/resend", async (c) => {
    await webhooks.get(c.get("principal"), c.req.param("id"));
    await webhooks.resend(c.get("principal"), c.req.param("delivery"));
    return seeOther(c, `/dashboard/webhooks/${c.req.param("id")}`, "webhook_resent");
  });
  return app;
}
