/**
 * The fee estimate races with the account's own transactions: between reading the nonce and asking for the
 * estimate, another proposal of the same wallet can land (seen under load in the ten-concurrent-proposals test).
 * The node then refuses the estimate for its stale nonce, which says nothing about the transaction being prepared.
 * A proxy in front of the sandbox node lands that other transaction exactly in the window, so the node's own answer
 * ("Invalid transaction nonce", "unavailable for deployment") is what the adapter sees.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Account, cairo, CallData, RpcProvider, stark } from "starknet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WalletRef } from "../../../src/chains/port";
import { createStarknetAdapter } from "../../../src/chains/starknet/adapter";
import { STRK_ADDRESS } from "../../../src/chains/starknet/constants";
import { createStarkSigner } from "../../../src/chains/starknet/custody";
import { startStarknetSandbox, type StarknetSandbox } from "../../../src/chains/starknet/sandbox";
import { MasterKey } from "../../../src/wallets/custody/envelope";
import { envelopeVault } from "../../../src/wallets/custody/vault";

type Wallet = WalletRef & { keyRef: string };

let sb: StarknetSandbox;
let proxy: Server;
/** Runs once, just before the next starknet_estimateFee reaches the node. */
let beforeEstimate: (() => Promise<void>) | null = null;
const estimates: string[] = [];
const keyRefs = new Map<string, string>();
const custody = createStarkSigner(envelopeVault(new MasterKey(randomBytes(32).toString("hex"))));
const options = (rpcUrl: string) => ({ rpcUrl, custody, prices: { usd: async () => 0.5 }, sandbox: true, keyRefOf: async (id: string) => keyRefs.get(id) ?? null, pollMs: 20 });
let direct: ReturnType<typeof createStarknetAdapter>;
let viaProxy: ReturnType<typeof createStarknetAdapter>;

async function newFundedWallet(): Promise<Wallet> {
  const id = `wal_${randomBytes(6).toString("hex")}`;
  const k = await custody.createKey(id);
  keyRefs.set(id, k.keyRef);
  const provider = new RpcProvider({ nodeUrl: sb.url });
  const faucet = new Account({ provider, address: sb.node.faucet.address, signer: sb.node.faucet.privateKey });
  const r = await faucet.execute({ contractAddress: STRK_ADDRESS, entrypoint: "transfer", calldata: CallData.compile({ recipient: k.address, amount: cairo.uint256(10n ** 18n) }) });
  await provider.waitForTransaction(r.transaction_hash, { retryInterval: 20 });
  return { id, address: k.address, chain: "starknet", keyRef: k.keyRef };
}

/** One STRK transfer of `w`, prepared, signed, sent and final, through the adapter that talks to the node directly. */
async function land(w: Wallet): Promise<bigint> {
  const planned = await direct.plan(w, { kind: "transfer", transfer: { asset: "STRK", amount: "0.01", to: stark.randomAddress() } });
  const prepared = await direct.prepare(w, planned.payload);
  if (!prepared.ok) throw new Error(prepared.reason);
  const signed = await direct.sign(prepared.prepared, { handle: { walletId: w.id, address: w.address, keyRef: w.keyRef }, nextSequence: null });
  expect(await direct.broadcast(signed)).toEqual({ kind: "sent" });
  expect(await direct.waitForFinal(signed.hash, 5000)).toEqual({ state: "succeeded" });
  return BigInt((JSON.parse(signed.raw) as { invoke: { nonce: string } }).invoke.nonce);
}

beforeAll(async () => {
  sb = await startStarknetSandbox();
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString("utf8");
        if ((JSON.parse(body) as { method?: string }).method === "starknet_estimateFee" && beforeEstimate) {
          const hook = beforeEstimate;
          beforeEstimate = null;
          await hook();
        }
        const answer = await fetch(sb.url, { method: "POST", headers: { "content-type": "application/json" }, body });
        const text = await answer.text();
        if ((JSON.parse(body) as { method?: string }).method === "starknet_estimateFee") estimates.push(text);
        res.writeHead(answer.status, { "content-type": "application/json" }).end(text);
      })();
    });
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  direct = createStarknetAdapter(options(sb.url));
  viaProxy = createStarknetAdapter(options(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`));
});
afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  await sb?.close();
});

describe("Starknet fee estimate racing the account's own transactions", () => {
  it("a transaction that lands between the nonce read and the estimate does not fail the proposal: the nonce is read again", async () => {
    const w = await newFundedWallet();
    expect(await land(w)).toBe(1n); // deployed, nonce now 2
    estimates.length = 0;
    let landed = 0n;
    const planned = await viaProxy.plan(w, { kind: "transfer", transfer: { asset: "STRK", amount: "0.02", to: stark.randomAddress() } });
    estimates.length = 0;
    beforeEstimate = async () => {
      landed = await land(w); // nonce 2 spent: the estimate below carries a stale nonce
    };
    const prepared = await viaProxy.prepare(w, planned.payload);
    expect(landed).toBe(2n);
    // The node did refuse the stale estimate (the race happened), and the retry succeeded.
    expect(estimates[0]).toMatch(/Invalid transaction nonce/);
    if (!prepared.ok) throw new Error(`the proposal failed: ${prepared.reason}`);
    const signed = await viaProxy.sign(prepared.prepared, { handle: { walletId: w.id, address: w.address, keyRef: w.keyRef }, nextSequence: null });
    expect(BigInt((JSON.parse(signed.raw) as { invoke: { nonce: string } }).invoke.nonce)).toBe(3n);
    expect(await viaProxy.broadcast(signed)).toEqual({ kind: "sent" });
    expect(await viaProxy.waitForFinal(signed.hash, 5000)).toEqual({ state: "succeeded" });
  });

  it("a deployment that lands in the window is read again the same way", async () => {
    const w = await newFundedWallet(); // not deployed: the estimate carries the deployment
    estimates.length = 0;
    const planned = await viaProxy.plan(w, { kind: "transfer", transfer: { asset: "STRK", amount: "0.02", to: stark.randomAddress() } });
    estimates.length = 0;
    beforeEstimate = async () => {
      await land(w); // deploys the account and spends nonce 1
    };
    const prepared = await viaProxy.prepare(w, planned.payload);
    expect(estimates[0]).toMatch(/unavailable for deployment|Invalid transaction nonce/);
    expect(prepared.ok, prepared.ok ? "" : prepared.reason).toBe(true);
  });

  it("a transaction that fails for its own reasons still fails: more than the wallet holds", async () => {
    const w = await newFundedWallet();
    const planned = await viaProxy.plan(w, { kind: "transfer", transfer: { asset: "STRK", amount: "5", to: stark.randomAddress() } });
    const prepared = await viaProxy.prepare(w, planned.payload);
    expect(prepared.ok).toBe(false);
  });
});
