import type { CreditDay, VerdictDay } from "../../insights/service";
import { BarChart, OutcomeBars } from "../views/charts";

const VERDICTS = [
  { key: "ALLOW", label: "ALLOW", cls: "c-allow" },
  { key: "BLOCK", label: "BLOCK", cls: "c-block" },
  { key: "ESCALATE", label: "ESCALATE", cls: "c-escalate" },
  { key: "none", label: "no verdict", cls: "c-none" },
];
const OUTCOMES: { key: string; label: string; cls: string }[] = [
  { key: "executed", label: "executed", cls: "c-allow" },
  { key: "awaiting_user", label: "awaiting you", cls: "c-escalate" },
  { key: "blocked", label: "blocked", cls: "c-block" },
  { key: "failed", label: "failed", cls: "c-block" },
  { key: "rejected", label: "rejected", cls: "c-none" },
  { key: "expired", label: "expired", cls: "c-none" },
];

/** The overview's pictures: 30 days of verdicts, credits spent against bought, and proposals by outcome. */
export function ActivityCharts(p: { verdicts: VerdictDay[]; credits: CreditDay[]; outcomes: Record<string, number> | null }) {
  const short = (day: string) => day.slice(5);
  return (
    <section aria-labelledby="activity">
      <h2 id="activity">Last 30 days</h2>
      <div class="charts-grid">
        <div class="card">
          <BarChart
            title="Verifications per day, by verdict"
            series={VERDICTS}
            rows={p.verdicts.map((d) => ({ label: d.day, short: short(d.day), values: { ALLOW: d.ALLOW, BLOCK: d.BLOCK, ESCALATE: d.ESCALATE, none: d.none } }))}
          />
        </div>
        <div class="card">
          <BarChart
            title="Credits spent and bought per day"
            grouped
            unit="credits"
            series={[
              { key: "spent", label: "spent", cls: "c-spent" },
              { key: "bought", label: "bought", cls: "c-bought" },
            ]}
            rows={p.credits.map((d) => ({ label: d.day, short: short(d.day), values: { spent: d.spent, bought: d.bought } }))}
          />
        </div>
        {p.outcomes && (
          <div class="card">
            <OutcomeBars title="Proposals by outcome" counts={OUTCOMES.map((o) => ({ label: o.label, cls: o.cls, n: p.outcomes?.[o.key] ?? 0 }))} />
          </div>
        )}
      </div>
    </section>
  );
}
