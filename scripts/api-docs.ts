/**
 * Generates the project's own API reference and typed client from the running code, so they cannot drift:
 *   - docs/api.md                      HTTP routes from the OpenAPI document, MCP tools from their definitions
 *   - clients/typescript/openapi.json  the OpenAPI 3.1 document itself
 *   - clients/typescript/schema.d.ts   openapi-typescript types for openapi-fetch (clients/typescript/index.ts)
 *
 *   npm run api:docs            rewrite the files
 *   npm run api:docs -- --check exit 1 when a committed file is out of date (test/docs/api-docs.test.ts does this)
 *
 * The documents come from a real runtime with the sandbox chain on (in-memory database, anvil on a free port),
 * which is what registers every route and MCP tool a default deployment offers.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import pino from "pino";
import { z } from "zod";
import { loadConfig } from "../src/config";
import { createRuntime } from "../src/deps";
import { openDatabase } from "../src/db/client";
import type { McpToolDefinition } from "../src/mcp/types";

export const ROOT = path.resolve(import.meta.dirname, "..");
/** The base URL written into the committed documents (the README's default). */
const PUBLIC_URL = "http://127.0.0.1:8080";


interface Schema {
  type?: string | string[];
  $ref?: string;
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}
interface Operation {
  operationId: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
}
interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n+/g, " ");

function resolve(doc: OpenApiDoc, s: Schema): Schema {
  if (!s.$ref) return s;
  return doc.components?.schemas?.[s.$ref.replace("#/components/schemas/", "")] ?? s;
}

/** A short type expression for a table cell. */
function typeOf(doc: OpenApiDoc | null, s: Schema | undefined, depth = 0): string {
  if (!s) return "any";
  if (s.$ref) return doc && depth < 1 ? typeOf(doc, resolve(doc, s), depth + 1) : s.$ref.split("/").at(-1)!;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return alts.map((a) => typeOf(doc, a, depth + 1)).join(" or ");
  if (s.allOf) return s.allOf.map((a) => typeOf(doc, a, depth + 1)).join(" and ");
  const t = Array.isArray(s.type) ? s.type.join(" or ") : s.type;
  if (t === "array") return `array of ${typeOf(doc, s.items, depth + 1)}`;
  if (t === "object" && s.properties && depth < 2) {
    const req = new Set(s.required ?? []);
    return `{ ${Object.entries(s.properties)
      .map(([k, v]) => `${k}${req.has(k) ? "" : "?"}: ${typeOf(doc, v, depth + 1)}`)
      .join(", ")} }`;
  }
  return t ?? "any";
}

function constraints(s: Schema): string {
  const out: string[] = [];
  if (s.maxLength !== undefined) out.push(`${s.minLength ?? 0} to ${s.maxLength} characters`);
  else if (s.minLength) out.push(`at least ${s.minLength} characters`);
  if (s.minimum !== undefined && s.minimum > -1e15) out.push(`>= ${s.minimum}`);
  if (s.maximum !== undefined && s.maximum < 1e15) out.push(`<= ${s.maximum}`);
  if (s.pattern) out.push(`matches \`${s.pattern}\``);
  if (s.format) out.push(s.format);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out.join("; ");
}

/** A field table of an object schema's top-level properties. */
function fieldTable(doc: OpenApiDoc | null, raw: Schema): string[] {
  const s = doc ? resolve(doc, raw) : raw;
  const props = s.properties;
  if (!props || Object.keys(props).length === 0) return [`Body: \`${typeOf(doc, s)}\``, ""];
  const req = new Set(s.required ?? []);
  const rows = ["| Field | Type | Required | Notes |", "| - | - | - | - |"];
  for (const [name, p] of Object.entries(props)) {
    const description = (p.description ?? (doc ? resolve(doc, p).description : undefined))?.replace(/\.$/, "");
    const notes = [description, constraints(p)].filter(Boolean).join("; ");
    rows.push(`| \`${name}\` | ${cell(typeOf(doc, p))} | ${req.has(name) ? "yes" : "no"} | ${cell(notes)} |`);
  }
  return [...rows, ""];
}

