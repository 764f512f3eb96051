/**
 * Top-up test runtime: a real service (startTestRuntime) on the real sandbox chain (anvil started by the
 * runtime on a free port), paid with the official x402 client (@x402/fetch + @x402/evm) and viem accounts.
 * Requests go through the app's fetch (PUBLIC_URL http://arbiter.test) unless `listen` is set.
 */
import { randomBytes } from "node:crypto";
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { authorizationTypes } from "@x402/evm";
import { wrapFetchWithPayment } from "@x402/fetch";
import { createPublicClient, http, parseAbi, toHex, type Address, type PrivateKeyAccount, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { listen } from "../../src/server";
import {
  decodePaymentRequiredHeader,
  encodePaymentSignatureHeader,
  PAYMENT_REQUIRED_HEADER,
  type PaymentPayload,
  type PaymentRequired,
  type PaymentRequirements,
} from "../../src/x402";
import { freePort } from "../helpers/process";
import { startTestRuntime } from "../helpers/runtime";

export const USDC: Address = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
export const ERC20 = parseAbi(["function balanceOf(address) view returns (uint256)", "function transfer(address,uint256) returns (bool)"]);
export const TOPUP = "/api/v1/credits/topup";

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function startTopupRuntime(opts: { env?: Record<string, string>; listen?: boolean } = {}) {
  const port = opts.listen ? await freePort() : 0;
  const publicUrl = opts.listen ? `http://127.0.0.1:${port}` : "http://arbiter.test";
  const t = await startTestRuntime({ env: { SANDBOX: "true", SANDBOX_RPC_PORT: "0", PUBLIC_URL: publicUrl, SHUTDOWN_GRACE_MS: "1000", ...opts.env } });
  const server = opts.listen ? await listen(t.runtime, { host: "127.0.0.1", port }) : null;
  const sandbox = t.runtime.chain?.sandbox;
  if (!sandbox) throw new Error("the top-up test runtime needs the sandbox chain");
  const pub = createPublicClient({ transport: http(sandbox.rpcUrl) }) as PublicClient;

  /** fetch against the runtime: the in-memory app, or the real port when listening. */
  const appFetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    opts.listen ? fetch(input, init) : Promise.resolve(t.app.fetch(new Request(input, init)));

  const url = (query = "") => `${publicUrl}${TOPUP}${query}`;

  /** The official x402 client paying with `account` (spend cap raised to $max). */
  function payingFetch(account: PrivateKeyAccount, max = "$1") {
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: account });
    client.setSpendControls({ maxAmountPerPayment: max });
    return wrapFetchWithPayment(appFetch, client);
  }

  /** Asks for the terms (402) and signs them with the official client, without sending the payment. */
  async function sign(account: PrivateKeyAccount, query: string, headers: Record<string, string> = {}, tamper?: (r: PaymentRequired) => PaymentRequired) {
    const res = await appFetch(url(query), { method: "POST", headers });
    if (res.status !== 402) throw new Error(`expected 402, got ${res.status} ${await res.text()}`);
    let required = decodePaymentRequiredHeader(res.headers.get(PAYMENT_REQUIRED_HEADER)!);
    if (tamper) required = tamper(required);
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: account });
    client.setSpendControls(false);
    const payload = await client.createPaymentPayload(required);
    return { payload, header: encodePaymentSignatureHeader(payload), requirements: required.accepts[0] };
  }

  /** Signs an EIP-3009 authorization by hand (for fields the x402 client never produces, e.g. expired). */
  async function signManually(account: PrivateKeyAccount, requirements: PaymentRequirements, over: Partial<Record<"to" | "value" | "validAfter" | "validBefore" | "nonce", string>> = {}) {
    const now = Math.floor(Date.now() / 1000);
    const authorization = {
      from: account.address,
      to: (over.to ?? requirements.payTo) as Address,
      value: over.value ?? requirements.amount,
      validAfter: over.validAfter ?? "0",
      validBefore: over.validBefore ?? String(now + 300),
      nonce: (over.nonce ?? toHex(randomBytes(32))) as `0x${string}`,
    };
    const signature = await account.signTypedData({
      domain: { name: "USD Coin", version: "2", chainId: 8453, verifyingContract: USDC },
      types: authorizationTypes,
      primaryType: "TransferWithAuthorization",
      message: { ...authorization, value: BigInt(authorization.value), validAfter: BigInt(authorization.validAfter), validBefore: BigInt(authorization.validBefore) },
    });
    const payload: PaymentPayload = { x402Version: 2, resource: { url: url(), description: "", mimeType: "application/json" }, accepted: requirements, payload: { authorization, signature } };
    return { payload, header: encodePaymentSignatureHeader(payload), requirements };
  }

  const post = async (query: string, headers: Record<string, string> = {}) => {
    const res = await appFetch(url(query), { method: "POST", headers });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
  };

  return {
    ...t,
    sandbox,
    pub,
    publicUrl,
    appFetch,
    url,
    payingFetch,
    sign,
    signManually,
    post,
    /** A fresh payer with test USDC (whole units) and, optionally, ETH. */
    async payer(usdc?: string, eth?: string): Promise<PrivateKeyAccount & { key: `0x${string}` }> {
      const key = generatePrivateKey();
      const account = Object.assign(privateKeyToAccount(key), { key });
      if (usdc) await sandbox.faucet.fund({ address: account.address, asset: "USDC", amount: usdc });
      if (eth) await sandbox.faucet.fund({ address: account.address, asset: "ETH", amount: eth });
      return account;
    },
    usdcOf: (a: Address) => pub.readContract({ address: USDC, abi: ERC20, functionName: "balanceOf", args: [a] }),
    payTo: () => t.runtime.services.topup.settings!.payTo,
    async balance(key: string): Promise<number> {
      const res = await t.request("GET", "/api/v1/credits", { key });
      return ((await res.json()) as { creditsRemaining: number }).creditsRemaining;
    },
    async accountBalance(accountId: string): Promise<number> {
      const row = await t.runtime.database.db.selectFrom("accounts").select("credits_remaining").where("id", "=", accountId).executeTakeFirstOrThrow();
      return row.credits_remaining;
    },
    async toppedUp(): Promise<number> {
      return (await t.runtime.metrics.creditsToppedUp.get()).values.reduce((s, v) => s + v.value, 0);
    },
    async close() {
      await server?.stop();
      await t.close();
    },
  };
}
export type TopupRuntime = Awaited<ReturnType<typeof startTopupRuntime>>;
