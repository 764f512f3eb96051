/**
 * The benchmark scenarios (issue 10) and the set-up they share. Each scenario is checked once by hand
 * before the load (a 200 that carries an error would otherwise count as a success), and records what
 * one operation costs in credits and gas on the sandbox chain.
 */
import type { LoadOptions } from "./lib/load";
import type { Proc } from "./lib/service";
import { call, createAccount, createStarknetWallet, createWallet, gasOf, signTopups, snTransferBody, transferBody, verifyLarge, VERIFY_SMALL } from "./lib/fixtures";
import { setupSolana, solTransactionBody, solTransferBody, type SolanaBench } from "./lib/solana";

export interface Costs {
  db?: string;
  /** Credits before/after one operation of each kind, and the gas of the chain transactions. */
  ops: { op: string; credits: number; gasUsed?: bigint; feeWei?: bigint; gasPriceWei?: bigint; paidBy?: string; note?: string }[];
}

export interface Ctx {
  svc: Proc;
  key: string;
  verificationId: string;
  blockedWallet: string;
  execWallets: string[];
  /** Starknet wallets on the sandbox node (empty when the deployment serves no Starknet). */
  snBlockedWallet: string;
  snExecWallets: string[];
  /** Null when the service runs no Solana sandbox (then the Solana scenarios are skipped). */
  solana: SolanaBench | null;
  quick: boolean;
  costs: Costs;
}

export interface Scenario {
  id: string;
  title: string;
  baseline: "const" | "insert" | null;
  target?: { min: number; what: string };
  noWarmup?: boolean;
  prepare(ctx: Ctx): Promise<Omit<LoadOptions, "connections" | "duration"> & Partial<Pick<LoadOptions, "connections" | "duration">>>;
}

const json = { "content-type": "application/json" };
const MCP_HEADERS = { ...json, accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
const mcpCall = (name: string, args: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });

function expect(cond: unknown, what: string, got: unknown) {
  if (!cond) throw new Error(`sanity check failed: ${what}: ${JSON.stringify(got).slice(0, 500)}`);
}

const credits = async (base: string, key: string) => (await call(base, "GET", "/api/v1/credits", { key })).body.creditsRemaining as number;

