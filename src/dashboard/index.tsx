import { Hono, type MiddlewareHandler } from "hono";
import type { AppEnv, RouteDeps } from "../http/types";
import { isServiceError } from "../lib/errors";
import { statusOf } from "../http/errors";
import type { DashboardAuth } from "./auth/service";
import { requireSession } from "./auth/middleware";
import type { DashboardContext, DashboardDeps, DashboardEnv } from "./context";
import { CsrfRefused, originGuard, securityHeaders, sessionCsrf } from "./security";
import { assetRoutes } from "./assets";
import { authRoutes } from "./pages/auth";
import { overviewRoutes } from "./pages/overview";
import { keyRoutes } from "./pages/keys";
import { creditRoutes } from "./pages/credits";
import { verificationRoutes } from "./pages/verifications";
import { playgroundRoutes } from "./pages/playground";
import { traderRoutes } from "./pages/traders";
import { webhookRoutes } from "./pages/webhooks";
import { accountRoutes } from "./pages/account";
import { escrowRoutes } from "./pages/escrow";
import { oauthConsentRoutes, oauthPreflight } from "./pages/oauth-consent";
import { connectedClientRoutes } from "./pages/connected-clients";
import { embeddedRoutes } from "./pages/embedded-wallet";
import { sandboxRoutes } from "./pages/sandbox";
import { escrowEnabled } from "./escrow";
import { Notice } from "./views/components";
import { render } from "./views/render";

/** The navigation's count of proposals awaiting the owner, on every page load (one indexed query). */
function pendingBadge(deps: DashboardDeps): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    if (c.req.method === "GET" && !c.req.path.startsWith("/dashboard/api/") && escrowEnabled(deps.services)) {
      const held = await deps.services.proposals.list(c.get("principal"), { status: "awaiting_user", limit: 50 }).catch(() => []);
      c.set("pending", held.length);
    }
    return next();
  };
}

function errorPage(c: DashboardContext, err: unknown, deps: DashboardDeps): Response | Promise<Response> {
  if (err instanceof CsrfRefused) {
    return render(
      c,
      { title: "Request refused", status: 403 },
      <Notice kind="error">
        This request was refused: it did not come from a page of this dashboard, or the page had expired. Go back, reload the page and try again.
      </Notice>,
    );
  }
  if (isServiceError(err)) {
    const status = statusOf(err.kind);
    const title = status === 404 ? "Not found" : "Something went wrong";
    const text = status === 404 ? "There is nothing here on your account." : (err.detail ?? err.error);
    if (c.req.path.startsWith("/dashboard/api/")) return c.json(err.body(), status);
    return render(c, { title, status }, <Notice kind="error">{text}</Notice>);
  }
  deps.logger.error({ err, path: c.req.path }, "dashboard: unhandled error");
  return render(c, { title: "Something went wrong", status: 500 }, <Notice kind="error">An unexpected error occurred; nothing was done twice. Try again later.</Notice>);
}

/** The owner dashboard under /dashboard: server-rendered pages over the same service verbs as the API. */
export function createDashboard(deps: DashboardDeps): Hono<DashboardEnv> {
  const app = new Hono<DashboardEnv>();
  app.use("*", securityHeaders);
  app.route("/assets", assetRoutes(deps.logger));
  app.use("*", originGuard(deps.publicUrl));
  app.route("/", authRoutes(deps));
  app.use("/oauth/authorize", oauthPreflight(deps));

  app.use("*", requireSession(deps.auth));
  app.use("*", sessionCsrf);
  app.use("*", pendingBadge(deps));
  app.route("/", overviewRoutes(deps));
  app.route("/", keyRoutes(deps));
  app.route("/", creditRoutes(deps));
  app.route("/", verificationRoutes(deps));
  app.route("/", playgroundRoutes(deps));
  app.route("/", traderRoutes(deps));
  app.route("/", webhookRoutes(deps));
  app.route("/", accountRoutes(deps));
  app.route("/", oauthConsentRoutes(deps));
  app.route("/", connectedClientRoutes(deps));
  app.route("/", sandboxRoutes(deps));
  app.route("/", embeddedRoutes(deps)); // before escrowRoutes: /wallets/connect is not a wallet id
  app.route("/", escrowRoutes(deps));
  app.all("*", (c) => render(c, { title: "Not found", status: 404 }, <Notice kind="error">There is no such page.</Notice>));

  app.onError((err, c) => errorPage(c, err, deps));
  return app;
}

/** The mount for createApp: `/dashboard` pages, and `/dashboard/` redirected to the overview. */
export function dashboardMount(opts: { auth: DashboardAuth; judgeAddress: string }) {
  return (app: Hono<AppEnv>, deps: RouteDeps) => {
    const { protocol, hostname } = new URL(deps.publicUrl);
    if (protocol !== "https:" && !/^(localhost|127(\.\d+){3}|\[::1\])$/.test(hostname)) {
      deps.logger.warn({ publicUrl: deps.publicUrl }, "dashboard: sign-in needs HTTPS (its cookies are Secure); only localhost and 127.0.0.1 work over plain HTTP");
    }
    const dashboard = createDashboard({ ...deps, ...opts });
    app.get("/dashboard/", (c) => c.redirect("/dashboard", 301));
    app.route("/dashboard", dashboard as unknown as Hono<AppEnv>);
  };
}
