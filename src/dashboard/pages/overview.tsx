import { Hono } from "hono";
import type { DashboardDeps, DashboardEnv } from "../context";
import { Empty, Time, Verdict } from "../views/components";
import { credits, usd, verificationTitle } from "../views/format";
import { render } from "../views/render";
import { TraderState } from "./traders";
import { escrowEnabled } from "../escrow";
import { HeldList, WalletCards } from "./escrow-widgets";
import { ActivityCharts } from "./activity-charts";

export function overviewRoutes(deps: DashboardDeps) {
  const { services } = deps;
  const escrow = escrowEnabled(services);
  const app = new Hono<DashboardEnv>();
  app.get("/", async (c) => {
    const principal = c.get("principal");
    const [info, recent, traders, wallets, held, verdicts, creditDays, outcomes] = await Promise.all([
      services.credits.get(principal),
      services.verification.list(principal, { limit: 5 }),
      services.heartbeats.list(principal),
      escrow ? services.wallets.list(principal) : Promise.resolve(null),
      escrow ? services.proposals.list(principal, { status: "awaiting_user", limit: 50 }) : Promise.resolve(null),
      services.insights.verdictsPerDay(principal),
      services.insights.creditsPerDay(principal),
      escrow ? services.insights.proposalOutcomes(principal) : Promise.resolve(null),
    ]);
    const stale = traders.filter((t) => t.stale);
    return render(
      c,
      { title: "Overview", active: "overview", pending: held?.length },
      <>
        <section class="stat-row">
          <a class="stat card" href="/dashboard/credits">
            <span class="stat-label">Credits</span>
            <span class="stat-value">{credits(info.creditsRemaining)}</span>
            <span class="help">{usd(info.creditsRemaining * info.priceUsdPerCredit)}</span>
          </a>
          {held && (
            <a class="stat card" href="/dashboard/proposals">
              <span class="stat-label">Awaiting you</span>
              <span class="stat-value">{held.length}</span>
              <span class="help">held proposals</span>
            </a>
          )}
          {wallets && (
            <a class="stat card" href="/dashboard/wallets">
              <span class="stat-label">Wallets</span>
              <span class="stat-value">{wallets.length}</span>
              <span class="help">{usd(wallets.reduce((s, w) => s + (w.balanceUsd ?? 0), 0))} held</span>
            </a>
          )}
          <a class="stat card" href="/dashboard/traders">
            <span class="stat-label">Traders</span>
            <span class="stat-value">{traders.length}</span>
            <span class={stale.length ? "help warn-text" : "help"}>{stale.length ? `${stale.length} stale` : "all reporting"}</span>
          </a>
        </section>

        <ActivityCharts verdicts={verdicts} credits={creditDays} outcomes={outcomes} />

        {held && (
          <section>
            <h2>Proposals awaiting you</h2>
            {held.length === 0 ? (
              <Empty title="Nothing is waiting for your confirmation." />
            ) : (
              <HeldList items={held.slice(0, 5)} names={new Map((wallets ?? []).map((w) => [w.id, w.name]))} />
            )}
          </section>
        )}

        <section>
          <h2>Recent verifications</h2>
          {recent.length === 0 ? (
            <Empty title="No verifications yet.">
              <p>
                Create an <a href="/dashboard/keys">API key</a> for your agent, or try the <a href="/dashboard/playground">playground</a>.
              </p>
            </Empty>
          ) : (
            <ul class="list">
              {recent.map((v) => (
                <li>
                  <Verdict v={v.verdict} /> <a href={`/dashboard/verifications/${v.id}`}>{verificationTitle(v, 90)}</a>{" "}
                  <span class="muted">
                    <Time d={v.created_at} />
                  </span>
                </li>
              ))}
            </ul>
          )}
          <p>
            <a href="/dashboard/verifications">All verifications</a>
          </p>
        </section>

        {wallets && (
          <section>
            <h2>Wallets</h2>
            {wallets.length === 0 ? (
              <Empty title="No live wallets.">
                <p>
                  <a href="/dashboard/wallets/new">Create a wallet</a>: funds move only through judged proposals. Archived wallets are listed on the{" "}
                  <a href="/dashboard/wallets?archived=1">wallets page</a>.
                </p>
              </Empty>
            ) : (
              <WalletCards wallets={wallets} />
            )}
          </section>
        )}

        <section>
          <h2>Traders</h2>
          {traders.length === 0 ? (
            <Empty title="No trader has reported yet." />
          ) : (
            <ul class="list">
              {traders.map((t) => (
                <li>
                  <strong>{t.name}</strong> <TraderState t={t} /> <span class="muted">last tick <Time d={t.lastTickAt} /></span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </>,
    );
  });
  return app;
}