/** `minimal`: only what the API scenarios need (an account and one verification), no wallets or payments. */
export async function setup(svc: Proc, opts: { quick: boolean; minimal?: boolean }): Promise<Ctx> {
  const base = svc.url;
  const { apiKey: key } = await createAccount(base);
  const costs: Costs = { ops: [] };

  let before = await credits(base, key);
  const v = await call(base, "POST", "/api/v1/intent", { key, body: VERIFY_SMALL });
  expect(v.status === 201 && v.body.verdict === "ALLOW", "POST /api/v1/intent", v.body);
  costs.ops.push({ op: "verification (POST /api/v1/intent, verify_intent)", credits: before - (await credits(base, key)) });
  if (opts.minimal) return { svc, key, verificationId: v.body.id as string, blockedWallet: "", execWallets: [], snBlockedWallet: "", snExecWallets: [], solana: null, quick: opts.quick, costs };

  const blocked = await createWallet(base, key, "bench-capped", { limits: { maxPerTxUsd: 1 } });
  before = await credits(base, key);
  const b = await call(base, "POST", `/api/v1/wallets/${blocked.id}/propose`, { key, body: JSON.parse(transferBody("5")) });
  expect(b.status === 200 && b.body.status === "blocked" && /maxPerTxUsd/.test(b.body.reasoning), "proposal blocked by limits", b.body);
  costs.ops.push({ op: "proposal blocked by wallet limits", credits: before - (await credits(base, key)), note: "free: the judge does not run" });

  const execWallets: string[] = [];
  for (let i = 0; i < 4; i++) execWallets.push((await createWallet(base, key, `bench-exec-${i}`)).id);
  // The first transaction of a wallet may carry more (e.g. a delegation); measure a later one.
  await call(base, "POST", `/api/v1/wallets/${execWallets[0]}/propose`, { key, body: JSON.parse(transferBody("0.01")) });
  before = await credits(base, key);
  const e = await call(base, "POST", `/api/v1/wallets/${execWallets[0]}/propose`, { key, body: JSON.parse(transferBody("0.01")) });
  expect(e.status === 200 && e.body.status === "executed" && e.body.txHash, "proposal executed", e.body);
  costs.ops.push({ op: "USDC transfer proposal, executed", credits: before - (await credits(base, key)), ...(await gasOf(base, e.body.txHash)), paidBy: "the escrow wallet (ETH)" });

  const [payment] = await signTopups(base, key, 1);
  before = await credits(base, key);
  const t = await call(base, "POST", "/api/v1/credits/topup?credits=20", { key, headers: { "PAYMENT-SIGNATURE": payment } });
  expect(t.status === 200 && t.body.credited === 20 && t.body.txHash, "top-up", t.body);
  costs.ops.push({
    op: "top-up settlement (x402, 20 credits for 1.00 USDC)",
    credits: before - (await credits(base, key)),
    ...(await gasOf(base, t.body.txHash)),
    paidBy: "Arbiter's facilitator (ETH); the payer pays only USDC",
  });
  // A swap is one atomic batch (approval of exactly the amount + swap) through the wallet's EIP-7702
  // delegation; the wallet's first batch also carries the delegation itself.
  const sw = await createWallet(base, key, "bench-swap", { mandate: "Swap at most 100 USDC into WETH per trade on Base." });
  const swapBody = { chain: "base", sell: "USDC", buy: "WETH", amount: "10" };
  for (const [i, label] of ["swap 10 USDC -> WETH, first batch of a wallet (with its EIP-7702 delegation)", "swap 10 USDC -> WETH (approval + swap in one batch)"].entries()) {
    before = await credits(base, key);
    const r = await call(base, "POST", `/api/v1/wallets/${sw.id}/swap`, { key, body: swapBody });
    if (r.status !== 200 || r.body.status !== "executed") {
      costs.ops.push({ op: label, credits: before - (await credits(base, key)), note: `not executed: ${r.status} ${r.body.status ?? r.body.error}` });
      break;
    }
    costs.ops.push({ op: label, credits: before - (await credits(base, key)), ...(await gasOf(base, r.body.txHash)), paidBy: "the escrow wallet (ETH)", note: i === 0 ? "sandbox pool" : "sandbox pool; 0x on production" });
  }

  // Starknet: the same two proposals on the sandbox Starknet node (fees in STRK; the first transaction of a
  // wallet also deploys its account, so the one measured is a later one).
  const snBlocked = await createStarknetWallet(base, key, "bench-sn-capped", { limits: { maxPerTxUsd: 1 } });
  before = await credits(base, key);
  const sb = await call(base, "POST", `/api/v1/wallets/${snBlocked.id}/propose`, { key, body: JSON.parse(snTransferBody("5")) });
  expect(sb.status === 200 && sb.body.status === "blocked" && /maxPerTxUsd/.test(sb.body.reasoning), "Starknet proposal blocked by limits", sb.body);
  costs.ops.push({ op: "Starknet proposal blocked by wallet limits", credits: before - (await credits(base, key)), note: "free: the judge does not run" });
  const snExecWallets: string[] = [];
  for (let i = 0; i < 4; i++) snExecWallets.push((await createStarknetWallet(base, key, `bench-sn-exec-${i}`)).id);
  for (const w of snExecWallets) {
    const first = await call(base, "POST", `/api/v1/wallets/${w}/propose`, { key, body: JSON.parse(snTransferBody("0.01")) });
    expect(first.status === 200 && first.body.status === "executed", "Starknet first proposal (deploys the account)", first.body);
  }
  before = await credits(base, key);
  const se = await call(base, "POST", `/api/v1/wallets/${snExecWallets[0]}/propose`, { key, body: JSON.parse(snTransferBody("0.01")) });
  expect(se.status === 200 && se.body.status === "executed" && se.body.txHash, "Starknet proposal executed", se.body);
  const fee = (se.body.simulation?.warnings as string[] | undefined)?.find((w) => w.startsWith("fee about"));
  costs.ops.push({ op: "Starknet USDC transfer proposal, executed", credits: before - (await credits(base, key)), paidBy: "the escrow wallet (STRK)", note: fee ?? "fee not reported" });

  // Solana (sandbox cluster): a limit refusal of a named transfer, and a kit-built solana_transaction
  // executed autonomously (named transfers always wait for the owner, SPEC 3).
  const solana = await setupSolana(base, key);
  if (solana) {
    before = await credits(base, key);
    const solBlocked = await call(base, "POST", `/api/v1/wallets/${solana.blockedWallet}/propose`, { key, body: JSON.parse(solTransferBody("5")) });
    expect(solBlocked.status === 200 && solBlocked.body.status === "blocked" && /maxPerTxUsd/.test(solBlocked.body.reasoning), "Solana proposal blocked by limits", solBlocked.body);
    costs.ops.push({ op: "Solana proposal blocked by wallet limits", credits: before - (await credits(base, key)), note: "free: the judge does not run" });
    before = await credits(base, key);
    const solExec = await call(base, "POST", `/api/v1/wallets/${solana.execWallets[0]!.id}/propose`, { key, body: JSON.parse(await solTransactionBody(solana.rpcUrl, solana.execWallets[0]!.address, 1_000_000n)) });
    expect(solExec.status === 200 && solExec.body.status === "executed" && solExec.body.txHash, "Solana proposal executed", solExec.body);
    costs.ops.push({ op: "Solana solana_transaction proposal (SOL transfer), executed", credits: before - (await credits(base, key)), paidBy: "the escrow wallet (5,000 lamports a signature)" });
  }

  const id = v.body.id as string;
  return { svc, key, verificationId: id, blockedWallet: blocked.id, execWallets, snBlockedWallet: snBlocked.id, snExecWallets, solana, quick: opts.quick, costs };
}

const verifyScenario = (id: string, title: string, body: () => unknown): Scenario => ({
  id,
  title,
  baseline: "insert",
  target: { min: 0.5, what: ">= 50% of one-INSERT" },
  prepare: async (c) => ({ url: `${c.svc.url}/api/v1/intent`, method: "POST", headers: { ...json, "x-api-key": c.key }, body: JSON.stringify(body()) }),
});

