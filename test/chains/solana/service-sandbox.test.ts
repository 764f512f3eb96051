/**
 * The Solana sandbox inside the real service: GET /admin/v1/sandbox reports it, POST /admin/v1/sandbox/fund
 * with chain "solana" lands real faucet transactions (read back with unmodified @solana/kit), the sandbox
 * explorer shows them, and bad fund requests are 400s naming the problem.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSolanaRpc, generateKeyPairSigner, type Address } from "@solana/kit";
import { fetchToken, findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { freePort } from "../../helpers/process";
import { startTestRuntime, type TestRuntime } from "../../helpers/runtime";

let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime({ env: { SANDBOX: "true", SANDBOX_RPC_PORT: String(await freePort()), SOLANA_SANDBOX_RPC_PORT: "0" } });
});
afterAll(() => t?.close());

describe("solana sandbox in the service", () => {
  it("admin info, faucet (SOL and USDC), explorer", async () => {
    const info = (await (await t.admin("GET", "/admin/v1/sandbox")).json()) as { solana: { rpcUrl: string; wsUrl: string; genesisHash: string; caip2: string; usdcMint: string } };
    expect(info.solana.usdcMint).toBe("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
    expect(info.solana.caip2).toBe(`solana:${info.solana.genesisHash.slice(0, 32)}`);
    expect(info.solana.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    const rpc = createSolanaRpc(info.solana.rpcUrl);
    expect(await rpc.getGenesisHash().send()).toBe(info.solana.genesisHash);

    const owner = (await generateKeyPairSigner()).address;
    const sol = await t.admin("POST", "/admin/v1/sandbox/fund", { chain: "solana", address: owner, asset: "sol", amount: "1.5" });
    expect(sol.status).toBe(200);
    const solBody = (await sol.json()) as { txHash: string; chain: string; amountBase: string };
    expect(solBody).toMatchObject({ chain: "solana", amountBase: "1500000000" });
    const usdc = (await (await t.admin("POST", "/admin/v1/sandbox/fund", { chain: "solana", address: owner, asset: "USDC", amount: 40 })).json()) as { txHash: string };
    expect((await rpc.getBalance(owner).send()).value).toBe(1_500_000_000n);
    const [ata] = await findAssociatedTokenPda({ owner, mint: info.solana.usdcMint as Address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    expect((await fetchToken(rpc, ata)).data.amount).toBe(40_000_000n);

    const tx = (await (await t.request("GET", `/sandbox/explorer/solana/tx/${usdc.txHash}`)).json()) as { status: string; chain: string; logs: string[] };
    expect(tx).toMatchObject({ status: "success", chain: info.solana.caip2 });
    expect(tx.logs.join("\n")).toMatch(/TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA/);
    const addr = (await (await t.request("GET", `/sandbox/explorer/solana/address/${owner}`)).json()) as { balances: { symbol: string; amountFormatted: string }[]; signatures: { signature: string }[] };
    expect(addr.balances.map((b) => [b.symbol, b.amountFormatted])).toEqual([["SOL", "1.5"], ["USDC", "40"]]);
    expect(addr.signatures.map((s) => s.signature)).toEqual(expect.arrayContaining([solBody.txHash, usdc.txHash]));
    expect((await t.request("GET", "/sandbox/explorer/solana/tx/nope")).status).toBe(404);
  });

  it("bad fund requests are 400s", async () => {
    const bad = async (body: unknown) => {
      const r = await t.admin("POST", "/admin/v1/sandbox/fund", body);
      expect(r.status).toBe(400);
      return ((await r.json()) as { message?: string; error: string }).message ?? "";
    };
    const a = (await generateKeyPairSigner()).address;
    expect(await bad({ chain: "solana", address: "0x000000000000000000000000000000000000dEaD", asset: "SOL", amount: "1" })).toMatch(/base58/);
    expect(await bad({ chain: "solana", address: a, asset: "ETH", amount: "1" })).toMatch(/SOL or USDC/);
    expect(await bad({ chain: "solana", address: a, asset: "USDC", amount: "1e2" })).toMatch(/amount/);
    expect(await bad({ chain: "solana", address: a, asset: "SOL", amount: "0.0000000001" })).toMatch(/decimal/);
    expect(await bad({ chain: "dogecoin", address: a, asset: "SOL", amount: "1" })).toMatch(/base or solana/);
  });
});
