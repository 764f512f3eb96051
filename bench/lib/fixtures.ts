/**
 * What the scenarios need on a running service, created through its public and operator APIs: a funded
 * account, escrow wallets (funded by the sandbox faucet), pre-signed x402 top-up payments, and the gas the
 * sandbox chain charged for an operation.
 */
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { createPublicClient, http, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader, PAYMENT_REQUIRED_HEADER } from "../../src/x402";
import { ADMIN_TOKEN } from "./service";

export const DEAD = "0x000000000000000000000000000000000000dEaD";
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const VERIFY_SMALL = {
  intent: "Trade only BTC and ETH perpetuals on Hyperliquid. Max notional $2,000 per order.",
  action: { type: "order", orders: [{ a: 0, b: true, p: "97050", s: "0.02", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" },
  venue: "hyperliquid",
  context: { assets: { "0": "BTC", "1": "ETH" }, prices: { BTC: 97000, ETH: 3400 } },
};

/** The same request carrying a reference excerpt at SPEC 8's limit (4,000 characters of prose). */
export function verifyLarge() {
  const words = "the desk may rebalance perpetual exposure within the stated notional caps and must not move funds off venue".split(" ");
  let excerpt = "";
  for (let i = 0; excerpt.length < 4000; i++) excerpt += `${words[i % words.length]}${i % 17 === 16 ? ". " : " "}`;
  return { ...VERIFY_SMALL, context: { ...VERIFY_SMALL.context, reference: { source: "desk policy 2025-04", excerpt: excerpt.slice(0, 4000) } } };
}

export async function call(base: string, method: string, route: string, opts: { key?: string; admin?: boolean; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
      ...(opts.key ? { "x-api-key": opts.key } : {}),
      ...(opts.admin ? { authorization: `Bearer ${ADMIN_TOKEN}` } : {}),
      ...opts.headers,
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
}

async function ok(p: ReturnType<typeof call>, what: string, status: number) {
  const r = await p;
  if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function createAccount(base: string, credits = 50_000_000) {
  const a = await ok(call(base, "POST", "/admin/v1/accounts", { admin: true, body: { name: "bench", credits } }), "create account", 201);
  return { accountId: a.accountId as string, apiKey: a.apiKey as string };
}

export async function fund(base: string, address: string, asset: "ETH" | "USDC", amount: string) {
  await ok(call(base, "POST", "/admin/v1/sandbox/fund", { admin: true, body: { chain: "base", address, asset, amount } }), `fund ${asset}`, 200);
}

/** An escrow wallet on the sandbox chain, funded with ETH for gas and USDC to move. */
export async function createWallet(base: string, key: string, name: string, extra: Json = {}) {
  const w = await ok(call(base, "POST", "/api/v1/wallets", { key, body: { name, chain: "base", mode: "autonomous", mandate: `Send at most 10 USDC per transfer to ${DEAD}.`, ...extra } }), "create wallet", 201);
  await fund(base, w.address, "ETH", "10");
  await fund(base, w.address, "USDC", "100000");
  return { id: w.id as string, address: w.address as string };
}

/** A Starknet recipient nobody holds a key for (a felt below 2^251). */
export const SN_PAYEE = "0x0000000000000000000000000000000000000000000000000000000000dead01";

/** An escrow wallet on the sandbox Starknet node, funded with STRK for fees and USDC to move. */
export async function createStarknetWallet(base: string, key: string, name: string, extra: Json = {}) {
  const w = await ok(call(base, "POST", "/api/v1/wallets", { key, body: { name, chain: "starknet", mode: "autonomous", mandate: `Send at most 10 USDC per transfer to ${SN_PAYEE}.`, ...extra } }), "create Starknet wallet", 201);
  for (const [asset, amount] of [["STRK", "1000"], ["USDC", "100000"]]) {
    await ok(call(base, "POST", "/admin/v1/sandbox/fund", { admin: true, body: { chain: "starknet", address: w.address, asset, amount } }), `fund Starknet ${asset}`, 200);
  }
  return { id: w.id as string, address: w.address as string };
}

export const snTransferBody = (amount: string) => JSON.stringify({ input: { kind: "transfer", chain: "starknet", transfer: { asset: "USDC", amount, to: SN_PAYEE } } });

export const transferBody = (amount: string) => JSON.stringify({ input: { kind: "transfer", chain: "base", transfer: { asset: "USDC", amount, to: DEAD } } });

/** `n` distinct x402 v2 payments for `credits` credits each, signed by fresh funded payers with the official client. */
export async function signTopups(base: string, key: string, n: number, credits = 20): Promise<string[]> {
  const terms = await call(base, "POST", `/api/v1/credits/topup?credits=${credits}`, { key });
  if (terms.status !== 402) throw new Error(`top-up terms: ${terms.status} ${JSON.stringify(terms.body)}`);
  const required = decodePaymentRequiredHeader(terms.headers.get(PAYMENT_REQUIRED_HEADER)!);
  const usdPerPayment = Number(terms.body.usd);
  const headers: string[] = [];
  // Several payers, so the sandbox chain's per-account bookkeeping is not one hot spot.
  const payers = await Promise.all(
    Array.from({ length: 4 }, async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      await fund(base, account.address, "USDC", String(Math.ceil((usdPerPayment * n) / 4) + 1));
      const client = new x402Client();
      registerExactEvmScheme(client, { signer: account });
      client.setSpendControls(false);
      return client;
    }),
  );
  for (let i = 0; i < n; i++) headers.push(encodePaymentSignatureHeader(await payers[i % payers.length].createPaymentPayload(required)));
  return headers;
}

/** Gas used and the fee paid for a transaction on the sandbox chain. */
export async function gasOf(base: string, txHash: string) {
  const info = await ok(call(base, "GET", "/admin/v1/sandbox", { admin: true }), "sandbox info", 200);
  const client = createPublicClient({ transport: http(info.rpcUrl as string) });
  const r = await client.getTransactionReceipt({ hash: txHash as Hex });
  return { gasUsed: r.gasUsed, feeWei: r.gasUsed * r.effectiveGasPrice, gasPriceWei: r.effectiveGasPrice };
}
