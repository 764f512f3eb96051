/**
 * Shared pieces of the OAuth 2.1 authorization server (docs/oauth.md): lifetimes, scopes, PKCE, opaque
 * secrets. Every secret is 256 random bits with a type prefix and is stored only as its SHA-256.
 */
import { createHash } from "node:crypto";
import type { Logger } from "pino";
import type { Database } from "../db/client";
import type { Clock } from "../lib/clock";
import { safeEqual } from "../lib/hashing";
import { secretToken } from "../lib/ids";
import { hashSecret } from "../accounts/api-keys";
import type { Scope } from "../accounts/principal";
import { OAuthError } from "./errors";

export const ACCESS_TOKEN_PREFIX = "svc_at_";
export const REFRESH_TOKEN_PREFIX = "svc_rt_";
export const CODE_PREFIX = "svc_ac_";

export interface OAuthLifetimes {
  /** Access tokens: short-lived (default 1 hour). */
  accessTtlSeconds: number;
  /** Refresh tokens: each rotation issues a new one with this lifetime (default 30 days). */
  refreshTtlSeconds: number;
  /** Authorization codes (default 60 seconds). */
  codeTtlSeconds: number;
}

export const DEFAULT_LIFETIMES: OAuthLifetimes = { accessTtlSeconds: 3600, refreshTtlSeconds: 30 * 24 * 3600, codeTtlSeconds: 60 };

export interface OAuthDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** PUBLIC_URL without a trailing slash: the issuer. */
  publicUrl: string;
  /**
   * The one protected resource these tokens are for (RFC 8707): the MCP endpoint's URL. The composition
   * root (src/deps.ts) passes it in, so this capability never imports the MCP transport for its path.
   */
  mcpResource: string;
  lifetimes: OAuthLifetimes;
}

export const SUPPORTED_SCOPES: readonly Scope[] = ["mcp", "wallet"];

/**
 * Parses a space-delimited scope (RFC 6749 3.3). Unknown values are `invalid_scope`. `mcp` is implied by
 * every grant (SPEC 5: `wallet` *adds* tools to `mcp`); an absent scope means `mcp`.
 */
export function parseScope(raw: string | undefined | null): Scope[] {
  const parts = (raw ?? "").split(" ").filter(Boolean);
  for (const p of parts) {
    if (!SUPPORTED_SCOPES.includes(p as Scope)) throw new OAuthError("invalid_scope", `unknown scope "${p.slice(0, 40)}"; supported: mcp, wallet`);
  }
  return parts.includes("wallet") ? ["mcp", "wallet"] : ["mcp"];
}

export const scopeString = (s: readonly Scope[]) => (s.includes("wallet") ? "mcp wallet" : "mcp");

/** RFC 7636 4.1: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]. An S256 challenge is 43 base64url characters. */
const VERIFIER_RE = /^[A-Za-z0-9._~-]{43,128}$/;
export const CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;

export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER_RE.test(verifier)) return false;
  const computed = createHash("sha256").update(verifier, "ascii").digest("base64url");
  return safeEqual(computed, challenge);
}

export function newSecret(prefix: string): { secret: string; hash: string } {
  const secret = `${prefix}${secretToken(256)}`;
  return { secret, hash: hashSecret(secret) };
}

export const hashOf = (secret: string) => hashSecret(secret);

export const secondsFrom = (now: Date, s: number) => new Date(now.getTime() + s * 1000);
