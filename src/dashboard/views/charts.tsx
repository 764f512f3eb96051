/**
 * Server-rendered SVG charts (no script, no CDN, within the dashboard's CSP: colours come from classes in
 * app.css, never inline styles). Every mark carries a <title> (the number on hover and for assistive
 * technology), and every chart is followed by a visually hidden table of its figures for screen readers.
 * The SVGs scale to their container (viewBox + width 100%), so they read on a phone.
 */
import type { Child } from "hono/jsx";

export interface Series {
  key: string;
  label: string;
  /** A class in app.css (.c-allow, .c-block, ...) that sets fill and stroke. */
  cls: string;
}

const W = 640;
const H = 240;
const PAD = { l: 52, r: 8, t: 10, b: 26 };

/** A rounded maximum for the y axis and three tick values. */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const mag = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * mag >= max) return m * mag;
  return 10 * mag;
}

const fmt = (n: number) => (Math.abs(n) >= 1000 ? `${(n / 1000).toFixed(Math.abs(n) >= 10_000 ? 0 : 1)}k` : Number.isInteger(n) ? String(n) : String(Number(n.toFixed(2))));

function Legend(p: { series: Series[] }) {
  return (
    <ul class="legend" aria-hidden="true">
      {p.series.map((s) => (
        <li>
          <span class={`swatch ${s.cls}`}></span>
          {s.label}
        </li>
      ))}
    </ul>
  );
}

