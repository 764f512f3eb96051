/**
 * The audit trail of rule changes and the pending ones (018_rule_changes.sql): who sent a change, what it
 * loosened or tightened field by field, and what became of it. Rows are written in the transaction that
 * changes the wallet (or records the pending change), so the trail cannot miss a change that committed.
 */
import type { Principal } from "../accounts/principal";
import { canonicalJson } from "../lib/canonical-json";
import { prefixedId } from "../lib/ids";
import type { Executor } from "./repo";
import { loosenedOf, tightenedOf, type FieldChange, type RulesPatch } from "./rule-diff";

import type { RuleChangeActorKind, RuleChangeStatus, WhoMayLoosen } from "../db/schema";

export type { RuleChangeStatus, WhoMayLoosen };
export const WHO_MAY_LOOSEN: readonly WhoMayLoosen[] = ["agent", "owner"];

/** Who sent a change: an API key (its id), an OAuth client (its client id), or the owner in the dashboard (user id). */
export interface Actor {
  kind: RuleChangeActorKind;
  id: string | null;
}

/** Pending changes one wallet may hold at once; past it an agent's loosening is refused until the owner decides. */
export const MAX_PENDING_PER_WALLET = 20;

export async function actorOf(ex: Executor, p: Principal): Promise<Actor> {
  if (p.authMethod === "session") {
    const s = p.credentialId ? await ex.selectFrom("sessions").select("user_id").where("id", "=", p.credentialId).where("account_id", "=", p.accountId).executeTakeFirst() : undefined;
    return { kind: "owner", id: s?.user_id ?? null };
  }
  if (p.authMethod === "oauth") {
    const t = p.credentialId ? await ex.selectFrom("oauth_tokens").select("client_id").where("id", "=", p.credentialId).where("account_id", "=", p.accountId).executeTakeFirst() : undefined;
    return { kind: "oauth", id: t?.client_id ?? p.credentialId };
  }
  return { kind: "api_key", id: p.credentialId };
}

/** Only the owner, signed in to the dashboard, decides about rules an agent may not loosen (SPEC 5's confirm rule). */
export const isOwner = (p: Principal): boolean => p.authMethod === "session";

export async function recordApplied(ex: Executor, o: { accountId: string; walletId: string; actor: Actor; changes: FieldChange[]; rulesVersion: number | null; now: Date }): Promise<string> {
  const id = prefixedId("rc");
  await ex
    .insertInto("wallet_rule_changes")
    .values({
      id,
      account_id: o.accountId,
      wallet_id: o.walletId,
      status: "applied",
      actor_kind: o.actor.kind,
      actor_id: o.actor.id,
      changes: JSON.stringify(o.changes),
      patch: null,
      expires_at: null,
      decided_by: null,
      decided_at: null,
      rules_version: o.rulesVersion,
      created_at: o.now,
      updated_at: o.now,
    })
    .execute();
  return id;
}

/**
 * Records a pending change, or returns the one already pending with the same fields from the same actor
 * (an agent retrying its call does not pile up copies for the owner). Called under the wallet's row lock.
 */
export async function recordPending(
  ex: Executor,
  o: { accountId: string; walletId: string; actor: Actor; changes: FieldChange[]; patch: RulesPatch; now: Date; windowMs: number },
): Promise<{ id: string; expiresAt: Date; reused: boolean } | { tooMany: true }> {
  const open = await ex
    .selectFrom("wallet_rule_changes")
    .select(["id", "patch", "actor_kind", "actor_id", "expires_at"])
    .where("account_id", "=", o.accountId)
    .where("wallet_id", "=", o.walletId)
    .where("status", "=", "pending")
    .where("expires_at", ">", o.now)
    .execute();
  const want = canonicalJson(o.patch);
  const same = open.find((r) => r.actor_kind === o.actor.kind && r.actor_id === o.actor.id && canonicalJson(r.patch) === want);
  if (same) return { id: same.id, expiresAt: new Date(same.expires_at!), reused: true };
  if (open.length >= MAX_PENDING_PER_WALLET) return { tooMany: true };
  const id = prefixedId("rc");
  const expiresAt = new Date(o.now.getTime() + o.windowMs);
  await ex
    .insertInto("wallet_rule_changes")
    .values({
      id,
      account_id: o.accountId,
      wallet_id: o.walletId,
      status: "pending",
      actor_kind: o.actor.kind,
      actor_id: o.actor.id,
      changes: JSON.stringify(o.changes),
      patch: JSON.stringify(o.patch),
      expires_at: expiresAt,
      decided_by: null,
      decided_at: null,
      rules_version: null,
      created_at: o.now,
      updated_at: o.now,
    })
    .execute();
  return { id, expiresAt, reused: false };
}

/** The wire shape of one rule change (dashboard, webhook payload fields use the same names). */
export interface RuleChange {
  id: string;
  walletId: string;
  status: RuleChangeStatus;
  actor: Actor;
  changes: FieldChange[];
  changed: string[];
  loosened: string[];
  tightened: string[];
  expiresAt: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  rulesVersion: number | null;
  createdAt: string;
}

export const ruleChangeUrl = (publicUrl: string, walletId: string, changeId: string) => `${publicUrl}/dashboard/wallets/${walletId}#rule-change-${changeId}`;

interface Row {
  id: string;
  wallet_id: string;
  status: string;
  actor_kind: string;
  actor_id: string | null;
  changes: unknown;
  expires_at: Date | null;
  decided_by: string | null;
  decided_at: Date | null;
  rules_version: number | null;
  created_at: Date;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** A pending change past its window reads `expired` before the sweep records it (as a held proposal does). */
export function ruleChangeWire(r: Row, now: Date): RuleChange {
  const changes = (Array.isArray(r.changes) ? r.changes : []) as FieldChange[];
  const expired = r.status === "pending" && r.expires_at !== null && new Date(r.expires_at).getTime() <= now.getTime();
  return {
    id: r.id,
    walletId: r.wallet_id,
    status: (expired ? "expired" : r.status) as RuleChangeStatus,
    actor: { kind: r.actor_kind as Actor["kind"], id: r.actor_id },
    changes,
    changed: changes.map((c) => c.text),
    loosened: loosenedOf(changes),
    tightened: tightenedOf(changes),
    expiresAt: iso(r.expires_at),
    decidedBy: r.decided_by,
    decidedAt: iso(r.decided_at),
    rulesVersion: r.rules_version,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

export const RULE_CHANGE_COLUMNS = ["id", "wallet_id", "status", "actor_kind", "actor_id", "changes", "expires_at", "decided_by", "decided_at", "rules_version", "created_at"] as const;

/** The wallet's rule changes, newest first (pending ones first among equals is the page's business). */
export async function listRuleChanges(ex: Executor, accountId: string, walletId: string, now: Date, limit = 50): Promise<RuleChange[]> {
  const rows = await ex
    .selectFrom("wallet_rule_changes")
    .select(RULE_CHANGE_COLUMNS)
    .where("account_id", "=", accountId)
    .where("wallet_id", "=", walletId)
    .orderBy("seq", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ruleChangeWire(r, now));
}
