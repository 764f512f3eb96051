import type { Database } from "../../db/client";
import type { Clock } from "../../lib/clock";
import { ServiceError } from "../../lib/errors";
import { prefixedId, secretToken } from "../../lib/ids";
import { hashSecret } from "../../accounts/api-keys";
import { ALL_SCOPES, type Principal } from "../../accounts/principal";
import type { AccountsService } from "../../accounts/service";
import { decoyHash, hashPassword, passwordProblem, verifyPassword } from "./password";
import { createThrottle, LIMITS } from "../../rate-limits/throttle";

/** A session lasts at most 7 days, and ends after 12 hours without a request. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;
export const SESSION_IDLE_MS = 12 * 3600_000;
/** One-time claim links expire after 24 hours. */
export const CLAIM_TTL_MS = 24 * 3600_000;

export interface Session {
  id: string;
  userId: string;
  accountId: string;
  email: string;
  csrfToken: string;
  expiresAt: Date;
}

/** A new session and the secret for its cookie (the database keeps only its hash). */
export interface IssuedSession {
  session: Session;
  token: string;
}

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const SIGNIN_FAILED = "Email or password is incorrect.";
const TOO_MANY = "Too many attempts. Wait 15 minutes and try again.";

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function emailProblem(email: string): string | null {
  if (email.length > 254 || !EMAIL_RE.test(email)) return "Enter a valid email address.";
  return null;
}

const invalid = (msg: string) => new ServiceError("invalid_input", "invalid_input", msg);

export function sessionPrincipal(s: Session): Principal {
  return { accountId: s.accountId, authMethod: "session", scopes: ALL_SCOPES, credentialId: s.id };
}

