/**
 * Starknet escrow wallets through the real HTTP app and the sandbox Starknet node (checked with unmodified
 * starknet.js): creation (sealed Stark key, counterfactual OpenZeppelin address), balances, caip2 and
 * explorer links, deploy on first use, named transfers, atomic multicalls, a reverting multicall blocked,
 * and bad input answered with a clear 400 that charges nothing and moves nothing.
 */
import { hash } from "starknet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OZ_ACCOUNT_CLASS_HASH } from "../../src/chains/starknet/constants";
import type { StarkCustodySigner } from "../../src/chains/starknet/custody";
import { freshFelt, SN_TOKENS, startStarknetEscrow, type StarknetEscrow } from "./starknet-helpers";

let e: StarknetEscrow;
let key: string;

beforeAll(async () => {
  e = await startStarknetEscrow();
  key = (await e.createAccount(100)).apiKey;
});
afterAll(async () => {
  await e?.close();
});

describe("Starknet escrow wallets", () => {
  it("creates autonomous and safe wallets at the counterfactual OpenZeppelin address of a sealed Stark key", async () => {
    const w = await e.createStarknetWallet(key, { name: "sn-auto" });
    expect(w).toMatchObject({ chain: "starknet", mode: "autonomous", custody: "server", gas: { asset: "STRK" } });
    expect(w.address).toMatch(/^0x[0-9a-f]{64}$/);
    expect(w.explorerAddressUrl).toBe(`${e.url}/sandbox/explorer/starknet/address/${w.address}`);
    expect((w.gas as { note: string }).note).toMatch(/deployed .* first transaction/);
    // The stored key reference is sealed: no key material in the row, and its public key derives the address.
    const row = await e.runtime.database.db.selectFrom("wallets").select(["key_ref", "signer"]).where("id", "=", w.id).executeTakeFirstOrThrow();
    expect(row.key_ref).not.toMatch(/[0-9a-f]{64}/);
    const pub = (e.runtime.starknet!.adapter.custody as StarkCustodySigner).publicKeyOf(row.key_ref);
    expect(BigInt(hash.calculateContractAddressFromHash(pub, OZ_ACCOUNT_CLASS_HASH, [pub], 0))).toBe(BigInt(w.address));
    // Nothing is deployed until the first transaction.
    expect(await e.snNonce(w.address)).toBeNull();

    const safe = await e.createStarknetWallet(key, { name: "sn-safe", mode: "safe" });
    expect(safe).toMatchObject({ chain: "starknet", mode: "safe" });
    expect(safe.address).not.toBe(w.address);
    const got = await e.json(await e.request("GET", `/api/v1/wallets/${safe.id}`, { key }));
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: safe.id, chain: "starknet", mode: "safe", address: safe.address });
  });

  it("balances list STRK always and each token held, with the caip2 and USD values", async () => {
    const w = await e.createStarknetWallet(key, { name: "sn-bal" });
    const empty = await e.json(await e.request("GET", `/api/v1/wallets/${w.id}/balances`, { key }));
    expect(empty.status).toBe(200);
    expect(empty.body.balances).toEqual([expect.objectContaining({ symbol: "STRK", amount: "0", caip2: "starknet:SN_MAIN", tokenAddress: SN_TOKENS.STRK })]);
    await e.fundSn(w.address, "STRK", "4");
    await e.fundSn(w.address, "USDT", "12.5");
    const b = await e.json(await e.request("GET", `/api/v1/wallets/${w.id}/balances`, { key }));
    expect(b.body.balances.map((x: { symbol: string; amountFormatted: string }) => [x.symbol, x.amountFormatted])).toEqual([
      ["STRK", "4"],
      ["USDT", "12.5"],
    ]);
    expect(b.body.balanceUsd).toBeCloseTo(4 * 0.5 + 12.5, 6);
  });

  it("the first named transfer deploys the account and lands; later ones use the next nonce", async () => {
    const w = await e.createStarknetWallet(key, { name: "sn-transfer" });
    await e.fundSn(w.address, "STRK", "3");
    await e.fundSn(w.address, "USDC", "20");
    const to = freshFelt();
    const before = await e.credits(key);
    const r = await e.proposeSn(key, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "2.5", to } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: "executed", verdict: "ALLOW" });
    expect(r.body.simulation).toMatchObject({ caip2: "starknet:SN_MAIN", status: "clean", totalUsdOut: 2.5 });
    expect(r.body.simulation.warnings.join(" ")).toMatch(/deployed first/);
    expect(r.body.txHash).toMatch(/^0x[0-9a-f]+$/);
    expect(r.body.explorerUrl).toBe(`${e.url}/sandbox/explorer/starknet/tx/${r.body.txHash}`);
    expect(await e.credits(key)).toBe(before - 1);
    const receipt = await e.provider.getTransactionReceipt(r.body.txHash);
    expect(receipt.isSuccess()).toBe(true);
    expect(BigInt(await e.provider.getClassHashAt(w.address))).toBe(BigInt(OZ_ACCOUNT_CLASS_HASH));
    expect(await e.snBalance("USDC", to)).toBe(2_500_000n);
    expect(await e.snBalance("USDC", w.address)).toBe(17_500_000n);
    expect(await e.snNonce(w.address)).toBe(2n);

    // By caip2, STRK itself; the fee is paid in STRK too.
    const strkBefore = await e.snBalance("STRK", w.address);
    const second = await e.proposeSn(key, w.id, { chain: undefined, caip2: "starknet:SN_MAIN", kind: "transfer", transfer: { asset: "strk", amount: "0.5", to } });
    expect(second.body.status, JSON.stringify(second.body)).toBe("executed");
    expect(await e.snBalance("STRK", to)).toBe(5n * 10n ** 17n);
    const spent = strkBefore - (await e.snBalance("STRK", w.address));
    expect(spent > 5n * 10n ** 17n).toBe(true);
    expect(await e.snNonce(w.address)).toBe(3n);

    // The asset may also be named by its token address, in any felt spelling.
    const byAddress = await e.proposeSn(key, w.id, { kind: "transfer", transfer: { asset: SN_TOKENS.USDC.replace("0x0", "0x"), amount: "0.5", to } });
    expect(byAddress.body.status, JSON.stringify(byAddress.body)).toBe("executed");
    expect(await e.snBalance("USDC", to)).toBe(3_000_000n);

    const tx = await e.json(await e.request("GET", `/api/v1/escrow-transactions/${second.body.txId}`, { key }));
    expect(tx.body).toMatchObject({ status: "executed", txHash: second.body.txHash });

    // The sandbox explorer behind the links: the transaction with its decoded call and transfer, the account.
    const view = await e.json(await e.request("GET", new URL(r.body.explorerUrl).pathname));
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ chain: "starknet:SN_MAIN", type: "INVOKE", status: "succeeded", senderAddress: w.address, nonce: "1" });
    expect(view.body.calls).toEqual([{ contractAddress: SN_TOKENS.USDC, entrypoint: "transfer", calldata: [to, "0x2625a0", "0x0"] }]);
    expect(view.body.transfers).toContainEqual({ asset: "USDC", contract: SN_TOKENS.USDC, from: w.address, to, amount: "2.5" });
    const acct = await e.json(await e.request("GET", new URL(w.explorerAddressUrl as string).pathname));
    expect(acct.body).toMatchObject({ address: w.address, deployed: true, classHash: OZ_ACCOUNT_CLASS_HASH, nonce: "4" });
    expect(acct.body.balances).toContainEqual({ asset: "USDC", contract: SN_TOKENS.USDC, amount: "17" });
    for (const bad of ["/tx/0x1234", "/tx/nothex", "/tx/0x" + "f".repeat(64), "/address/0xzz", "/address/" + "0x" + "f".repeat(64)]) {
      expect((await e.request("GET", `/sandbox/explorer/starknet${bad}`)).status, bad).toBe(404);
    }
    const html = await e.request("GET", new URL(r.body.explorerUrl).pathname, { headers: { accept: "text/html" } });
    expect(html.headers.get("content-type")).toMatch(/text\/html/);
    expect(await html.text()).toContain(w.address);
  });

  it("starknet_calls is one multicall executed atomically; a reverting one is blocked and sends nothing", async () => {
    const w = await e.createStarknetWallet(key, { name: "sn-multi" });
    await e.fundSn(w.address, "STRK", "3");
    await e.fundSn(w.address, "USDC", "10");
    const a = freshFelt();
    const b = freshFelt();
    const ok = await e.proposeSn(key, w.id, {
      kind: "starknet_calls",
      calls: [
        { contractAddress: SN_TOKENS.USDC, entrypoint: "transfer", calldata: [a, "1000000", "0"] },
        { contractAddress: SN_TOKENS.USDC, entrypoint: "transfer", calldata: [b, "0x1e8480", "0x0"] },
      ],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.status).toBe("executed");
    expect(ok.body.simulation.changes.map((c: { symbol: string; amount: string }) => `${c.symbol} ${c.amount}`)).toEqual(["USDC 1", "USDC 2"]);
    expect(await e.snBalance("USDC", a)).toBe(1_000_000n);
    expect(await e.snBalance("USDC", b)).toBe(2_000_000n);
    const nonce = await e.snNonce(w.address);

    // The second call asks for more than is left: the whole multicall reverts in simulation, nothing is sent.
    const bad = await e.proposeSn(key, w.id, {
      kind: "starknet_calls",
      calls: [
        { contractAddress: SN_TOKENS.USDC, entrypoint: "transfer", calldata: [a, "1000000", "0"] },
        { contractAddress: SN_TOKENS.USDC, entrypoint: "transfer", calldata: [b, "100000000", "0"] },
      ],
    });
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ status: "blocked", verdict: "BLOCK" });
    expect(bad.body.simulation.status).toBe("reverted");
    expect(bad.body.simulation.wouldRevert).toBe(true);
    expect(bad.body.txHash ?? null).toBeNull();
    expect(await e.snBalance("USDC", a)).toBe(1_000_000n);
    expect(await e.snNonce(w.address)).toBe(nonce);
  });

  it("bad input gets a clear 400 naming what is wrong; no credit is charged and nothing moves", async () => {
    const w = await e.createStarknetWallet(key, { name: "sn-bad" });
    await e.fundSn(w.address, "USDC", "10");
    const to = freshFelt();
    const credits = await e.credits(key);
    const P = 2n ** 251n + 17n * 2n ** 192n + 1n;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ kind: "transfer", transfer: { asset: "USDC", amount: "1", to } }, /no STRK/],
      [{ kind: "transfer", transfer: { asset: "DAI", amount: "1", to } }, /unsupported asset "DAI".*STRK, ETH, USDC, USDT/],
      [{ kind: "transfer", transfer: { asset: "USDC", amount: "1e3", to } }, /amount/],
      [{ kind: "transfer", transfer: { asset: "USDC", amount: "1.0000001", to } }, /amount/],
      [{ kind: "transfer", transfer: { asset: "USDC", amount: "1", to: "0xzz" } }, /transfer\.to/],
      [{ kind: "transfer", transfer: { asset: "USDC", amount: "1", to: "0x" + "f".repeat(64) } }, /transfer\.to/],
      [{ kind: "starknet_calls", calls: [{ contractAddress: SN_TOKENS.USDC, entrypoint: "transfer", calldata: [to, (P + 1n).toString(), "0"] }] }, /calls\[0\]\.calldata\[1\].*felt range/],
      [{ kind: "starknet_calls", calls: [{ contractAddress: SN_TOKENS.USDC, entrypoint: "transfer", calldata: [to, "0xg1", "0"] }] }, /calls\[0\]\.calldata\[1\]/],
      [{ kind: "starknet_calls", calls: [{ contractAddress: "0x1234", entrypoint: "transfer", calldata: [to, "1", "0"] }] }, /0x0+1234 is not deployed/],
      [{ kind: "starknet_calls", calls: [{ contractAddress: SN_TOKENS.USDC, entrypoint: "transfer; drop", calldata: [] }] }, /calls\[0\]\.entrypoint/],
      [{ kind: "starknet_calls", calls: [] }, /calls/],
      [{ kind: "evm_calls", calls: [{ to: "0x" + "1".repeat(40) }] }, /wrong chain/],
      [{ kind: "transfer", chain: "base", transfer: { asset: "USDC", amount: "1", to } }, /wrong chain/],
    ];
    for (const [input, msg] of cases) {
      const r = await e.proposeSn(key, w.id, input);
      expect(r.status, JSON.stringify(input)).toBe(400);
      expect(["propose_failed", "invalid_input"], JSON.stringify(r.body)).toContain(r.body.error);
      expect(r.body.message, JSON.stringify(input)).toMatch(msg);
    }
    // Some STRK, but less than this transaction's fee (its deployment included): refused the same way.
    await e.fundSn(w.address, "STRK", "0.000001");
    const low = await e.proposeSn(key, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to } });
    expect(low.status).toBe(400);
    expect(low.body).toMatchObject({ error: "propose_failed" });
    expect(low.body.message).toMatch(/^the wallet holds 0\.000001 STRK; this transaction's fee needs up to 0\.\d+ STRK/);
    expect(await e.credits(key)).toBe(credits);
    expect(await e.snBalance("USDC", w.address)).toBe(10_000_000n);
    expect(await e.snNonce(w.address)).toBeNull();
    const list = await e.json(await e.request("GET", `/api/v1/escrow-transactions?wallet=${w.id}`, { key }));
    expect(list.body.transactions).toEqual([]);
  });
});
