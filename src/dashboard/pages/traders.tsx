import { Hono } from "hono";
import { LineChart } from "../views/charts";
import type { HeartbeatRecord } from "../../heartbeats/schemas";
import type { DashboardDeps, DashboardEnv } from "../context";
import { Copy, Empty, Time } from "../views/components";
import { usd } from "../views/format";
import { render } from "../views/render";

type Trader = HeartbeatRecord;

const STATE_CLASS: Record<string, string> = { running: "s-ok", starting: "s-busy", paused_out_of_credits: "s-held", stopping: "s-muted", error: "s-bad", unknown: "s-muted" };

export function TraderState(p: { t: Pick<Trader, "state" | "stale"> }) {
  if (p.t.stale) return <span class="status s-bad">stale (last state: {p.t.state.replace(/_/g, " ")})</span>;
  return <span class={`status ${STATE_CLASS[p.t.state] ?? ""}`}>{p.t.state.replace(/_/g, " ")}</span>;
}

export function TradersTable(p: { traders: Trader[] }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Trader</th>
            <th scope="col">State</th>
            <th scope="col">Mode</th>
            <th scope="col">Last tick</th>
            <th scope="col" class="num">
              Positions
            </th>
            <th scope="col" class="num">
              Exposure
            </th>
            <th scope="col" class="num">
              PnL today
            </th>
          </tr>
        </thead>
        <tbody>
          {p.traders.map((t) => (
            <tr class={t.stale ? "stale" : ""}>
              <th scope="row">
                {t.name} <span class="muted">v{t.version}</span>
                <div class="help">
                  {t.venue} · <code title={t.walletAddress}>{t.walletAddress.slice(0, 8)}…</code>
                </div>
              </th>
              <td>
                <TraderState t={t} />
              </td>
              <td>
                {t.mode}
                {t.dryRun ? " (dry run)" : ""}
              </td>
              <td>
                <Time d={t.lastTickAt} />
                <div class="help">
                  reported <Time d={t.receivedAt} />
                </div>
              </td>
              <td class="num">{t.openPositions}</td>
              <td class="num">{usd(t.totalExposureUsd)}</td>
              <td class={`num ${t.dailyRealizedPnlUsd < 0 ? "neg" : t.dailyRealizedPnlUsd > 0 ? "pos" : ""}`}>{usd(t.dailyRealizedPnlUsd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function traderRoutes(deps: DashboardDeps) {
  const app = new Hono<DashboardEnv>();
  app.get("/traders", async (c) => {
    const principal = c.get("principal");
    const traders = await deps.services.heartbeats.list(principal);
    const stale = traders.filter((t) => t.stale).length;
    // Charts for the ten most recently reporting traders (one bounded query each).
    const histories = await Promise.all(traders.slice(0, 10).map((t) => deps.services.insights.traderHistory(principal, t.instanceId)));
    return render(
      c,
      { title: "Traders", active: "traders" },
      <>
        <p class="help">
          Each trader reports with <code>POST /api/v1/trader/heartbeat</code>. One that has not reported for 5 minutes is marked stale.
          {stale > 0 && <strong> {stale} stale.</strong>}
        </p>
        {traders.length === 0 ? (
          <Empty title="No trader has reported yet.">
            <p>Traders appear here after their first heartbeat.</p>
          </Empty>
        ) : (
          <>
            <TradersTable traders={traders} />
            <h2>Exposure and daily PnL, last 7 days</h2>
            <div class="charts-grid">
              {histories.map((h, i) => (
                <div class="card">
                  <LineChart
                    title={`${traders[i].name}: exposure and daily realized PnL (USD)`}
                    unit="$"
                    series={[
                      { key: "exposure", label: "exposure", cls: "c-line", points: h.exposure },
                      { key: "pnl", label: "daily PnL", cls: "c-line2", points: h.pnl },
                    ]}
                    empty="No samples yet (one is kept per minute of heartbeats)."
                  />
                </div>
              ))}
            </div>
            <details>
              <summary>Instance ids and notes</summary>
              <ul class="plain">
                {traders.map((t) => (
                  <li>
                    <strong>{t.name}</strong>: <Copy value={t.instanceId} label={`instance id of ${t.name}`} /> {t.note ? `“${t.note}”` : ""}
                  </li>
                ))}
              </ul>
            </details>
          </>
        )}
      </>,
    );
  });
  return app;
}