function authOf(op: Operation): string {
  const sec = op.security;
  if (!sec || sec.length === 0) return "none (public)";
  const names = sec.map((r) => Object.keys(r)[0] ?? "none");
  const words = names.map((n) => (n === "apiKey" ? "`x-api-key` header" : n === "bearer" ? "`Authorization: Bearer` (OAuth token or API key)" : "none"));
  return words.join(", or ");
}

export function renderHttp(doc: OpenApiDoc): string[] {
  const out: string[] = [];
  const tags = doc.tags ?? [];
  const ops: { method: string; path: string; op: Operation }[] = [];
  for (const [p, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item)) ops.push({ method, path: p, op });
  for (const tag of tags) {
    const mine = ops.filter((o) => (o.op.tags ?? [])[0] === tag.name);
    if (mine.length === 0) continue;
    out.push(`### ${tag.name[0].toUpperCase()}${tag.name.slice(1)}`, "", tag.description ?? "", "");
    for (const { method, path: p, op } of mine) {
      out.push(`#### \`${method.toUpperCase()} ${p}\``, "", op.summary ?? "", "", `operationId \`${op.operationId}\` · auth: ${authOf(op)}`, "");
      const params = op.parameters ?? [];
      if (params.length) {
        out.push("| Parameter | In | Type | Required | Notes |", "| - | - | - | - | - |");
        for (const prm of params) out.push(`| \`${prm.name}\` | ${prm.in} | ${cell(typeOf(doc, prm.schema))} | ${prm.required ? "yes" : "no"} | ${cell(prm.description ?? "")} |`);
        out.push("");
      }
      const body = op.requestBody?.content["application/json"]?.schema;
      if (body) out.push("Request body (JSON):", "", ...fieldTable(doc, body));
      const [okStatus, ok] = Object.entries(op.responses).find(([status]) => status.startsWith("2")) ?? [];
      const okSchema = ok?.content?.["application/json"]?.schema;
      if (okSchema && resolve(doc, okSchema).properties) out.push(`Response ${okStatus} (JSON):`, "", ...fieldTable(doc, okSchema));
      out.push("| Status | Meaning |", "| - | - |");
      for (const [status, r] of Object.entries(op.responses)) out.push(`| ${status} | ${cell(r.description)} |`);
      out.push("");
    }
  }
  return out;
}

export function renderMcp(tools: readonly McpToolDefinition[]): string[] {
  const out: string[] = [];
  for (const t of tools) {
    const a = t.annotations;
    const hints = [a.readOnlyHint ? "read-only" : null, a.destructiveHint ? "destructive" : null, a.idempotentHint ? "idempotent" : null].filter(Boolean).join(", ");
    out.push(`### \`${t.name}\``, "", t.title ? `**${t.title}.** ${t.description}` : t.description, "");
    out.push(`Scope \`${t.scope}\`${t.requiresEscrow ? " · only where escrow wallets are configured" : ""}${hints ? ` · ${hints}` : ""}`, "");
    const schema = z.toJSONSchema(t.inputSchema, { io: "input", unrepresentable: "any" }) as Schema;
    if (schema.properties && Object.keys(schema.properties).length) out.push("Arguments:", "", ...fieldTable(null, schema));
    else out.push("No arguments.", "");
  }
  return out;
}

