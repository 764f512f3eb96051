import type { Child } from "hono/jsx";
import { isoOf, short, utc } from "./format";
import type { ProposalStatus } from "../../proposals/state";

export const CsrfField = (p: { token: string }) => <input type="hidden" name="_csrf" value={p.token} />;

/** A dismissal-free notice: `status` for good news, `alert` for errors (screen readers announce both). */
export function Notice(p: { kind: "ok" | "error" | "warn" | "info"; children: Child }) {
  return (
    <div class={`notice notice-${p.kind}`} role={p.kind === "error" ? "alert" : "status"}>
      {p.children}
    </div>
  );
}

export function Empty(p: { title: string; children?: Child }) {
  return (
    <div class="empty">
      <p class="empty-title">{p.title}</p>
      {p.children}
    </div>
  );
}

export function Time(p: { d: Date | string | null | undefined }) {
  const iso = isoOf(p.d);
  if (!iso) return <span class="muted">never</span>;
  return (
    <time datetime={iso} title={iso}>
      {utc(iso)}
    </time>
  );
}

const VERDICT_CLASS: Record<string, string> = { ALLOW: "v-allow", BLOCK: "v-block", ESCALATE: "v-escalate" };

export function Verdict(p: { v: string | null | undefined }) {
  const v = p.v ?? null;
  return <span class={`verdict ${v ? (VERDICT_CLASS[v] ?? "") : "v-none"}`}>{v ?? "no decision"}</span>;
}

const PROPOSAL_STATUS_CLASS = {
  awaiting_user: "s-held",
  executed: "s-ok",
  executing: "s-busy",
  verifying: "s-busy",
  blocked: "s-bad",
  failed: "s-bad",
  rejected: "s-muted",
  expired: "s-muted",
} satisfies Record<ProposalStatus, string>;
/** Proposals, and rule changes on the wallet page (a pending one waits for the owner like a held proposal). */
const STATUS_CLASS: Record<string, string> = { ...PROPOSAL_STATUS_CLASS, pending: "s-held", applied: "s-ok", approved: "s-ok" };

export function Status(p: { s: string }) {
  return <span class={`status ${STATUS_CLASS[p.s] ?? ""}`}>{p.s === "awaiting_user" ? "awaiting you" : p.s.replace(/_/g, " ")}</span>;
}

/** A value with a copy button (app.js wires `data-copy`; without JavaScript the value stays selectable). */
export function Copy(p: { value: string; label: string; shorten?: boolean }) {
  return (
    <span class="copy">
      <code title={p.value}>{p.shorten ? short(p.value) : p.value}</code>
      <button type="button" class="btn-small" data-copy={p.value} aria-label={`Copy ${p.label}`}>
        Copy
      </button>
    </span>
  );
}

export function Field(p: { label: string; children: Child }) {
  return (
    <div class="kv">
      <dt>{p.label}</dt>
      <dd>{p.children}</dd>
    </div>
  );
}

export function ExternalLink(p: { href: string; children: Child }) {
  return (
    <a href={p.href} rel="noopener noreferrer" target="_blank">
      {p.children}
      <span class="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

/** A one-button form that POSTs to `action` with the session's CSRF token; `confirm` asks first (app.js). */
export function PostButton(p: { action: string; csrf: string; label: string; class: string; confirm?: string }) {
  return (
    <form method="post" action={p.action} data-confirm={p.confirm}>
      <CsrfField token={p.csrf} />
      <button type="submit" class={p.class}>
        {p.label}
      </button>
    </form>
  );
}
