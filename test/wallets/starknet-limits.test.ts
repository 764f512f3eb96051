/**
 * Starknet wallets' limits and judge through the real HTTP app and the sandbox Starknet node: each limit
 * (per transaction, the rolling daily cap with its reservation under concurrency, token and recipient
 * allowlists compared as felts by value), judge BLOCK and ESCALATE, and what the judge sees. A limit refusal
 * is free (no judge, no credit) and sends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshFelt, SN_TOKENS, startStarknetEscrow, type StarknetEscrow } from "./starknet-helpers";

let e: StarknetEscrow;

beforeAll(async () => {
  e = await startStarknetEscrow();
});
afterAll(async () => {
  expect(await e.ledgerMismatches()).toEqual([]);
  await e?.close();
});

async function funded(key: string, body: Record<string, unknown>, usdc = "1000") {
  const w = await e.createStarknetWallet(key, body);
  await e.fundSn(w.address, "STRK", "5");
  await e.fundSn(w.address, "USDC", usdc);
  return w;
}

describe("Starknet limits and judge", () => {
  it("maxPerTxUsd blocks above the limit for free; at the limit it executes", async () => {
    const a = await e.createAccount(10);
    const w = await funded(a.apiKey, { name: "per-tx", limits: { maxPerTxUsd: 25 } });
    const to = freshFelt();
    const over = await e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "25.01", to } });
    expect(over.status).toBe(200);
    expect(over.body).toMatchObject({ status: "blocked", verdict: "BLOCK", scanId: null, creditsRemaining: null });
    expect(over.body.reasoning).toMatch(/^maxPerTxUsd: this proposal moves \$25\.01, above the limit of \$25\.00/);
    expect(e.judge.inputs.some((i) => JSON.stringify(i.action).includes(over.body.txId))).toBe(false);
    expect(await e.credits(a.apiKey)).toBe(10);
    expect(await e.snNonce(w.address)).toBeNull();
    // STRK priced at the sandbox's $0.50: 60 STRK is $30, over the limit too.
    await e.fundSn(w.address, "STRK", "100");
    const strk = await e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "STRK", amount: "60", to } });
    expect(strk.body.reasoning).toMatch(/^maxPerTxUsd: this proposal moves \$30\.00/);
    const at = await e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "25", to } });
    expect(at.body.status).toBe("executed");
    expect(await e.snBalance("USDC", to)).toBe(25_000_000n);
    expect(await e.credits(a.apiKey)).toBe(9);
  });

  it("a multicall counts every transfer and approval out against maxPerTxUsd", async () => {
    const a = await e.createAccount(10);
    const w = await funded(a.apiKey, { name: "per-tx-multi", limits: { maxPerTxUsd: 10 } });
    const to = freshFelt();
    const r = await e.proposeSn(a.apiKey, w.id, {
      kind: "starknet_calls",
      calls: [
        { contractAddress: SN_TOKENS.USDC, entrypoint: "transfer", calldata: [to, "6000000", "0"] },
        { contractAddress: SN_TOKENS.USDC, entrypoint: "approve", calldata: [to, "5000000", "0"] },
      ],
    });
    expect(r.body).toMatchObject({ status: "blocked", verdict: "BLOCK" });
    expect(r.body.reasoning).toMatch(/^maxPerTxUsd: this proposal moves \$11\.00/);
    const unlimited = await e.proposeSn(a.apiKey, w.id, {
      kind: "starknet_calls",
      calls: [{ contractAddress: SN_TOKENS.USDC, entrypoint: "approve", calldata: [to, "0x" + "f".repeat(32), "0x" + "f".repeat(32)] }],
    });
    expect(unlimited.body.reasoning).toMatch(/^maxPerTxUsd: an unlimited approval/);
    expect(await e.snBalance("USDC", to)).toBe(0n);
    expect(await e.credits(a.apiKey)).toBe(10);
  });

  it("ten concurrent proposals of 30% of the daily cap on an undeployed account: exactly three execute, once each", async () => {
    const a = await e.createAccount(20);
    const w = await funded(a.apiKey, { name: "capped", limits: { dailyCapUsd: 100 } });
    const to = freshFelt();
    const results = await Promise.all(Array.from({ length: 10 }, () => e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "30", to } })));
    const statuses = results.map((r) => r.body.status);
    expect(statuses.filter((s) => s === "executed"), JSON.stringify(results.map((r) => r.body.error ?? r.body.reasoning))).toHaveLength(3);
    expect(statuses.filter((s) => s === "blocked")).toHaveLength(7);
    for (const r of results.filter((x) => x.body.status === "blocked")) {
      expect(r.body).toMatchObject({ verdict: "BLOCK", scanId: null, creditsRemaining: null });
      expect(r.body.reasoning).toMatch(/^dailyCapUsd: /);
    }
    expect(new Set(results.filter((r) => r.body.status === "executed").map((r) => r.body.txHash)).size).toBe(3);
    expect(await e.snBalance("USDC", to)).toBe(90_000_000n);
    // The deployment (nonce 0) and three INVOKEs (1, 2, 3).
    expect(await e.snNonce(w.address)).toBe(4n);
    expect(await e.credits(a.apiKey)).toBe(17);
    // The window still holds $90: $10.01 more is refused, $10 passes.
    const more = await e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "10.01", to } });
    expect(more.body.reasoning).toMatch(/^dailyCapUsd: \$90\.00 already counted/);
    expect((await e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "10", to } })).body.status).toBe("executed");
  });

  it("tokenAllowlist: symbols and addresses in any felt spelling resolve to the token; others are blocked", async () => {
    const a = await e.createAccount(10);
    // USDC by a short spelling of its address (no leading zero), STRK by symbol.
    const w = await funded(a.apiKey, { name: "tokens", limits: { tokenAllowlist: ["0x33068f6539f8e6e6b131e6b2b814e6c34a5224bc66947c47dab9dfee93b35fb", "strk"] } });
    expect(w.limits).toEqual({ tokenAllowlist: [SN_TOKENS.USDC, SN_TOKENS.STRK] });
    await e.fundSn(w.address, "ETH", "1");
    const to = freshFelt();
    const eth = await e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "ETH", amount: "0.01", to } });
    expect(eth.body).toMatchObject({ status: "blocked", verdict: "BLOCK", creditsRemaining: null });
    expect(eth.body.reasoning).toBe(`tokenAllowlist: 0.01 ETH (${SN_TOKENS.ETH}) is not an allowed token`);
    const usdc = await e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to } });
    expect(usdc.body.status).toBe("executed");
    // An unknown symbol is kept and permits nothing (the creation says so).
    const odd = await e.json(await e.request("POST", "/api/v1/wallets", { key: a.apiKey, body: { chain: "starknet", name: "odd", mode: "autonomous", limits: { tokenAllowlist: ["DAI"] } } }));
    expect(odd.status).toBe(201);
    expect(odd.body.warnings.join(" ")).toMatch(/"DAI" is not a well-known token on this chain/);
    const bad = await e.json(await e.request("POST", "/api/v1/wallets", { key: a.apiKey, body: { chain: "starknet", name: "bad", mode: "autonomous", limits: { tokenAllowlist: ["0x" + "f".repeat(64)] } } }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/tokenAllowlist/);
  });

  it("recipientAllowlist compares felts by value: a short spelling allows the padded address; others and spenders are blocked", async () => {
    const a = await e.createAccount(10);
    const w = await funded(a.apiKey, { name: "recipients", limits: { recipientAllowlist: ["0x1234"] } });
    expect(w.limits).toEqual({ recipientAllowlist: ["0x" + "1234".padStart(64, "0")] });
    const ok = await e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: "0x0000000000000000000000000000000000000000000000000000000000001234" } });
    expect(ok.body.status).toBe("executed");
    const dec = await e.proposeSn(a.apiKey, w.id, { kind: "starknet_calls", calls: [{ contractAddress: SN_TOKENS.USDC, entrypoint: "transfer", calldata: ["4660", "1000000", "0"] }] });
    expect(dec.body.status).toBe("executed");
    expect(await e.snBalance("USDC", "0x1234")).toBe(2_000_000n);
    const other = freshFelt();
    const no = await e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: other } });
    expect(no.body).toMatchObject({ status: "blocked", verdict: "BLOCK" });
    expect(no.body.reasoning).toBe(`recipientAllowlist: ${other} is not an allowed recipient (receives 1 USDC)`);
    const spender = await e.proposeSn(a.apiKey, w.id, { kind: "starknet_calls", calls: [{ contractAddress: SN_TOKENS.USDC, entrypoint: "approve", calldata: [other, "1000000", "0"] }] });
    expect(spender.body.reasoning).toBe(`recipientAllowlist: ${other} is not an allowed spender (approved for USDC)`);
    expect(await e.snBalance("USDC", other)).toBe(0n);
    const badList = await e.json(await e.request("POST", "/api/v1/wallets", { key: a.apiKey, body: { chain: "starknet", name: "bad-r", mode: "autonomous", limits: { recipientAllowlist: ["alice"] } } }));
    expect(badList.status).toBe(400);
    expect(badList.body.message).toMatch(/^limits\.recipientAllowlist: "alice" is not a Starknet address/);
  });

  it("the judge's BLOCK is charged and sends nothing; ESCALATE on an autonomous wallet waits for the owner", async () => {
    const a = await e.createAccount(10);
    const w = await funded(a.apiKey, { name: "judged", mandate: "Pay suppliers only. [judge:block]" });
    const to = freshFelt();
    const before = e.judge.inputs.length;
    const r = await e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "3", to } }, "invoice 42");
    expect(r.body).toMatchObject({ status: "blocked", verdict: "BLOCK", reasoning: "the mandate forbids this", creditsRemaining: 9 });
    expect(r.body.scanId).toEqual(expect.any(String));
    expect(e.judge.inputs.length).toBe(before + 1);
    const seen = e.judge.inputs[before]!;
    expect(seen.intent).toContain("Pay suppliers only.");
    expect(seen.note).toBe("invoice 42");
    expect(JSON.stringify(seen.facts)).toMatch(/starknet/i);
    expect(await e.snBalance("USDC", to)).toBe(0n);
    expect(await e.snNonce(w.address)).toBeNull();

    const w2 = await funded(a.apiKey, { name: "escalated", mandate: "[judge:escalate]" });
    const esc = await e.proposeSn(a.apiKey, w2.id, { kind: "transfer", transfer: { asset: "USDC", amount: "3", to } });
    expect(esc.body).toMatchObject({ status: "awaiting_user", verdict: "ESCALATE" });
    expect(esc.body.approvalUrl ?? esc.body.approveUrl ?? "").toMatch(/dashboard/);
    expect(await e.snBalance("USDC", to)).toBe(0n);
  });
});
