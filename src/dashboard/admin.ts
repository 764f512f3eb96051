import type { Hono } from "hono";
import type { AppEnv } from "../http/types";
import type { DashboardAuth } from "./auth/service";

/**
 * Operator route (behind the admin token): a one-time link that claims an account created by the admin API,
 * or sets a new password for its owner. `npm run cli -- account claim-link --account ACCOUNT_ID` prints it.
 */
export function claimLinkAdminMount(auth: DashboardAuth, publicUrl: string) {
  return (admin: Hono<AppEnv>) => {
    admin.post("/accounts/:accountId/claim-link", async (c) => {
      const { token, expiresAt, claimed } = await auth.issueClaimToken(c.req.param("accountId"));
      return c.json({ url: `${publicUrl}/dashboard/claim/${token}`, expiresAt: expiresAt.toISOString(), claimed }, 201);
    });
  };
}
