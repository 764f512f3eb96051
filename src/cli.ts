import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { verifyReceipt } from "./receipts/verify";

/**
 * Operator CLI. It never opens the database: it drives the running server's admin API (a PGlite data
 * directory belongs to exactly one process). URL from ARBITER_URL / PUBLIC_URL / HOST+PORT; token from
 * ADMIN_TOKEN or DATA_DIR/admin-token.
 */
const env = process.env;
const baseUrl = (env.ARBITER_URL ?? env.PUBLIC_URL ?? `http://${env.HOST ?? "127.0.0.1"}:${env.PORT ?? "8080"}`).replace(/\/+$/, "");

function adminToken(): string {
  if (env.ADMIN_TOKEN) return env.ADMIN_TOKEN;
  const file = path.join(path.resolve(env.DATA_DIR ?? "./data"), "admin-token");
  if (!existsSync(file)) fail(`no ADMIN_TOKEN and no ${file}: start the server once, or set ADMIN_TOKEN`);
  return readFileSync(file, "utf8").trim();
}

function fail(msg: string): never {
  console.error(`arbiter cli: ${msg}`);
  process.exit(2);
}

async function call(method: string, route: string, body?: unknown, auth: Record<string, string> = { authorization: `Bearer ${adminToken()}` }) {
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${route}`, { method, headers: { ...auth, ...(body !== undefined ? { "content-type": "application/json" } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    fail(`cannot reach ${baseUrl} (${(e as Error).message}); is the server running?`);
  }
  const text = await res.text();
  if (!res.ok) fail(`${method} ${route} -> ${res.status} ${text}`);
  return text ? JSON.parse(text) : { ok: true };
}

const print = (v: unknown) => console.log(JSON.stringify(v, null, 2));

type Opts = Record<string, string | boolean | undefined>;
const need = (o: Opts, k: string): string => (typeof o[k] === "string" && o[k] ? (o[k] as string) : fail(`--${k} is required`));
const int = (o: Opts, k: string): number => {
  const n = Number(need(o, k));
  if (!Number.isInteger(n)) fail(`--${k} must be an integer`);
  return n;
};

const commands: Record<string, { usage: string; run: (o: Opts) => Promise<unknown> }> = {
  "account create": { usage: "--name NAME [--credits N]", run: (o) => call("POST", "/admin/v1/accounts", { name: need(o, "name"), ...(o.credits ? { credits: int(o, "credits") } : {}) }) },
  "account claim-link": {
    usage: "--account ACCOUNT_ID   (prints a one-time link to set the owner's dashboard password; expires in 24 h)",
    run: (o) => call("POST", `/admin/v1/accounts/${encodeURIComponent(need(o, "account"))}/claim-link`),
  },
  "key create": { usage: "--account ACCOUNT_ID", run: (o) => call("POST", `/admin/v1/accounts/${encodeURIComponent(need(o, "account"))}/keys`) },
  "key revoke": { usage: "--key KEY_ID", run: (o) => call("DELETE", `/admin/v1/keys/${encodeURIComponent(need(o, "key"))}`) },
  "credits add": {
    usage: "--account ACCOUNT_ID --credits N --reason TEXT",
    run: (o) => call("POST", `/admin/v1/accounts/${encodeURIComponent(need(o, "account"))}/credits`, { credits: int(o, "credits"), reason: need(o, "reason") }),
  },
  "oauth-token issue": {
    usage: '--account ACCOUNT_ID --scope "mcp"|"mcp wallet" [--ttl SECONDS]',
    run: (o) => call("POST", `/admin/v1/accounts/${encodeURIComponent(need(o, "account"))}/oauth-tokens`, { scope: need(o, "scope"), ...(o.ttl ? { ttlSeconds: int(o, "ttl") } : {}) }),
  },
  "sandbox info": { usage: "", run: () => call("GET", "/admin/v1/sandbox") },
  "sandbox fund": {
    usage: "--address 0x... --asset ETH|USDC --amount WHOLE_UNITS",
    run: (o) => call("POST", "/admin/v1/sandbox/fund", { chain: "base", address: need(o, "address"), asset: need(o, "asset"), amount: need(o, "amount") }),
  },
  "proposal confirm": { usage: "--id TX_ID", run: (o) => call("POST", `/admin/v1/proposals/${encodeURIComponent(need(o, "id"))}/confirm`) },
  "proposal reject": { usage: "--id TX_ID", run: (o) => call("POST", `/admin/v1/proposals/${encodeURIComponent(need(o, "id"))}/reject`) },
  "wallet archive": { usage: "--id WALLET_ID", run: (o) => call("POST", `/admin/v1/wallets/${encodeURIComponent(need(o, "id"))}/archive`) },
  "wallet unarchive": { usage: "--id WALLET_ID", run: (o) => call("POST", `/admin/v1/wallets/${encodeURIComponent(need(o, "id"))}/unarchive`) },
  "wallet withdraw": {
    usage: "--id WALLET_ID --asset ETH|USDC|... --amount WHOLE_UNITS --to 0x...",
    run: (o) => call("POST", `/admin/v1/wallets/${encodeURIComponent(need(o, "id"))}/withdraw`, { asset: need(o, "asset"), amount: need(o, "amount"), to: need(o, "to") }),
  },
  "receipt verify": {
    usage: "--file TRANSCRIPT.json | --id VERIFICATION_ID --api-key KEY",
    run: async (o) => {
      const doc = o.file
        ? JSON.parse(readFileSync(need(o, "file"), "utf8"))
        : await call("GET", `/api/v1/intent/${encodeURIComponent(need(o, "id"))}/transcript`, undefined, { "x-api-key": need(o, "api-key") });
      const result = await verifyReceipt(doc.receipt, doc.transcript, { verdict: doc.verdict, reasoning: doc.reasoning });
      if (!result.ok) {
        print(result);
        process.exit(1);
      }
      return { ...result, judge: doc.receipt.judge, verdict: doc.verdict };
    },
  },
};

async function main() {
  const argv = process.argv.slice(2);
  const name = `${argv[0] ?? ""} ${argv[1] ?? ""}`.trim();
  const cmd = commands[name];
  if (!cmd) {
    console.error("usage: npm run cli -- <command> [options]\n");
    for (const [n, c] of Object.entries(commands)) console.error(`  ${n} ${c.usage}`);
    process.exit(argv.length ? 2 : 0);
  }
  const { values } = parseArgs({
    args: argv.slice(2),
    options: Object.fromEntries(["name", "credits", "account", "key", "reason", "scope", "ttl", "address", "asset", "amount", "id", "file", "api-key", "to"].map((k) => [k, { type: "string" as const }])),
    strict: true,
  });
  print(await cmd.run(values));
}

main().catch((e) => fail((e as Error).message));