export function renderApiMarkdown(doc: OpenApiDoc, tools: readonly McpToolDefinition[]): string {
  return [
    "# Arbiter API reference",
    "",
    "<!-- Generated by `npm run api:docs` (scripts/api-docs.ts) from the OpenAPI document and the MCP tool definitions. Do not edit by hand; test/docs/api-docs.test.ts fails when this file is out of date. -->",
    "",
    `${doc.info.title} ${doc.info.version}. Every HTTP route below is also described by the OpenAPI 3.1 document the service serves at`,
    "`GET /api/v1/openapi.json` (a copy: [clients/typescript/openapi.json](../clients/typescript/openapi.json)); a typed TypeScript client",
    "generated from it is in [clients/typescript](../clients/typescript/). Base URL in the examples: `" + PUBLIC_URL + "`.",
    "",
    "## Conventions",
    "",
    "- **Authentication:** send the API key as `x-api-key: svc_sk_live_...` (or `Authorization: Bearer <key or OAuth token>`).",
    "  Keys are created in the dashboard or with `npm run cli -- account create`.",
    "- **Errors:** `{ \"error\": string, \"message\"?: string }`. `error` is a code (`invalid_input`, `not_found`, `out_of_credits`, ...)",
    "  or, for a few validation failures the API contract fixes, a short sentence (`intent is required`). Branch on the status first.",
    "  A wrong method on a known path is `405 method_not_allowed` with an `Allow` header.",
    "- **Limits:** every `/api/v1` route may answer `429 rate_limited` (per credential, `RATE_LIMIT_PER_MINUTE`) or",
    "  `503 overloaded` (load shedding), both with `Retry-After`; a refused request did nothing. Bodies over `BODY_LIMIT_BYTES` are `413`.",
    "- **Money:** amounts are decimal strings in whole units (`\"25\"` USDC) on the wire; credits are integers (0.05 USD each).",
    "- **Verdicts:** act only on `ALLOW`. `BLOCK`, `ESCALATE`, a `null` verdict or any error means do not.",
    "",
    "## HTTP",
    "",
    ...renderHttp(doc),
    "## MCP tools",
    "",
    "The MCP server is at `POST /api/mcp` (Streamable HTTP), authenticated like the HTTP API; see [mcp.md](mcp.md) for hosts and OAuth.",
    "Tools with scope `wallet` need an OAuth grant that includes `wallet` (an API key holds every scope).",
    "",
    ...renderMcp(tools),
  ]
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()
    .concat("\n");
}

/** Every generated file, path (relative to the repository) to content. */
export async function generateApiArtifacts(): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-api-docs-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", PUBLIC_URL, SANDBOX: "true", SANDBOX_RPC_PORT: "0", ADMIN_TOKEN: "api-docs-generator-token-0123456789" });
  const database = await openDatabase({ url: undefined, dataDir: null, pgliteWorker: false });
  const runtime = await createRuntime(config, { database, lockDataDir: false, logger: pino({ level: "silent" }) });
  try {
    const doc = (await (await runtime.app.request("/api/v1/openapi.json")).json()) as OpenApiDoc;
    const tools = runtime.mcpTools.all();
    const types = astToString(await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0]));
    const header = "/**\n * Generated by `npm run api:docs` (scripts/api-docs.ts) with openapi-typescript from the OpenAPI document. Do not edit.\n */\n\n";
    return {
      "docs/api.md": renderApiMarkdown(doc, tools),
      "clients/typescript/openapi.json": JSON.stringify(doc, null, 2) + "\n",
      "clients/typescript/schema.d.ts": header + types,
    };
  } finally {
    await runtime.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Files whose committed content differs from what the code generates now. */
export function staleFiles(files: Record<string, string>): string[] {
  return Object.entries(files)
    .filter(([rel, content]) => {
      try {
        return readFileSync(path.join(ROOT, rel), "utf8") !== content;
      } catch {
        return true;
      }
    })
    .map(([rel]) => rel);
}

async function main(check: boolean): Promise<void> {
  const files = await generateApiArtifacts();
  if (check) {
    const stale = staleFiles(files);
    if (stale.length) {
      console.error(`out of date: ${stale.join(", ")}; run npm run api:docs`);
      process.exit(1);
    }
    return;
  }
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ROOT, rel)), { recursive: true });
    writeFileSync(path.join(ROOT, rel), content);
  }
  console.error(`wrote ${Object.keys(files).join(", ")}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main(process.argv.includes("--check")).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}

