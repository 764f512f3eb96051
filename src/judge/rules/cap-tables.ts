/**
 * Ceilings written as a small table under a heading that names the cap ("max size per order (coins)" over
 * "BTC 0.2 / ETH 3 / SOL 60"; "Per-swap input limits - WETH: 4; USDC: 12,500"; "Spending limits" over
 * "single payment   2,000 USDC"). The heading carries the cap word and the scope, each row an asset or a label and
 * its figure; read row by row, every row was a bare figure nobody could place.
 *
 * Rows of assets become one sentence of alternatives ("max 0.2 BTC or 3 ETH or 60 SOL per order"), so each asset
 * is held to its own row and an asset with no row has no ceiling the owner wrote (checks/alternatives.ts). Rows of
 * labels become "label: figure" settings, which the config-line readers take from there. Only a heading made of cap
 * and scope words is read this way: a heading in dollars ("notional", "usd") or with any other word stays as it was.
 */
import { asSymbol } from "./parse/state";

const FIG = String.raw`\d[\d,]*(?:\.\d+)?(?:\s?[kKmM]\b)?`;
/** Words a cap heading is made of; anything else (a name, a negation, a dollar word) leaves the lines alone. */
const HEAD_WORD = /^(?:max(?:imum)?|limits?|caps?|ceilings?|sizes?|amounts?|input|in|inputs|sold|spend(?:ing)?|coins|tokens|units|per|each|a|order|orders|swap|swaps|trade|trades|transfer|transfers|payment|payments|payout|payouts|wrap|wraps)$/i;
const CAP_NOUN = /\b(?:max(?:imum)?|limits?|caps?|ceilings?)\b/i;

/** The heading's words, if it is a cap heading: its scope ("per order") and whether it counts what goes in. */
function capHeading(head: string): { scope: string; input: boolean } | null {
  const words = head.replace(/[()]/g, " ").replace(/-/g, " ").trim().split(/\s+/);
  if (words.length === 0 || words.length > 7 || !CAP_NOUN.test(head) || !words.every((w) => HEAD_WORD.test(w))) return null;
  const per = /\b(?:per|each|a)[\s-]+(order|swap|trade|transfer|payment|payout|wrap)s?\b/i.exec(head);
  return { scope: per ? `per ${per[1].toLowerCase()}` : "", input: /\b(?:input|inputs|in|sold)\b/i.test(head) };
}

/** "BTC 0.2", "WETH: 4", "USDC = 12,500": an asset row. */
const ASSET_ROW = new RegExp(String.raw`^\s*(?:[-*•]\s+)?([A-Za-z][A-Za-z0-9.]{1,9})\s*(?:[:=]\s*|\s+)(${FIG})\s*[.;,]?\s*$`);
/** "single payment     2,000 USDC": a label, a wide gap (or a colon), a figure and the rest of the line. */
const LABEL_ROW = new RegExp(String.raw`^(\s*(?:[-*•]\s+)?)([A-Za-z][A-Za-z' -]{2,40}?)(?:\s{2,}|\t+|\s*:\s*)((?:US)?\$?\s?${FIG}.*)$`);

/** "nothing outside this table", "nothing else", "no other coins": a closer after the rows. */
const CLOSER = /^\s*(?:[-*•]\s+)?(?:and\s+)?(?:nothing|none|no\s+other\s+(?:coins?|assets?|tokens?|markets?))(?:\s+(?:else|outside|beyond|off|not\s+in)(?:\s+(?:this|the)\s+(?:table|list))?)?\s*[.!]?\s*$/i;

function assetRows(rows: string[]): Array<{ sym: string; fig: string }> | null {
  const out: Array<{ sym: string; fig: string }> = [];
  for (const r of rows) {
    const m = ASSET_ROW.exec(r);
    const sym = m ? asSymbol(m[1]) : null;
    if (!m || !sym) return null;
    out.push({ sym, fig: m[2].replace(/\s+/g, "") });
  }
  return out.length >= 2 ? out : null;
}

const sentence = (rows: Array<{ sym: string; fig: string }>, h: { scope: string; input: boolean }): string =>
  `max ${rows.map((r) => `${r.fig} ${r.sym}`).join(" or ")}${h.input ? " in" : ""}${h.scope ? ` ${h.scope}` : ""}`;

/** A heading line over two or more rows; the rows end at the first line that is not one. */
function underHeadings(s: string): string {
  const lines = s.split("\n");
  for (let i = 0; i < lines.length - 2; i++) {
    const h = capHeading(lines[i].trim().replace(/:$/, ""));
    if (!h) continue;
    let j = i + 1;
    while (j < lines.length && (ASSET_ROW.test(lines[j]) || LABEL_ROW.test(lines[j]))) j++;
    const rows = lines.slice(i + 1, j);
    if (rows.length < 2) continue;
    const assets = assetRows(rows);
    if (assets) {
      // "nothing outside this table" on the line after the rows: the rows' assets are the only ones.
      const closer = j < lines.length && CLOSER.test(lines[j]);
      const only = closer ? [`only ${assets.map((r) => r.sym).join(", ")}`] : [];
      lines.splice(i, j - i + (closer ? 1 : 0), sentence(assets, h), ...only);
      continue;
    }
    // Labelled rows keep their heading (read by the heading-noun reader) and become settings.
    if (rows.every((r) => LABEL_ROW.test(r) && !ASSET_ROW.test(r)))
      for (let k = i + 1; k < j; k++) lines[k] = lines[k].replace(LABEL_ROW, (_m, pre: string, label: string, rest: string) => `${pre}${label.trim()}: ${rest}`);
  }
  return lines.join("\n");
}

/** "Per-swap input limits - WETH: 4; USDC: 12,500.": the heading and its rows on one line. */
function inline(s: string): string {
  return s.replace(new RegExp(String.raw`(^|\n|[.!?]\s+)([A-Za-z][A-Za-z() -]{2,60}?)\s*(?:[-–—:])\s+((?:[A-Za-z][A-Za-z0-9.]{1,9}\s*[:=]\s*${FIG}\s*[;,]\s*)+[A-Za-z][A-Za-z0-9.]{1,9}\s*[:=]\s*${FIG})(?=\s*(?:[.;]|\n|$))`, "g"), (m: string, start: string, head: string, body: string) => {
    const h = capHeading(head);
    const rows = h ? assetRows(body.split(/\s*;\s*|,\s*(?=[A-Za-z])/)) : null;
    return h && rows ? `${start}${sentence(rows, h)}` : m;
  });
}

export function readCapTables(raw: string): string {
  if (!CAP_NOUN.test(raw)) return raw;
  return inline(underHeadings(raw));
}
