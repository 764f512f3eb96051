import type { Context, MiddlewareHandler } from "hono";
import { ServiceError } from "../lib/errors";
import type { AccountsService } from "../accounts/service";
import type { AppEnv } from "./types";

/** The credential an HTTP request carries: `x-api-key` wins over `Authorization: Bearer` (SPEC 5). */
export function presentedKey(c: Context): string | null {
  const header = c.req.header("x-api-key");
  if (header !== undefined && header.trim() !== "") return header.trim();
  const auth = c.req.header("authorization");
  const m = auth?.match(/^Bearer\s+(.+)$/i);
  return m ? m[1].trim() : null;
}

export const missingKey = () => new ServiceError("unauthenticated", "missing API key (send x-api-key)");
export const badKey = () => new ServiceError("unauthenticated", "invalid or revoked API key");

/** Requires a valid API key and sets `principal`. */
export function requireApiKey(accounts: AccountsService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = presentedKey(c);
    if (!key) throw missingKey();
    const principal = await accounts.authenticateApiKey(key);
    if (!principal) throw badKey();
    c.set("principal", principal);
    await next();
  };
}