function DataTable(p: { caption: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <table class="sr-only">
      <caption>{p.caption}</caption>
      <thead>
        <tr>
          {p.head.map((h) => (
            <th scope="col">{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {p.rows.map((r) => (
          <tr>
            {r.map((c) => (
              <td>{c}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Frame(p: { title: string; max: number; min?: number; children: Child; labels: { x: number; text: string; anchor?: "start" | "middle" | "end" }[] }) {
  const min = p.min ?? 0;
  const y = (v: number) => PAD.t + (H - PAD.t - PAD.b) * (1 - (v - min) / (p.max - min || 1));
  const ticks = [min, min + (p.max - min) / 2, p.max];
  return (
    <svg viewBox={`0 0 ${W} ${H}`} class="chart" role="img" aria-label={p.title} preserveAspectRatio="xMidYMid meet">
      {ticks.map((v) => (
        <g class="axis">
          <line x1={PAD.l} x2={W - PAD.r} y1={y(v)} y2={y(v)} />
          <text x={PAD.l - 4} y={y(v) + 4} text-anchor="end">
            {fmt(v)}
          </text>
        </g>
      ))}
      {p.labels.map((l) => (
        <text class="axis-label" x={l.x} y={H - 6} text-anchor={l.anchor ?? "middle"}>
          {l.text}
        </text>
      ))}
      {p.children}
    </svg>
  );
}

/** Bars per category, stacked (verdicts per day) or side by side (credits spent and bought). */
export function BarChart(p: { title: string; series: Series[]; rows: { label: string; short?: string; values: Record<string, number> }[]; grouped?: boolean; unit?: string }) {
  const totals = p.rows.map((r) => (p.grouped ? Math.max(0, ...p.series.map((s) => r.values[s.key] ?? 0)) : p.series.reduce((t, s) => t + (r.values[s.key] ?? 0), 0)));
  const max = niceMax(Math.max(0, ...totals));
  const plotW = W - PAD.l - PAD.r;
  const slot = plotW / Math.max(1, p.rows.length);
  const barW = Math.max(2, slot * 0.7);
  const scale = (v: number) => ((H - PAD.t - PAD.b) * v) / max;
  const every = Math.ceil(p.rows.length / 6);
  const labels = p.rows.map((r, i) => ({ x: PAD.l + slot * i + slot / 2, text: r.short ?? r.label })).filter((_, i) => i % every === 0);
  const unit = p.unit ? ` ${p.unit}` : "";
  return (
    <figure class="chart-figure">
      <figcaption>{p.title}</figcaption>
      <Frame title={p.title} max={max} labels={labels}>
        {p.rows.map((r, i) => {
          const x0 = PAD.l + slot * i + (slot - barW) / 2;
          let base = H - PAD.b;
          return (
            <g>
              {p.series.map((s, j) => {
                const v = r.values[s.key] ?? 0;
                if (v <= 0) return null;
                const h = scale(v);
                const w = p.grouped ? barW / p.series.length : barW;
                const x = p.grouped ? x0 + j * w : x0;
                const yTop = p.grouped ? H - PAD.b - h : (base -= h);
                return (
                  <rect class={s.cls} x={x} y={yTop} width={w} height={h}>
                    <title>{`${r.label}: ${fmt(v)}${unit} ${s.label}`}</title>
                  </rect>
                );
              })}
            </g>
          );
        })}
      </Frame>
      <Legend series={p.series} />
      <DataTable caption={p.title} head={["", ...p.series.map((s) => s.label)]} rows={p.rows.map((r) => [r.label, ...p.series.map((s) => r.values[s.key] ?? 0)])} />
    </figure>
  );
}

/** Lines over time (balance, exposure, PnL); the y axis includes zero so a loss reads as one. */
export function LineChart(p: { title: string; series: (Series & { points: { at: Date; value: number }[] })[]; unit?: string; empty: string }) {
  const all = p.series.flatMap((s) => s.points);
  if (all.length === 0) return <p class="muted chart-empty">{p.empty}</p>;
  const t0 = Math.min(...all.map((x) => x.at.getTime()));
  const t1 = Math.max(...all.map((x) => x.at.getTime()), t0 + 1);
  const hi = niceMax(Math.max(0, ...all.map((x) => x.value)));
  const loRaw = Math.min(0, ...all.map((x) => x.value));
  const lo = loRaw < 0 ? -niceMax(-loRaw) : 0;
  const xOf = (t: number) => PAD.l + ((W - PAD.l - PAD.r) * (t - t0)) / (t1 - t0);
  const yOf = (v: number) => PAD.t + (H - PAD.t - PAD.b) * (1 - (v - lo) / (hi - lo || 1));
  // Hours and minutes when the series spans less than two days, else month-day.
  const stamp = (t: number) => (t1 - t0 < 2 * 86_400_000 ? new Date(t).toISOString().slice(11, 16) : new Date(t).toISOString().slice(5, 10));
  const labels = [t0, (t0 + t1) / 2, t1].map((t, i) => ({ x: xOf(t), text: stamp(t), anchor: (["start", "middle", "end"] as const)[i] }));
  const unit = p.unit ?? "";
  return (
    <figure class="chart-figure">
      <figcaption>{p.title}</figcaption>
      <Frame title={p.title} max={hi} min={lo} labels={labels}>
        {p.series.map((s) => (
          <g class={s.cls}>
            <polyline class="line" points={s.points.map((pt) => `${xOf(pt.at.getTime()).toFixed(1)},${yOf(pt.value).toFixed(1)}`).join(" ")} />
            {s.points.map((pt) => (
              <circle cx={xOf(pt.at.getTime())} cy={yOf(pt.value)} r="3">
                <title>{`${pt.at.toISOString().slice(0, 16).replace("T", " ")} UTC: ${unit}${fmt(pt.value)} ${s.label}`}</title>
              </circle>
            ))}
          </g>
        ))}
      </Frame>
      {p.series.length > 1 && <Legend series={p.series} />}
      <DataTable
        caption={p.title}
        head={["Time (UTC)", ...p.series.map((s) => s.label)]}
        rows={[...new Set(all.map((x) => x.at.getTime()))].sort().map((t) => [new Date(t).toISOString().slice(0, 16).replace("T", " "), ...p.series.map((s) => s.points.find((x) => x.at.getTime() === t)?.value ?? "")])}
      />
    </figure>
  );
}

/** A used-against-limit bar (24-hour spend against the daily cap). */
export function Meter(p: { label: string; used: number; limit: number | null; unit?: string }) {
  const unit = p.unit ?? "$";
  const max = p.limit && p.limit > 0 ? Math.max(p.limit, p.used) : Math.max(1, p.used);
  const pct = Math.min(100, (100 * p.used) / max);
  const over = p.limit !== null && p.used > p.limit;
  const text = p.limit === null ? `${unit}${fmt(p.used)} in the last 24 hours (no daily cap)` : `${unit}${fmt(p.used)} of ${unit}${fmt(p.limit)} daily cap used in the last 24 hours`;
  return (
    <figure class="chart-figure">
      <figcaption>{p.label}</figcaption>
      <svg viewBox="0 0 640 28" class="meter" role="img" aria-label={text}>
        <rect class="meter-track" x="0" y="4" width="640" height="20" rx="4" />
        <rect class={over ? "meter-fill over" : "meter-fill"} x="0" y="4" width={(640 * pct) / 100} height="20" rx="4">
          <title>{text}</title>
        </rect>
      </svg>
      <p class="help">{text}</p>
    </figure>
  );
}

/** Counts by outcome as labelled horizontal bars. */
export function OutcomeBars(p: { title: string; counts: { label: string; cls: string; n: number }[] }) {
  const max = Math.max(1, ...p.counts.map((c) => c.n));
  return (
    <figure class="chart-figure">
      <figcaption>{p.title}</figcaption>
      <svg viewBox={`0 0 640 ${p.counts.length * 26}`} class="chart" role="img" aria-label={`${p.title}: ${p.counts.map((c) => `${c.n} ${c.label}`).join(", ")}`}>
        {p.counts.map((c, i) => (
          <g>
            <text class="axis-label" x="130" y={i * 26 + 18} text-anchor="end">
              {c.label}
            </text>
            <rect class={c.cls} x="138" y={i * 26 + 4} width={Math.max(c.n ? 2 : 0, (440 * c.n) / max)} height="18" rx="3">
              <title>{`${c.n} ${c.label}`}</title>
            </rect>
            <text class="axis-label" x={144 + (440 * c.n) / max} y={i * 26 + 18}>
              {c.n}
            </text>
          </g>
        ))}
      </svg>
    </figure>
  );
}
