/**
 * Tables whose rows are the permissions: a markdown table, a CSV block, or a YAML-ish list of mappings
 * ("transfers:" then "- token: STRK" / "  to: 0x.." / "  max: 20000"). A header that names who is paid and in
 * what makes each row one permission with its own recipient, asset and caps, written as a sentence the grant
 * reader builds a grant from ("May send USDC to 0x.., at most 1500 USDC per transfer."), so a row's cap binds
 * only that row's payee and asset (parse/grants.ts keeps rows with different named payees apart).
 *
 * Fail closed, cell by cell: a column that only names or describes ("payee" beside an address column, "note",
 * "memo") is a label; any other column whose meaning is not known here ("cooldown", "chain", "approver") is kept
 * in its row as a condition ("only if approver is cfo"), which no reader understands, so the actions it could bear on are held; a
 * row without a readable address or asset is left as written. A table that names no recipient column or no asset
 * column (a market table, a swap grid) is not rewritten at all.
 */

interface Block {
  from: number;
  to: number;
  header: string[];
  rows: string[][];
}

const ADDRESS = /^(?:0x[0-9a-fA-F]{40}|0x[0-9a-fA-F]{50,64}|[1-9A-HJ-NP-Za-km-z]{32,44}|context\.[A-Za-z_][\w.]*)$/;
const TO_HEAD = /\b(?:to|address|addr|recipient|payee|destination|dest|wallet|counterparty|beneficiary)\b/;
const NOT_TO = /\b(?:from|source|sender|spender|owner|contract|router|pool|validator|delegate)\b/;
const ASSET_HEAD = /^(?:token|asset|currency|coin|symbol|ccy|denomination|paid in)$/;
const CAP_HEAD = /\b(?:max|maximum|cap|limit|up to|at most|ceiling)\b/;
const LABEL_HEAD = /^(?:payee|name|who|vendor|supplier|contractor|person|label|note|notes|memo|comment|comments|description|purpose|reason|remarks?|what for|used for|id|#)$/;
const EMPTY = /^(?:|-|—|–|n\/a|none given)$/i;
const SYMBOL = /^[A-Za-z][A-Za-z0-9.]{1,9}$/;
const FIGURE = /^(\$)?\s*(\d[\d,]*(?:\.\d+)?)\s*(k|m)?\s*([A-Za-z]{2,6})?$/i;

const head = (h: string): string => h.trim().toLowerCase().replace(/[_*`]/g, " ").replace(/\s+/g, " ").trim();

function period(h: string): string {
  if (/\b(?:day|daily|24h)\b/.test(h)) return "per day";
  if (/\b(?:week|weekly)\b/.test(h)) return "per week";
  if (/\b(?:month|monthly)\b/.test(h)) return "per month";
  return "per transfer";
}

/** "1500" in a max_per_tx column of a USDC row -> "at most 1500 USDC per transfer"; null when not a figure. */
function cap(h: string, cell: string, asset: string): string | null {
  const m = FIGURE.exec(cell.trim());
  if (!m) return null;
  const unit = m[4]?.toUpperCase();
  if (unit && unit !== asset.toUpperCase() && unit !== "USD") return null;
  const fig = `${m[2].replace(/,(?=\d{3}\b)/g, "")}${m[3] ?? ""}`;
  const dollars = m[1] === "$" || unit === "USD" || /\b(?:usd|\$|dollars?)\b/.test(h);
  return `at most ${dollars ? `$${fig}` : `${fig} ${asset}`} ${period(h)}`;
}

function sentence(header: string[], row: string[]): string | null {
  const heads = header.map(head);
  const toCol = heads.findIndex((h, i) => TO_HEAD.test(h) && !NOT_TO.test(h) && ADDRESS.test(row[i]?.trim() ?? ""));
  const assetCol = heads.findIndex((h) => ASSET_HEAD.test(h));
  const asset = row[assetCol]?.trim() ?? "";
  if (toCol < 0 || assetCol < 0 || !SYMBOL.test(asset)) return null;
  const caps: string[] = [];
  const unread: string[] = [];
  heads.forEach((h, i) => {
    const cell = (row[i] ?? "").trim();
    if (i === toCol || i === assetCol || EMPTY.test(cell)) return;
    if (LABEL_HEAD.test(h) && !ADDRESS.test(cell)) return;
    const c = CAP_HEAD.test(h) ? cap(h, cell, asset) : null;
    if (c) caps.push(c);
    else unread.push(`, only if ${header[i].trim()} is ${cell}`);
  });
  return `May send ${asset} to ${row[toCol].trim()}${caps.length ? `, ${caps.join(", ")}` : ""}${unread.join("")}.`;
}

const cells = (line: string, sep: string): string[] => (sep === "|" ? line.trim().replace(/^\||\|$/g, "") : line).split(sep).map((c) => c.trim());

function markdown(lines: string[], i: number): Block | null {
  if (!/^\s*\|.*\|\s*$/.test(lines[i])) return null;
  let j = i;
  const body: string[] = [];
  for (; j < lines.length && /^\s*\|.*\|\s*$/.test(lines[j]); j++) if (!/^\s*\|[\s:|-]+\|\s*$/.test(lines[j])) body.push(lines[j]);
  if (body.length < 2) return null;
  const header = cells(body[0], "|");
  const rows = body.slice(1).map((l) => cells(l, "|"));
  return rows.every((r) => r.length === header.length) ? { from: i, to: j, header, rows } : null;
}

/** A CSV header: three or more short word cells; its rows have as many cells. */
function csv(lines: string[], i: number): Block | null {
  const header = cells(lines[i], ",");
  if (header.length < 3 || !header.every((h) => /^[A-Za-z][\w $()/-]{0,30}$/.test(h))) return null;
  let j = i + 1;
  const rows: string[][] = [];
  for (; j < lines.length && lines[j].trim() !== ""; j++) {
    const r = cells(lines[j], ",");
    if (r.length !== header.length) break;
    rows.push(r);
  }
  return rows.length ? { from: i, to: j, header, rows } : null;
}

/** "key:" then items "- a: x" with "  b: y" under each: one row per item, the keys as the header. */
function yamlList(lines: string[], i: number): Block | null {
  if (!/^\s*[A-Za-z][\w ]*:\s*$/.test(lines[i]) || !/^\s*-\s+[A-Za-z][\w ]*\s*:/.test(lines[i + 1] ?? "")) return null;
  const items: Array<Record<string, string>> = [];
  const dash = /^\s*/.exec(lines[i + 1])?.[0].length ?? 0;
  let j = i + 1;
  for (; j < lines.length; j++) {
    const item = /^(\s*)-\s+([A-Za-z][\w ]*?)\s*:\s*(.*?)\s*,?\s*$/.exec(lines[j]);
    const more = /^(\s+)([A-Za-z][\w ]*?)\s*:\s*(.*?)\s*,?\s*$/.exec(lines[j]);
    // An item's further keys sit deeper than its dash; a key back at the list's level ends the list.
    if (item && item[1].length === dash) items.push({ [item[2]]: item[3].replace(/^["']|["']$/g, "") });
    else if (more && items.length && more[1].length > dash && !/^\s*-/.test(lines[j])) items[items.length - 1][more[2]] = more[3].replace(/^["']|["']$/g, "");
    else break;
  }
  const header = [...new Set(items.flatMap((o) => Object.keys(o)))];
  return items.length ? { from: i, to: j, header, rows: items.map((o) => header.map((h) => o[h] ?? "")) } : null;
}

export function readRows(raw: string): string {
  if (!/[|,:]/.test(raw) || !raw.includes("\n")) return raw;
  const lines = raw.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const b = markdown(lines, i) ?? csv(lines, i) ?? yamlList(lines, i);
    const said = b ? b.rows.map((r) => sentence(b.header, r)) : [];
    // Only a table of payments is read as rows; any other table stays as written (and is read, or not, as such).
    if (!b || said.every((s) => s === null)) {
      out.push(lines[i]);
      continue;
    }
    b.rows.forEach((r, k) => out.push(said[k] ?? r.join(" ")));
    i = b.to - 1;
  }
  return out.join("\n");
}
