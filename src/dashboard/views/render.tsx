import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { DashboardContext } from "../context";
import { Page, type NavKey } from "./layout";

export interface RenderOptions {
  title: string;
  active?: NavKey;
  status?: ContentfulStatusCode;
  /** Held proposals for the navigation badge; pages that already know it pass it. */
  pending?: number;
}

/** Renders a signed-in page (or a signed-out one when the request has no session). */
export function render(c: DashboardContext, o: RenderOptions, body: Child): Response | Promise<Response> {
  const session = c.get("session");
  return c.html(
    <Page title={o.title} session={session} active={o.active} pending={o.pending ?? c.get("pending")}>
      {body}
    </Page>,
    o.status ?? 200,
  );
}

/** A redirect after a successful POST, with a fixed notice code (never reflected text) for the next page. */
export function seeOther(c: DashboardContext, path: string, notice?: string): Response {
  const url = notice ? `${path}${path.includes("?") ? "&" : "?"}notice=${encodeURIComponent(notice)}` : path;
  return c.redirect(url, 303);
}

/** Notice codes a page may show after a redirect; unknown codes show nothing. */
export const NOTICES: Record<string, { kind: "ok" | "info"; text: string }> = {
  key_revoked: { kind: "ok", text: "The key was revoked. Requests with it now get 401." },
  signed_out_others: { kind: "ok", text: "Every other session was signed out." },
  wallet_created: { kind: "ok", text: "Wallet created. Fund it at the address below." },
  wallet_updated: { kind: "ok", text: "The wallet's rules were saved." },
  wallet_loosened: { kind: "ok", text: "The wallet's rules were saved. They are now looser than before, as the review showed." },
  loosening_saved: { kind: "ok", text: "Saved: who may loosen this wallet's rules." },
  loosening_default_saved: { kind: "ok", text: "Saved: new wallets start with this choice of who may loosen their rules." },
  rule_change_approved: { kind: "ok", text: "Approved: the rule change is applied (on top of the rules as they were now)." },
  rule_change_rejected: { kind: "ok", text: "Rejected: the rules stay as they were." },
  wallet_archived: { kind: "ok", text: "The wallet was archived." },
  proposal_rejected: { kind: "ok", text: "The proposal was rejected. Nothing was sent." },
  proposal_confirmed: { kind: "ok", text: "The proposal was confirmed and sent; it is waiting for the chain." },
  proposal_executed: { kind: "ok", text: "Confirmed: the transaction executed on chain." },
  proposal_blocked: { kind: "info", text: "Not sent: the re-check at confirmation blocked it (see the reasoning below)." },
  sandbox_credits: { kind: "ok", text: "Credits bought with sandbox USDC: the x402 payment settled on the sandbox chain (see the ledger)." },
  sandbox_funded: { kind: "ok", text: "The sandbox faucet sent the tokens; the balances below include them." },
  welcome: { kind: "ok", text: "Welcome to Arbiter. Create an API key for your agent to get started." },
  threshold_saved: { kind: "ok", text: "The low-credit threshold was saved." },
  webhook_paused: { kind: "ok", text: "Paused: events are kept and sent when you resume (within 24 hours)." },
  webhook_resumed: { kind: "ok", text: "Resumed: waiting events are being sent." },
  webhook_enabled: { kind: "ok", text: "Turned back on: new events will be sent. Resend the ones that failed from the log." },
  webhook_deleted: { kind: "ok", text: "The endpoint was deleted." },
  webhook_resent: { kind: "ok", text: "Queued to be sent again with its original webhook-id." },
};

export function noticeFrom(c: DashboardContext): { kind: "ok" | "info"; text: string } | null {
  const code = c.req.query("notice");
  return code ? (NOTICES[code] ?? null) : null;
}
