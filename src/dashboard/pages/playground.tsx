import { Hono } from "hono";
import { isServiceError } from "../../lib/errors";
import { PRESETS } from "../../judge/types";
import { ADAPTER_IDS } from "../../venues/ids";
import { VerifyRequest } from "../../verification/schemas";
import type { DashboardContext, DashboardDeps, DashboardEnv } from "../context";
import { CsrfField, Notice } from "../views/components";
import { credits } from "../views/format";
import { render } from "../views/render";

interface FormValues {
  intent: string;
  action: string;
  format: "text" | "json";
  venue: string;
  preset: string;
  context: string;
}

const EMPTY: FormValues = { intent: "", action: "", format: "text", venue: "", preset: "generic", context: "" };

/** Built-in examples, each with the verdict it is there to show (test/dashboard/playground-examples.test.ts runs them). */
export const EXAMPLES: Record<string, { label: string; shows: "ALLOW" | "BLOCK" | "ESCALATE"; values: FormValues }> = {
  transfer: {
    label: "A USDC payment",
    shows: "ALLOW",
    values: {
      ...EMPTY,
      preset: "payments",
      intent: "Pay invoices of at most 50 USDC, only to 0x1111111111111111111111111111111111111111.",
      action: "Send 20 USDC on Base to 0x1111111111111111111111111111111111111111 for invoice 42.",
    },
  },
  stranger: {
    label: "A payment to a stranger",
    shows: "BLOCK",
    values: {
      ...EMPTY,
      preset: "payments",
      intent: "Pay invoices of at most 50 USDC, only to 0x1111111111111111111111111111111111111111.",
      action: "Send 20 USDC on Base to 0x2222222222222222222222222222222222222222 for invoice 43.",
    },
  },
  order: {
    label: "A perp order",
    shows: "ALLOW",
    values: {
      ...EMPTY,
      preset: "trading",
      format: "json",
      venue: "hyperliquid",
      intent: "Trade only BTC and ETH perps, at most $2,000 notional per order. No market orders.",
      action: JSON.stringify({ type: "order", orders: [{ a: 0, b: true, p: "60000", s: "0.01", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" }, null, 2),
      // Hyperliquid orders name assets by index: the context says which asset 0 is, and its price.
      context: JSON.stringify({ assets: { "0": "BTC", "1": "ETH" }, prices: { BTC: 60000, ETH: 3000 } }, null, 2),
    },
  },
  oversized: {
    label: "An order over the cap",
    shows: "BLOCK",
    values: {
      ...EMPTY,
      preset: "trading",
      format: "json",
      venue: "hyperliquid",
      intent: "Trade only BTC and ETH perps, at most $2,000 notional per order. No market orders.",
      action: JSON.stringify({ type: "order", orders: [{ a: 0, b: true, p: "60000", s: "0.05", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" }, null, 2),
      context: JSON.stringify({ assets: { "0": "BTC", "1": "ETH" }, prices: { BTC: 60000, ETH: 3000 } }, null, 2),
    },
  },
};

function Form(p: { csrf: string; v: FormValues; error?: string; balance: number }) {
  const v = p.v;
  return (
    <>
      <p>
        Runs a verification as your agents do: it costs one credit (you have {credits(p.balance)}), is recorded with source “dashboard” and can be
        read by the API at <code>GET /api/v1/intent/&#123;id&#125;</code>.
      </p>
      <p class="help">
        Examples:{" "}
        {Object.entries(EXAMPLES).map(([k, e], i) => (
          <>
            {i > 0 && " · "}
            <a href={`/dashboard/playground?example=${k}`}>{e.label}</a> <span class="muted">({e.shows})</span>
          </>
        ))}
      </p>
      {p.error && <Notice kind="error">{p.error}</Notice>}
      <form method="post" action="/dashboard/playground" class="stack card">
        <CsrfField token={p.csrf} />
        <label for="intent">Intent: the owner's rules</label>
        <textarea id="intent" name="intent" rows={4} required maxlength={20000}>
          {v.intent}
        </textarea>
        <fieldset class="row-fields">
          <legend>Action format</legend>
          <label>
            <input type="radio" name="format" value="text" checked={v.format === "text"} /> Plain text (judged as written)
          </label>
          <label>
            <input type="radio" name="format" value="json" checked={v.format === "json"} /> JSON (the venue's native payload)
          </label>
        </fieldset>
        <label for="action">Action: what the agent wants to do</label>
        <textarea id="action" name="action" rows={8} required class="mono" maxlength={200000}>
          {v.action}
        </textarea>
        <div class="grid2">
          <div class="stack">
            <label for="venue">Venue</label>
            <select id="venue" name="venue">
              <option value="" selected={!v.venue}>
                Detect from the action
              </option>
              {ADAPTER_IDS.map((id) => (
                <option value={id} selected={v.venue === id}>
                  {id}
                </option>
              ))}
            </select>
          </div>
          <div class="stack">
            <label for="preset">Judge preset</label>
            <select id="preset" name="preset">
              {PRESETS.map((id) => (
                <option value={id} selected={v.preset === id}>
                  {id}
                </option>
              ))}
            </select>
          </div>
        </div>
        <label for="context">Context (optional JSON object: prices, positions, counters)</label>
        <textarea id="context" name="context" rows={3} class="mono" maxlength={100000}>
          {v.context}
        </textarea>
        <button type="submit" class="btn">
          Run verification (1 credit)
        </button>
      </form>
    </>
  );
}

/** Turns the form into the API's request, or says what is wrong with it. */
export function toVerifyRequest(v: FormValues): { ok: true; req: VerifyRequest } | { ok: false; error: string } {
  let action: unknown = v.action;
  if (v.format === "json") {
    try {
      action = JSON.parse(v.action);
    } catch {
      return { ok: false, error: "The action is not valid JSON. Fix it, or choose “Plain text”." };
    }
    if (typeof action !== "object" || action === null || Array.isArray(action)) return { ok: false, error: "A JSON action must be an object (wrap a list in one, e.g. {\"calls\": [...]})." };
  }
  let context: unknown;
  if (v.context.trim()) {
    try {
      context = JSON.parse(v.context);
    } catch {
      return { ok: false, error: "The context is not valid JSON." };
    }
    if (typeof context !== "object" || context === null || Array.isArray(context)) return { ok: false, error: "The context must be a JSON object." };
  }
  const parsed = VerifyRequest.safeParse({ intent: v.intent, action, ...(v.venue ? { venue: v.venue } : {}), preset: v.preset, ...(context ? { context } : {}) });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Invalid input." };
  return { ok: true, req: parsed.data };
}

export function playgroundRoutes(deps: DashboardDeps) {
  const { verification, credits: creditsService } = deps.services;
  const app = new Hono<DashboardEnv>();
  const page = async (c: DashboardContext, v: FormValues, error?: string, status: 200 | 400 | 402 | 502 = 200) => {
    const { creditsRemaining } = await creditsService.get(c.get("principal"));
    return render(c, { title: "Playground", active: "playground", status }, <Form csrf={c.get("session").csrfToken} v={v} error={error} balance={creditsRemaining} />);
  };

  app.get("/playground", (c) => page(c, EXAMPLES[c.req.query("example") ?? ""]?.values ?? EMPTY));
  app.post("/playground", async (c) => {
    const b = await c.req.parseBody();
    const s = (k: string) => (typeof b[k] === "string" ? (b[k] as string) : "");
    const v: FormValues = { intent: s("intent"), action: s("action"), format: s("format") === "json" ? "json" : "text", venue: s("venue"), preset: s("preset") || "generic", context: s("context") };
    const parsed = toVerifyRequest(v);
    if (!parsed.ok) return page(c, v, parsed.error, 400);
    try {
      const result = await verification.verify(c.get("principal"), parsed.req, "dashboard");
      return c.redirect(`/dashboard/verifications/${result.id}?ran=1`, 303);
    } catch (err) {
      if (isServiceError(err) && err.kind === "payment_required") return page(c, v, "You are out of credits. Top up on the Credits page, then run it again.", 402);
      if (isServiceError(err) && err.kind === "upstream_failed") return page(c, v, `${err.detail ?? err.error}`, 502);
      throw err;
    }
  });
  return app;
}
