/** Display formatting shared by the pages. Every value is text; JSX escapes it. */

export function isoOf(d: Date | string | null | undefined): string | null {
  if (d === null || d === undefined) return null;
  const t = new Date(d);
  return Number.isNaN(t.getTime()) ? null : t.toISOString();
}

/** `2025-11-02 16:40 UTC`: unambiguous without JavaScript; app.js rewrites it in the viewer's time zone. */
export function utc(d: Date | string | null | undefined): string {
  const iso = isoOf(d);
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "never";
}

export function usd(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "n/a";
  const abs = Math.abs(n);
  const s = abs.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: abs > 0 && abs < 0.01 ? 6 : 2 });
  return `${n < 0 ? "-" : ""}$${s}`;
}

export const credits = (n: number): string => `${n.toLocaleString("en-US")} credit${n === 1 ? "" : "s"}`;

export function signed(n: number): string {
  return n > 0 ? `+${n.toLocaleString("en-US")}` : n.toLocaleString("en-US");
}

/** `0x1234…abcd` for long hex strings; the full value stays in a title and a copy button. */
export function short(v: string | null | undefined, head = 8, tail = 6): string {
  if (!v) return "";
  return v.length <= head + tail + 1 ? v : `${v.slice(0, head)}…${v.slice(-tail)}`;
}

export function pretty(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2);
}

/** Remaining time in words, e.g. `42 min`, `1 h 05 min`, `expired`. */
export function remaining(until: Date | string, now: Date): string {
  const ms = new Date(until).getTime() - now.getTime();
  if (ms <= 0) return "expired";
  const min = Math.floor(ms / 60_000);
  if (min < 1) return `${Math.ceil(ms / 1000)} s`;
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, "0")} min`;
}

/**
 * How a verification reads in a list: what it checked. A wallet proposal's verification names what the
 * proposal does ("transfer 15 USDC to 0x…"), since its intent is the wallet's mandate and would make every
 * proposal of a wallet look the same; any other verification reads as its intent.
 */
export function verificationTitle(r: { intent: string; action: unknown; source: string }, max = 120): string {
  const summary = r.source === "proposal" && r.action && typeof r.action === "object" && !Array.isArray(r.action) ? (r.action as { summary?: unknown }).summary : undefined;
  const text = typeof summary === "string" && summary.trim() ? `Wallet proposal: ${summary.trim()}` : r.intent;
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
