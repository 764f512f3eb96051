import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { checkTranscriptDocument, type JudgePin, type TranscriptDocument } from "./receipts/check";
import { JudgeDocument, trustedKeys } from "./receipts/judge-identity";
import { rotateJudgeKey } from "./receipts/judge-history";
import { readAnchoredRoot } from "./chains/evm/anchor";

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
    usage: "[--chain base|solana|starknet] --address 0x...|BASE58 --asset ETH|USDC (base), SOL|USDC (solana), STRK|ETH|USDC|USDT (starknet) --amount WHOLE_UNITS",
    run: (o) => call("POST", "/admin/v1/sandbox/fund", { chain: o.chain ?? "base", address: need(o, "address"), asset: need(o, "asset"), amount: need(o, "amount") }),
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
    usage:
      "(--file TRANSCRIPT.json | --id VERIFICATION_ID --api-key KEY) (--judge 0xADDRESS[,0x...] | --judge-file PINNED.json) [--rpc URL]\n" +
      "      checks the transcript root, output hash and signature against the PINNED judge key, then the anchor inclusion path;\n" +
      "      --file is fully offline; --rpc also reads the batch root from the anchor contract",
    run: async (o) => {
      const pin = judgePin(o);
      const doc = (
        o.file
          ? readJson(need(o, "file"))
          : await call("GET", `/api/v1/intent/${encodeURIComponent(need(o, "id"))}/transcript`, undefined, { "x-api-key": need(o, "api-key") })
      ) as TranscriptDocument;
      if (!doc || typeof doc !== "object" || !doc.receipt || !Array.isArray(doc.transcript)) fail("not a transcript document (expected the JSON of GET /api/v1/intent/{id}/transcript)");
      const chainRoot = o.rpc ? await readChainRoot(need(o, "rpc"), doc) : undefined;
      const result = await checkTranscriptDocument(doc, pin, { chainRoot });
      if (!result.ok) {
        print(result);
        process.exit(1);
      }
      return result;
    },
  },
  "judge pin": {
    usage:
      "--out PINNED.json   fetches ARBITER_URL/.well-known/arbiter-judge.json once and writes the keys you will trust;\n" +
      "      when PINNED.json exists, the new document must extend it through rotations signed by a pinned key",
    run: async (o) => {
      const out = need(o, "out");
      const fetched = JudgeDocument.safeParse(await call("GET", "/.well-known/arbiter-judge.json", undefined, {}));
      if (!fetched.success) fail(`the server's judge document is malformed: ${fetched.error.issues[0]?.message}`);
      const previous = existsSync(out) ? parseJudgeDocument(out) : null;
      const { keys, problems } = await trustedKeys(fetched.data, previous ? previous.keys.map((k) => k.address) : []);
      if (keys.length === 0) fail(`refusing to pin: ${problems.join("; ")}`);
      const firstTrusted = fetched.data.keys.findIndex((k) => k.address.toLowerCase() === keys[0].address.toLowerCase());
      const pinned = { version: 1, keys: fetched.data.keys.slice(firstTrusted, firstTrusted + keys.length) };
      writeFileSync(out, `${JSON.stringify(pinned, null, 2)}\n`);
      return { pinned: out, keys: keys.map((k) => k.address), notTrusted: problems };
    },
  },
  "judge rotate": {
    usage:
      "   (service stopped) the current judge key signs a new one into DATA_DIR/judge-keys.json; with a key file the new key replaces it,\n" +
      "      with JUDGE_SIGNING_KEY set, pass the new key in JUDGE_NEW_SIGNING_KEY and set JUDGE_SIGNING_KEY to it before restarting",
    run: async () => {
      const envKey = env.JUDGE_SIGNING_KEY ?? null;
      const newKey = env.JUDGE_NEW_SIGNING_KEY ?? null;
      if (envKey && !newKey) fail("JUDGE_SIGNING_KEY is set: pass the new key in JUDGE_NEW_SIGNING_KEY (a generated key could not be handed to you safely)");
      if (newKey && !/^0x[0-9a-fA-F]{64}$/.test(newKey)) fail("JUDGE_NEW_SIGNING_KEY must be 0x followed by 64 hex digits");
      return rotateJudgeKey({ dataDir: path.resolve(env.DATA_DIR ?? "./data"), envKey, newKey: newKey as `0x${string}` | null, now: new Date() });
    },
  },
};

/** The root the anchor contract holds for the transcript's batch; the chain id must be the one the anchor names. */
async function readChainRoot(rpc: string, doc: TranscriptDocument): Promise<`0x${string}` | null> {
  const a = doc.anchor;
  if (!a || !a.root) return null;
  try {
    const { root, chainId } = await readAnchoredRoot(rpc, a.contract, a.anchorer, BigInt(a.batchId));
    if (chainId !== a.chainId) fail(`--rpc serves chain ${chainId}, the anchor is on chain ${a.chainId}`);
    return root;
  } catch (e) {
    fail(`cannot read the anchor contract over ${rpc}: ${(e as Error).message.split("\n")[0]}`);
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    fail(`cannot read ${file}: ${(e as Error).message}`);
  }
}

function parseJudgeDocument(file: string): JudgeDocument {
  const parsed = JudgeDocument.safeParse(readJson(file));
  if (!parsed.success) fail(`${file} is not a judge document: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** The keys the user trusts. Never the key the receipt names, never a document fetched during this check. */
function judgePin(o: Opts): JudgePin {
  const addresses = typeof o.judge === "string" ? o.judge.split(",").map((a) => a.trim()).filter(Boolean) : [];
  if (addresses.some((a) => !/^0x[0-9a-fA-F]{40}$/.test(a))) fail("--judge must be 0x addresses separated by commas");
  const document = typeof o["judge-file"] === "string" ? parseJudgeDocument(o["judge-file"]) : undefined;
  if (!document && addresses.length === 0)
    fail("receipt verify needs the judge you trust: --judge 0xADDRESS, or --judge-file PINNED.json written by `judge pin` (a receipt's own `judge` field proves nothing)");
  return { addresses, document };
}

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
    options: Object.fromEntries(["name", "credits", "account", "key", "reason", "scope", "ttl", "chain", "address", "asset", "amount", "id", "file", "api-key", "to", "judge", "judge-file", "rpc", "out"].map((k) => [k, { type: "string" as const }])),
    strict: true,
  });
  print(await cmd.run(values));
}

main().catch((e) => fail((e as Error).message));
