/**
 * src/db/schema.ts (the Kysely types) matches src/db/migrations (the source of truth). Every migration is
 * applied to a real database (PostgreSQL when DATABASE_URL is set, else PGlite) and the catalogue is read
 * back; the TypeScript compiler reads the column types from schema.ts. Checked:
 * - every table the migrations create has its interface in `DB` (or is listed below with why not), and
 *   every interface names a real table;
 * - every column exists on both sides, with the same nullability;
 * - every `CHECK (col IN (...))` list is exactly the column's literal union in schema.ts;
 * - the columns that hold a closed set of values (status, kind, mode, chain, custody) are literal unions,
 *   not `string`, so no select result needs an `as` cast.
 * New migrations (a table, a column, a CHECK list) fail here until schema.ts follows.
 */
import path from "node:path";
import ts from "typescript";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropSchema, openDatabase, type DatabaseHandle } from "../../src/db/client";
import { migrate } from "../../src/db/migrate";
import { PROPOSAL_STATUSES } from "../../src/proposals/state";
import { KNOWN_KINDS } from "../../src/proposals/schemas";
import { WALLET_CHAINS } from "../../src/chains/types";

/** Tables the migrations create that `DB` in schema.ts does not declare, and where their type lives. */
const DECLARED_ELSEWHERE: Record<string, string> = {
  schema_migrations: "the migration runner's own bookkeeping (src/db/migrate.ts)",
  rate_limit_buckets: "read and written only with raw SQL by src/rate-limits/postgres.ts",
  x402_payments: "X402PaymentsTable in src/x402/pay/store.ts (attached with withTables)",
};
/** Interfaces outside schema.ts that type a table, checked the same way. */
const EXTRA_TABLE_TYPES: Record<string, { file: string; name: string }> = {
  x402_payments: { file: "src/x402/pay/store.ts", name: "X402PaymentsTable" },
};

interface ColumnType {
  nullable: boolean;
  /** The string literals of the select type, or null when it admits any string (or is not a string). */
  literals: string[] | null;
  text: string;
}

/** Table -> column -> select type, read from the TypeScript declarations. */
function declaredTables(): Map<string, Map<string, ColumnType>> {
  const root = process.cwd();
  const files = [path.join(root, "src/db/schema.ts"), ...Object.values(EXTRA_TABLE_TYPES).map((t) => path.join(root, t.file))];
  const program = ts.createProgram(files, { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler });
  const checker = program.getTypeChecker();
  const exported = (file: string, name: string): ts.Type => {
    const sf = program.getSourceFile(path.join(root, file));
    if (!sf) throw new Error(`${file} not in the program`);
    const sym = checker.getExportsOfModule(checker.getSymbolAtLocation(sf)!).find((s) => s.name === name);
    if (!sym) throw new Error(`${file} exports no ${name}`);
    return checker.getDeclaredTypeOfSymbol(sym);
  };
  const columnsOf = (table: ts.Type): Map<string, ColumnType> => {
    const out = new Map<string, ColumnType>();
    for (const col of checker.getPropertiesOfType(table)) {
      let t = checker.getTypeOfSymbol(col);
      // Generated<T> and ColumnType<S, I, U> carry the select type in __select__.
      const select = t.getProperty("__select__");
      if (select) t = checker.getTypeOfSymbol(select);
      const members = t.isUnion() ? t.types : [t];
      const nullable = members.some((m) => (m.flags & ts.TypeFlags.Null) !== 0);
      const rest = members.filter((m) => (m.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)) === 0);
      const literals = rest.length > 0 && rest.every((m) => m.isStringLiteral()) ? rest.map((m) => (m as ts.StringLiteralType).value).sort() : null;
      out.set(col.name, { nullable, literals, text: checker.typeToString(t) });
    }
    return out;
  };
  const tables = new Map<string, Map<string, ColumnType>>();
  for (const table of checker.getPropertiesOfType(exported("src/db/schema.ts", "DB"))) tables.set(table.name, columnsOf(checker.getTypeOfSymbol(table)));
  for (const [table, t] of Object.entries(EXTRA_TABLE_TYPES)) tables.set(table, columnsOf(exported(t.file, t.name)));
  return tables;
}

let database: DatabaseHandle;
const url = process.env.DATABASE_URL;
const schema = url ? `t_schema_${Date.now().toString(36)}` : undefined;
let actual: Map<string, Map<string, { nullable: boolean }>>;
let checks: { table: string; column: string; values: string[] }[];
let declared: Map<string, Map<string, ColumnType>>;