export const scenarios = {
  verifyRequest: VERIFY_SMALL,
  list: [
    verifyScenario("verify-small", "POST /api/v1/intent (rules judge, 0.3 kB)", () => VERIFY_SMALL),
    verifyScenario("verify-4k", "POST /api/v1/intent (4,000-char reference)", verifyLarge),
    {
      id: "get-intent",
      title: "GET /api/v1/intent/{id}",
      baseline: "const",
      prepare: async (c) => ({ url: `${c.svc.url}/api/v1/intent/${c.verificationId}`, method: "GET", headers: { "x-api-key": c.key } }),
    },
    {
      id: "get-credits",
      title: "GET /api/v1/credits",
      baseline: "const",
      target: { min: 0.25, what: ">= 25% of constant JSON" },
      prepare: async (c) => ({ url: `${c.svc.url}/api/v1/credits`, method: "GET", headers: { "x-api-key": c.key } }),
    },
    {
      id: "mcp-verify",
      title: "MCP verify_intent",
      baseline: "insert",
      prepare: async (c) => {
        const body = mcpCall("verify_intent", VERIFY_SMALL);
        const r = await call(c.svc.url, "POST", "/api/mcp", { key: c.key, headers: MCP_HEADERS, body: JSON.parse(body) });
        expect(r.status === 200 && r.body.result && !r.body.result.isError, "MCP verify_intent", r.body);
        return { url: `${c.svc.url}/api/mcp`, method: "POST", headers: { ...MCP_HEADERS, "x-api-key": c.key }, body };
      },
    },
    {
      id: "propose-blocked",
      title: "proposal blocked by limits",
      baseline: "insert",
      prepare: async (c) => ({ url: `${c.svc.url}/api/v1/wallets/${c.blockedWallet}/propose`, method: "POST", headers: { ...json, "x-api-key": c.key }, body: transferBody("5") }),
    },
    {
      id: "propose-executed",
      title: "proposal executed on the sandbox chain",
      baseline: "insert",
      prepare: async (c) => ({
        url: `${c.svc.url}/api/v1/wallets/${c.execWallets[0]}/propose`,
        method: "POST",
        headers: { ...json, "x-api-key": c.key },
        connections: 8,
        rotate: c.execWallets.map((w) => ({ path: `/api/v1/wallets/${w}/propose`, body: transferBody("0.01") })),
      }),
    },
    {
      id: "starknet-propose-blocked",
      title: "Starknet proposal blocked by limits",
      baseline: "insert",
      prepare: async (c) => ({ url: `${c.svc.url}/api/v1/wallets/${c.snBlockedWallet}/propose`, method: "POST", headers: { ...json, "x-api-key": c.key }, body: snTransferBody("5") }),
    },
    {
      id: "starknet-propose-executed",
      title: "Starknet proposal executed on the sandbox node",
      baseline: "insert",
      prepare: async (c) => ({
        url: `${c.svc.url}/api/v1/wallets/${c.snExecWallets[0]}/propose`,
        method: "POST",
        headers: { ...json, "x-api-key": c.key },
        connections: 8,
        rotate: c.snExecWallets.map((w) => ({ path: `/api/v1/wallets/${w}/propose`, body: snTransferBody("0.01") })),
      }),
    },
    {
      id: "sol-propose-blocked",
      title: "Solana proposal blocked by limits",
      baseline: "insert",
      prepare: async (c) => {
        if (!c.solana) throw new Error("no Solana sandbox on this service");
        return { url: `${c.svc.url}/api/v1/wallets/${c.solana.blockedWallet}/propose`, method: "POST", headers: { ...json, "x-api-key": c.key }, body: solTransferBody("5") };
      },
    },
    {
      id: "sol-propose-executed",
      title: "Solana proposal executed on the sandbox cluster",
      baseline: "insert",
      prepare: async (c) => {
        const s = c.solana;
        if (!s) throw new Error("no Solana sandbox on this service");
        // Built now: a caller's transaction must carry a blockhash the cluster still knows.
        const rotate = await Promise.all(s.execWallets.map(async (w) => ({ path: `/api/v1/wallets/${w.id}/propose`, body: await solTransactionBody(s.rpcUrl, w.address, 1_000_000n) })));
        return { url: `${c.svc.url}/api/v1/wallets/${s.execWallets[0]!.id}/propose`, method: "POST", headers: { ...json, "x-api-key": c.key }, connections: 8, rotate };
      },
    },
    {
      id: "topup",
      title: "top-up payment (x402 settle + credit)",
      baseline: "insert",
      noWarmup: true,
      prepare: async (c) => {
        const n = c.quick ? 40 : 120;
        const payments = await signTopups(c.svc.url, c.key, n);
        return {
          url: `${c.svc.url}/api/v1/credits/topup?credits=20`,
          method: "POST",
          headers: { "x-api-key": c.key },
          connections: 8,
          amount: n,
          rotate: payments.map((p) => ({ headers: { "PAYMENT-SIGNATURE": p } })),
        };
      },
    },
  ] as Scenario[],
};
