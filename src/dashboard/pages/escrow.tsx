import { Hono } from "hono";
import type { DashboardContext } from "../context";
import type { DashboardDeps, DashboardEnv } from "../context";
import { escrowEnabled } from "../escrow";
import { Notice } from "../views/components";
import { render } from "../views/render";
import { walletListRoutes } from "./wallets";
import { walletDetailRoutes } from "./wallet-detail";
import { walletRuleChangeRoutes } from "./wallet-rule-changes";
import { walletRulesRoutes } from "./wallet-rules";
import { withdrawRoutes } from "./withdraw";
import { proposalRoutes } from "./proposals";

/** Wallets, proposals and withdrawals; a plain notice while the deployment has no escrow wallets. */
export function escrowRoutes(deps: DashboardDeps) {
  const app = new Hono<DashboardEnv>();
  if (!escrowEnabled(deps.services)) {
    const off = (title: string, active: "wallets" | "proposals") => (c: DashboardContext) =>
      render(c, { title, active }, <Notice kind="info">Escrow wallets are not enabled on this deployment (no Base chain is configured).</Notice>);
    app.get("/wallets", off("Wallets", "wallets"));
    app.get("/wallets/*", off("Wallets", "wallets"));
    app.get("/proposals", off("Proposals", "proposals"));
    app.get("/proposals/*", off("Proposals", "proposals"));
    return app;
  }
  app.route("/", walletListRoutes(deps));
  app.route("/", walletRulesRoutes(deps));
  app.route("/", walletRuleChangeRoutes(deps));
  app.route("/", withdrawRoutes(deps));
  app.route("/", walletDetailRoutes(deps));
  app.route("/", proposalRoutes(deps));
  return app;
}