beforeAll(async () => {
  database = await openDatabase({ url, schema, dataDir: null, pgliteWorker: false });
  await migrate(database.db);
  const cols = await sql<{ table_name: string; column_name: string; is_nullable: string }>`
    select c.table_name, c.column_name, c.is_nullable from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`.execute(database.db);
  actual = new Map();
  for (const r of cols.rows) {
    if (!actual.has(r.table_name)) actual.set(r.table_name, new Map());
    actual.get(r.table_name)!.set(r.column_name, { nullable: r.is_nullable === "YES" });
  }
  const defs = await sql<{ table_name: string; def: string }>`
    select cl.relname as table_name, pg_get_constraintdef(co.oid) as def from pg_constraint co
    join pg_class cl on cl.oid = co.conrelid join pg_namespace n on n.oid = cl.relnamespace
    where co.contype = 'c' and n.nspname = current_schema()`.execute(database.db);
  checks = [];
  for (const r of defs.rows) {
    // PostgreSQL normalises `col IN ('a', 'b')` to `(col = ANY (ARRAY['a'::text, 'b'::text]))`.
    const m = r.def.match(/^CHECK \(+"?(\w+)"? = ANY \(+ARRAY\[(.*?)\]/);
    if (m) checks.push({ table: r.table_name, column: m[1], values: [...m[2].matchAll(/'((?:[^']|'')*)'/g)].map((v) => v[1].replace(/''/g, "'")).sort() });
  }
  declared = declaredTables();
}, 120_000);

afterAll(async () => {
  await database?.close();
  if (url && schema) await dropSchema(url, schema);
});

describe("src/db/schema.ts matches the migrations", () => {
  it("declares every table the migrations create, and no other", () => {
    const real = [...actual.keys()].filter((t) => !(t in DECLARED_ELSEWHERE) || t in EXTRA_TABLE_TYPES).sort();
    expect([...declared.keys()].sort()).toEqual(real);
    // The exceptions are real tables (a stale entry would hide nothing and mislead).
    for (const t of Object.keys(DECLARED_ELSEWHERE)) expect(actual.has(t), t).toBe(true);
  });

  it("declares every column, and no other, with the same nullability", () => {
    const problems: string[] = [];
    for (const [table, cols] of declared) {
      const real = actual.get(table);
      if (!real) continue; // reported by the table test
      for (const [col, info] of real) {
        const d = cols.get(col);
        if (!d) problems.push(`${table}.${col}: in the migrations, not in the TypeScript type`);
        else if (d.nullable !== info.nullable) problems.push(`${table}.${col}: ${info.nullable ? "nullable" : "NOT NULL"} in SQL, ${d.text} in TypeScript`);
      }
      for (const col of cols.keys()) if (!real.has(col)) problems.push(`${table}.${col}: in the TypeScript type, not in the migrations`);
    }
    expect(problems).toEqual([]);
  });

  it("types each CHECK (col IN (...)) column as exactly that literal union", () => {
    expect(checks.length).toBeGreaterThanOrEqual(3); // wallets.mode, anchor_batches.status, webhook_deliveries.status at least
    const problems: string[] = [];
    for (const c of checks) {
      const d = declared.get(c.table)?.get(c.column);
      if (!d) continue; // a table declared elsewhere without a type, or reported above
      if (JSON.stringify(d.literals) !== JSON.stringify(c.values)) problems.push(`${c.table}.${c.column}: CHECK allows ${c.values.join(", ")}; TypeScript says ${d.text}`);
    }
    expect(problems).toEqual([]);
  });

  it("types the closed-set columns as literal unions, from the lists the code owns", () => {
    const lit = (table: string, col: string) => declared.get(table)?.get(col)?.literals ?? null;
    expect(lit("proposals", "status")).toEqual([...PROPOSAL_STATUSES].sort());
    expect(lit("proposals", "kind")).toEqual([...KNOWN_KINDS, "withdrawal"].sort());
    expect(lit("proposals", "origin")).toEqual(["agent", "owner"]);
    expect(lit("wallets", "chain")).toEqual([...WALLET_CHAINS].sort());
    expect(lit("wallets", "mode")).toEqual(["autonomous", "safe"]);
    expect(lit("wallets", "custody")).toEqual(["embedded", "server"]);
    expect(lit("verifications", "status")).toEqual(["COMPLETED", "FAILED", "PENDING"]);
    expect(lit("verifications", "mode")).toEqual(["semantic", "structured"]);
    expect(lit("topup_payments", "status")).toEqual(["credited", "pending"]);
  });
});
