import type { Context } from "hono";
import type { Logger } from "pino";
import type { Principal } from "../accounts/principal";
import type { Services } from "../services";
import type { DashboardAuth, Session } from "./auth/service";

/** Variables set on every dashboard request: the session (and its principal) once signed in. */
export interface DashboardEnv {
  Variables: {
    principal: Principal;
    session: Session;
    /** Held proposals of the account, for the navigation badge (set on page loads). */
    pending: number | undefined;
  };
}

export type DashboardContext = Context<DashboardEnv>;

/** What the dashboard routes receive: the same service verbs as the API, plus the owner sign-in service. */
export interface DashboardDeps {
  services: Services;
  auth: DashboardAuth;
  logger: Logger;
  publicUrl: string;
  /** The judge key's address: receipts are checked against it. */
  judgeAddress: string;
}