export function createDashboardAuth({ db, clock, accounts }: { db: Database; clock: Clock; accounts: AccountsService }) {
  const throttle = createThrottle({ db, clock });

  async function openSession(user: { id: string; account_id: string; email: string }, client: ClientInfo, tx: Database = db): Promise<IssuedSession> {
    const token = secretToken(256);
    const now = clock.now();
    const session: Session = {
      id: prefixedId("ses"),
      userId: user.id,
      accountId: user.account_id,
      email: user.email,
      csrfToken: secretToken(256),
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
    };
    await tx
      .insertInto("sessions")
      .values({
        id: session.id,
        user_id: user.id,
        account_id: user.account_id,
        token_hash: hashSecret(token),
        csrf_token: session.csrfToken,
        user_agent: client.userAgent?.slice(0, 300) ?? null,
        ip: client.ip.slice(0, 64),
        created_at: now,
        last_seen_at: now,
        expires_at: session.expiresAt,
        revoked_at: null,
      })
      .execute();
    return { session, token };
  }

  return {
    /** Creates an account (through the accounts service) and its owner user, and signs the owner in. */
    async signUp(input: { email: string; password: string; accountName: string }, client: ClientInfo): Promise<IssuedSession> {
      const email = normalizeEmail(input.email);
      const problem = emailProblem(email) ?? passwordProblem(input.password);
      if (problem) throw invalid(problem);
      const ipBucket = `signup:ip:${client.ip}`;
      if (await throttle.exceeded([{ bucket: ipBucket, limit: LIMITS.signupPerIp }])) throw new ServiceError("rate_limited", "rate_limited", TOO_MANY);
      await throttle.record(ipBucket);
      const passwordHash = await hashPassword(input.password);
      const name = input.accountName.trim().slice(0, 200) || email.split("@")[0];
      try {
        return await db.transaction().execute(async (tx) => {
          const { accountId } = await accounts.openAccount(tx, { name });
          const user = { id: prefixedId("usr"), account_id: accountId, email };
          await tx.insertInto("users").values({ ...user, password_hash: passwordHash }).execute();
          return openSession(user, client, tx);
        });
      } catch (err) {
        if (String((err as { code?: string }).code) === "23505") throw new ServiceError("conflict", "conflict", "This email cannot be used to sign up. Sign in instead, or use another email.");
        throw err;
      }
    },

    async signIn(input: { email: string; password: string }, client: ClientInfo): Promise<IssuedSession> {
      const email = normalizeEmail(input.email);
      const emailBucket = `signin:email:${email}`;
      const ipBucket = `signin:ip:${client.ip}`;
      if (await throttle.exceeded([{ bucket: emailBucket, limit: LIMITS.signinPerEmail }, { bucket: ipBucket, limit: LIMITS.signinPerIp }])) {
        throw new ServiceError("rate_limited", "rate_limited", TOO_MANY);
      }
      const user = input.password.length <= 256 ? await db.selectFrom("users").select(["id", "account_id", "email", "password_hash"]).where("email", "=", email).executeTakeFirst() : undefined;
      const ok = await verifyPassword(input.password.slice(0, 256), user?.password_hash ?? (await decoyHash()));
      if (!user || !ok) {
        await throttle.record(emailBucket, ipBucket);
        throw new ServiceError("unauthenticated", "invalid_credentials", SIGNIN_FAILED);
      }
      await throttle.clear(emailBucket);
      return openSession(user, client);
    },

    /** The live session a cookie secret names, or null (unknown, revoked, expired or idle too long). */
    async authenticate(token: string): Promise<Session | null> {
      const row = await db
        .selectFrom("sessions")
        .innerJoin("users", "users.id", "sessions.user_id")
        .select(["sessions.id", "sessions.user_id", "sessions.account_id", "sessions.csrf_token", "sessions.expires_at", "sessions.last_seen_at", "sessions.revoked_at", "users.email"])
        .where("sessions.token_hash", "=", hashSecret(token))
        .executeTakeFirst();
      if (!row || row.revoked_at) return null;
      const now = clock.now().getTime();
      const lastSeen = new Date(row.last_seen_at).getTime();
      if (new Date(row.expires_at).getTime() <= now || now - lastSeen > SESSION_IDLE_MS) return null;
      if (now - lastSeen > 60_000) await db.updateTable("sessions").set({ last_seen_at: new Date(now) }).where("id", "=", row.id).execute();
      return { id: row.id, userId: row.user_id, accountId: row.account_id, email: row.email, csrfToken: row.csrf_token, expiresAt: new Date(row.expires_at) };
    },

    async signOut(sessionId: string): Promise<void> {
      await db.updateTable("sessions").set({ revoked_at: clock.now() }).where("id", "=", sessionId).where("revoked_at", "is", null).execute();
    },

    /** Ends every session of the user, this one included. */
    async signOutEverywhere(userId: string): Promise<number> {
      const res = await db.updateTable("sessions").set({ revoked_at: clock.now() }).where("user_id", "=", userId).where("revoked_at", "is", null).executeTakeFirst();
      return Number(res.numUpdatedRows);
    },

    async listSessions(userId: string) {
      const now = clock.now();
      return db
        .selectFrom("sessions")
        .select(["id", "user_agent", "ip", "created_at", "last_seen_at", "expires_at"])
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", now)
        .where("last_seen_at", ">", new Date(now.getTime() - SESSION_IDLE_MS))
        .orderBy("last_seen_at", "desc")
        .execute();
    },

    /**
     * A one-time link to set the owner's password of an account: claims an account created by the admin API,
     * or resets the owner's password (every session then ends). Earlier unused links of the account stop working.
     */
    async issueClaimToken(accountId: string): Promise<{ token: string; expiresAt: Date; claimed: boolean }> {
      await accounts.get(accountId); // 404 for an unknown account
      const token = secretToken(256);
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + CLAIM_TTL_MS);
      await db.transaction().execute(async (tx) => {
        await tx.updateTable("claim_tokens").set({ expires_at: now }).where("account_id", "=", accountId).where("used_at", "is", null).where("expires_at", ">", now).execute();
        await tx.insertInto("claim_tokens").values({ id: prefixedId("clm"), account_id: accountId, token_hash: hashSecret(token), expires_at: expiresAt, used_at: null, created_at: now }).execute();
      });
      const owner = await db.selectFrom("users").select("id").where("account_id", "=", accountId).executeTakeFirst();
      return { token, expiresAt, claimed: Boolean(owner) };
    },

    /** What a claim link would do, or null when it is unknown, used or expired. */
    async describeClaim(token: string): Promise<{ accountName: string; ownerEmail: string | null } | null> {
      const row = await db
        .selectFrom("claim_tokens")
        .innerJoin("accounts", "accounts.id", "claim_tokens.account_id")
        .select(["claim_tokens.account_id", "accounts.name", "claim_tokens.used_at", "claim_tokens.expires_at"])
        .where("claim_tokens.token_hash", "=", hashSecret(token))
        .executeTakeFirst();
      if (!row || row.used_at || new Date(row.expires_at).getTime() <= clock.now().getTime()) return null;
      const owner = await db.selectFrom("users").select("email").where("account_id", "=", row.account_id).executeTakeFirst();
      return { accountName: row.name, ownerEmail: owner?.email ?? null };
    },

    async redeemClaim(token: string, input: { email: string; password: string }, client: ClientInfo): Promise<IssuedSession> {
      const ipBucket = `claim:ip:${client.ip}`;
      if (await throttle.exceeded([{ bucket: ipBucket, limit: LIMITS.claimPerIp }])) throw new ServiceError("rate_limited", "rate_limited", TOO_MANY);
      const pwProblem = passwordProblem(input.password);
      if (pwProblem) throw invalid(pwProblem);
      const passwordHash = await hashPassword(input.password);
      const expired = new ServiceError("not_found", "not_found", "This link is invalid, used or expired. Ask the operator for a new one.");
      try {
        return await db.transaction().execute(async (tx) => {
          const now = clock.now();
          const claim = await tx
            .updateTable("claim_tokens")
            .set({ used_at: now })
            .where("token_hash", "=", hashSecret(token))
            .where("used_at", "is", null)
            .where("expires_at", ">", now)
            .returning(["account_id"])
            .executeTakeFirst();
          if (!claim) throw expired;
          const owner = await tx.selectFrom("users").select(["id", "account_id", "email"]).where("account_id", "=", claim.account_id).executeTakeFirst();
          if (owner) {
            await tx.updateTable("users").set({ password_hash: passwordHash, password_changed_at: now }).where("id", "=", owner.id).execute();
            await tx.updateTable("sessions").set({ revoked_at: now }).where("user_id", "=", owner.id).where("revoked_at", "is", null).execute();
            return openSession(owner, client, tx);
          }
          const email = normalizeEmail(input.email);
          const problem = emailProblem(email);
          if (problem) throw invalid(problem);
          const user = { id: prefixedId("usr"), account_id: claim.account_id, email };
          await tx.insertInto("users").values({ ...user, password_hash: passwordHash }).execute();
          return openSession(user, client, tx);
        });
      } catch (err) {
        if (err === expired) await throttle.record(ipBucket);
        if (String((err as { code?: string }).code) === "23505") throw new ServiceError("conflict", "conflict", "This email cannot be used. Use another email.");
        throw err;
      }
    },
  };
}
export type DashboardAuth = ReturnType<typeof createDashboardAuth>;
