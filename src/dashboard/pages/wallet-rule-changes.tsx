import { Hono } from "hono";
import type { DashboardDeps, DashboardEnv } from "../context";
import type { RuleChange, WhoMayLoosen } from "../../wallets/rule-changes";
import { CsrfField, PostButton, Status, Time } from "../views/components";
import { seeOther } from "../views/render";
import { Countdown } from "./escrow-widgets";

const ACTOR_TEXT: Record<RuleChange["actor"]["kind"], string> = { api_key: "API key", oauth: "OAuth client", owner: "you (owner)" };

function Actor(p: { a: RuleChange["actor"] }) {
  return (
    <>
      {ACTOR_TEXT[p.a.kind] ?? p.a.kind} {p.a.kind !== "owner" && p.a.id && <code>{p.a.id}</code>}
    </>
  );
}

function Changes(p: { c: RuleChange }) {
  return (
    <ul class="rule-changes">
      {p.c.changes.map((x) => (
        <li class={`effect-${x.effect}`}>
          <strong>{x.effect}</strong>: {x.text}
        </li>
      ))}
    </ul>
  );
}

const modeValue = (v: unknown): WhoMayLoosen | null => (v === "owner" || v === "agent" ? v : null);

/** The choice of who may loosen rules: one wallet's (`walletId`) or the account's default for new wallets. */
export function WhoMayLoosenForm(p: { csrf: string; value: WhoMayLoosen; walletId?: string }) {
  const action = p.walletId ? `/dashboard/wallets/${p.walletId}/who-may-loosen` : "/dashboard/wallets/who-may-loosen";
  const name = p.walletId ? "who-may-loosen" : "default-who-may-loosen";
  return (
    <form method="post" action={action} class="stack">
      <CsrfField token={p.csrf} />
      <fieldset>
        <legend>{p.walletId ? "Who may loosen this wallet's rules" : "Who may loosen the rules of new wallets"}</legend>
        <label>
          <input type="radio" name="value" value="owner" id={`${name}-owner`} checked={p.value === "owner"} /> Only me: an agent's change that loosens a limit or
          replaces the mandate waits for my approval here (recommended for wallets holding real funds)
        </label>
        <label>
          <input type="radio" name="value" value="agent" id={`${name}-agent`} checked={p.value === "agent"} /> Agents too: their loosening changes apply at once, and the
          reply says what they loosened
        </label>
      </fieldset>
      <button type="submit" class="btn-secondary">
        Save
      </button>
    </form>
  );
}

/** Pending changes with approve / reject, each anchored so the agent's error link lands on it. */
export function PendingRuleChanges(p: { csrf: string; walletId: string; items: RuleChange[] }) {
  const pending = p.items.filter((c) => c.status === "pending");
  if (pending.length === 0) return null;
  return (
    <section class="card loosen" id="pending-rule-changes">
      <h2>Rule changes waiting for you ({pending.length})</h2>
      <p class="help">An agent asked to loosen this wallet's rules. Nothing of this is applied until you approve it; approving applies the requested fields on top of the rules as they are then.</p>
      {pending.map((c) => (
        <div class="pending-change" id={`rule-change-${c.id}`}>
          <p>
            <Actor a={c.actor} /> asked <Time d={c.createdAt} /> · <Countdown until={c.expiresAt} />
          </p>
          <Changes c={c} />
          <div class="row">
            <PostButton action={`/dashboard/wallets/${p.walletId}/rule-changes/${c.id}/approve`} csrf={p.csrf} class="btn-danger" label="Approve and loosen" confirm="Approve and loosen this wallet's rules?" />
            <PostButton action={`/dashboard/wallets/${p.walletId}/rule-changes/${c.id}/reject`} csrf={p.csrf} class="btn-secondary" label="Reject" />
          </div>
        </div>
      ))}
    </section>
  );
}

/** The audit trail: every rule change, by whom, what it loosened or tightened, and what became of it. */
export function RuleChangeTrail(p: { items: RuleChange[] }) {
  return (
    <section id="rule-change-trail">
      <h2>Rule changes</h2>
      {p.items.length === 0 ? (
        <p class="muted">No rule change since this wallet was created.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Status</th>
                <th scope="col">By</th>
                <th scope="col">What</th>
              </tr>
            </thead>
            <tbody>
              {p.items.map((c) => (
                <tr>
                  <td>
                    <Time d={c.createdAt} />
                  </td>
                  <td>
                    <Status s={c.status} />
                    {c.decidedAt && (
                      <span class="help">
                        {" "}
                        <Time d={c.decidedAt} />
                      </span>
                    )}
                  </td>
                  <td>
                    <Actor a={c.actor} />
                  </td>
                  <td>
                    <Changes c={c} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function walletRuleChangeRoutes(deps: DashboardDeps) {
  const { wallets } = deps.services;
  const app = new Hono<DashboardEnv>();

  app.post("/wallets/who-may-loosen", async (c) => {
    const v = modeValue((await c.req.parseBody()).value);
    if (v) await wallets.setDefaultWhoMayLoosen(c.get("principal"), v);
    return seeOther(c, "/dashboard/wallets", v ? "loosening_default_saved" : undefined);
  });

  app.post("/wallets/:id/who-may-loosen", async (c) => {
    const v = modeValue((await c.req.parseBody()).value);
    const w = await wallets.get(c.get("principal"), c.req.param("id"));
    if (v) await wallets.setWhoMayLoosen(c.get("principal"), w.id, v);
    return seeOther(c, `/dashboard/wallets/${w.id}`, v ? "loosening_saved" : undefined);
  });

  for (const decision of ["approve", "reject"] as const) {
    app.post(`/wallets/:id/rule-changes/:changeId/${decision}`, async (c) => {
      const principal = c.get("principal");
      const w = await wallets.get(principal, c.req.param("id"));
      const verb = decision === "approve" ? wallets.approveRuleChange : wallets.rejectRuleChange;
      await verb(principal, w.id, c.req.param("changeId"));
      return seeOther(c, `/dashboard/wallets/${w.id}`, decision === "approve" ? "rule_change_approved" : "rule_change_rejected");
    });
  }
  return app;
}
