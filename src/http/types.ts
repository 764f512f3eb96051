import type { Logger } from "pino";
import type { Principal } from "../accounts/principal";
import type { Services } from "../services";

export interface AppEnv {
  Variables: {
    principal: Principal;
  };
}

/** What every route module receives: the service verbs, a logger and the public URL. */
export interface RouteDeps {
  services: Services;
  logger: Logger;
  publicUrl: string;
}
