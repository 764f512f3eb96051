import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decodeEventLog,
  domainSeparator,
  encodeFunctionData,
  parseEther,
  parseSignature,
  toHex,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
} from "viem";
import {
  BASE_USDC,
  BASE_WETH,
  BATCH_EXECUTOR,
  MULTICALL3,
  POOL_SEED_USDC,
  POOL_SEED_WETH,
  SANDBOX_POOL,
  ensureSandboxContracts,
  sandboxPublicClient,
  sandboxWalletClient,
  startSandbox,
  type Sandbox,
} from "../../src/sandbox";
import { BatchExecutorAbi, ConstantProductPoolAbi, Multicall3Abi, SandboxUSDCAbi, WETHAbi, runtimeCode } from "../../src/sandbox/contracts";
import { isServiceError } from "../../src/lib/errors";
import { fundedAccount, randomAddress } from "./helpers";

let sb: Sandbox;
let pub: PublicClient;

beforeAll(async () => {
  sb = await startSandbox({});
  pub = sandboxPublicClient(sb.rpcUrl);
});
afterAll(async () => {
  await sb?.stop();
});

const usdcBalance = (a: Hex) => pub.readContract({ address: BASE_USDC, abi: SandboxUSDCAbi, functionName: "balanceOf", args: [a] });
const wethBalance = (a: Hex) => pub.readContract({ address: BASE_WETH, abi: WETHAbi, functionName: "balanceOf", args: [a] });

const DOMAIN = { name: "USD Coin", version: "2", chainId: 8453, verifyingContract: BASE_USDC } as const;
const TRANSFER_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

async function signTransfer(
  signer: PrivateKeyAccount,
  to: Hex,
  value: bigint,
  opts: { primaryType?: "TransferWithAuthorization" | "ReceiveWithAuthorization"; validBefore?: bigint } = {},
) {
  const now = BigInt(Math.floor(Date.now() / 1000));
  const message = {
    from: signer.address,
    to,
    value,
    validAfter: now - 600n,
    validBefore: opts.validBefore ?? now + 600n,
    nonce: toHex(randomBytes(32)),
  };
  const primaryType = opts.primaryType ?? "TransferWithAuthorization";
  const types = { [primaryType]: TRANSFER_TYPES.TransferWithAuthorization } as unknown as typeof TRANSFER_TYPES;
  const signature = await signer.signTypedData({
    domain: DOMAIN,
    types,
    primaryType: primaryType as "TransferWithAuthorization",
    message,
  });
  return { message, signature };
}

describe("sandbox contracts", () => {
  it("places every contract at its canonical address", async () => {
    for (const [address, name] of [
      [BASE_USDC, "SandboxUSDC"],
      [MULTICALL3, "Multicall3"],
      [BASE_WETH, "WETH"],
      [SANDBOX_POOL, "ConstantProductPool"],
      [BATCH_EXECUTOR, "BatchExecutor"],
    ] as const) {
      expect((await pub.getCode({ address }))?.toLowerCase(), name).toBe(runtimeCode(name).toLowerCase());
    }
    const read = <T>(functionName: "name" | "symbol" | "decimals" | "version" | "DOMAIN_SEPARATOR" | "minter") =>
      pub.readContract({ address: BASE_USDC, abi: SandboxUSDCAbi, functionName }) as Promise<T>;
    expect(await read("name")).toBe("USD Coin");
    expect(await read("symbol")).toBe("USDC");
    expect(await read("decimals")).toBe(6);
    expect(await read("version")).toBe("2");
    expect(await read("DOMAIN_SEPARATOR")).toBe(domainSeparator({ domain: DOMAIN }));
    expect(await read("minter")).toBe(sb.accounts.faucet.address);
    expect(await pub.readContract({ address: BASE_WETH, abi: WETHAbi, functionName: "symbol" })).toBe("WETH");
  });

  it("set-up is idempotent: a second run sends nothing", async () => {
    const before = await pub.getBlockNumber();
    await ensureSandboxContracts(sb.rpcUrl, { faucet: sb.accounts.faucet, fundAddresses: [sb.accounts.relayer.address] });
    expect(await pub.getBlockNumber()).toBe(before);
  });

  it("the faucet funds ETH and USDC with real transactions", async () => {
    const to = randomAddress();
    const eth = await sb.faucet.fund({ address: to, asset: "ETH", amount: "0.25" });
    const usdc = await sb.faucet.fund({ address: to.toLowerCase(), asset: "USDC", amount: "12.345678" });
    expect(await pub.getBalance({ address: to })).toBe(parseEther("0.25"));
    expect(await usdcBalance(to)).toBe(12_345_678n);
    expect((await pub.getTransactionReceipt({ hash: eth.txHash })).status).toBe("success");
    const usdcTx = await pub.getTransaction({ hash: usdc.txHash });
    expect(usdcTx.to?.toLowerCase()).toBe(BASE_USDC.toLowerCase());
    expect(usdc).toMatchObject({ address: to, asset: "USDC", amount: "12.345678", amountBase: "12345678" });

    // concurrent requests from the one faucet account do not collide on nonces
    const many = await Promise.all([1, 2, 3, 4].map((i) => sb.faucet.fund({ address: to, asset: "USDC", amount: String(i) })));
    expect(new Set(many.map((r) => r.txHash)).size).toBe(4);
    expect(await usdcBalance(to)).toBe(22_345_678n);

    for (const bad of [
      { address: "0x123", asset: "ETH", amount: "1" },
      { address: to, asset: "DOGE", amount: "1" },
      { address: to, asset: "USDC", amount: "0" },
      { address: to, asset: "USDC", amount: "1e3" },
      { address: to, asset: "USDC", amount: "0.0000001" },
      { address: to, asset: "ETH", amount: "100000" },
    ]) {
      const err = await sb.faucet.fund(bad as never).catch((e: unknown) => e);
      expect(isServiceError(err), JSON.stringify(bad)).toBe(true);
    }
  });

  it("only the minter can mint", async () => {
    const stranger = await fundedAccount(sb, { eth: "1" });
    const w = sandboxWalletClient(sb.rpcUrl, stranger);
    await expect(
      w.writeContract({ address: BASE_USDC, abi: SandboxUSDCAbi, functionName: "mint", args: [stranger.address, 1n] }),
    ).rejects.toThrow(/caller is not the minter/);
  });
});

describe("SandboxUSDC EIP-3009", () => {
  it("transferWithAuthorization (v, r, s) works once; the nonce flips and a replay reverts", async () => {
    const payer = await fundedAccount(sb, { usdc: "10" });
    const payee = randomAddress();
    const relayer = sandboxWalletClient(sb.rpcUrl, sb.accounts.relayer);
    const { message, signature } = await signTransfer(payer, payee, 2_500_000n);
    const { v, r, s } = parseSignature(signature);
    const args = [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, Number(v), r, s] as const;

    expect(await pub.readContract({ address: BASE_USDC, abi: SandboxUSDCAbi, functionName: "authorizationState", args: [payer.address, message.nonce] })).toBe(false);
    const hash = await relayer.writeContract({ address: BASE_USDC, abi: SandboxUSDCAbi, functionName: "transferWithAuthorization", args });
    const receipt = await relayer.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    const events = receipt.logs.map((l) => decodeEventLog({ abi: SandboxUSDCAbi, data: l.data, topics: l.topics }));
    expect(events.map((e) => e.eventName)).toEqual(["AuthorizationUsed", "Transfer"]);
    expect(await usdcBalance(payee)).toBe(2_500_000n);
    expect(await usdcBalance(payer.address)).toBe(7_500_000n);
    expect(await pub.readContract({ address: BASE_USDC, abi: SandboxUSDCAbi, functionName: "authorizationState", args: [payer.address, message.nonce] })).toBe(true);

    await expect(
      relayer.writeContract({ address: BASE_USDC, abi: SandboxUSDCAbi, functionName: "transferWithAuthorization", args }),
    ).rejects.toThrow(/authorization is used or canceled/);
  });

  it("accepts the bytes-signature overload and rejects a wrong signer, an expired or an overdrawn authorization", async () => {
    const payer = await fundedAccount(sb, { usdc: "5" });
    const other = await fundedAccount(sb);
    const payee = randomAddress();
    const relayer = sandboxWalletClient(sb.rpcUrl, sb.accounts.relayer);
    const call = (m: Awaited<ReturnType<typeof signTransfer>>["message"], sig: Hex) =>
      relayer.writeContract({
        address: BASE_USDC,
        abi: SandboxUSDCAbi,
        functionName: "transferWithAuthorization",
        args: [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, sig],
      });

    const ok = await signTransfer(payer, payee, 1_000_000n);
    expect((await relayer.waitForTransactionReceipt({ hash: await call(ok.message, ok.signature) })).status).toBe("success");

    const forged = await signTransfer(other, payee, 1_000_000n);
    await expect(call({ ...forged.message, from: payer.address }, forged.signature)).rejects.toThrow(/invalid signature/);

    const now = BigInt(Math.floor(Date.now() / 1000));
    const expired = await signTransfer(payer, payee, 1_000_000n, { validBefore: now - 1n });
    await expect(call(expired.message, expired.signature)).rejects.toThrow(/authorization is expired/);

    const tooMuch = await signTransfer(payer, payee, 50_000_000n);
    await expect(call(tooMuch.message, tooMuch.signature)).rejects.toThrow(/transfer amount exceeds balance/);
  });

  it("receiveWithAuthorization must be called by the payee", async () => {
    const payer = await fundedAccount(sb, { usdc: "3" });
    const payee = await fundedAccount(sb, { eth: "1" });
    const { message: m, signature } = await signTransfer(payer, payee.address, 1_000_000n, { primaryType: "ReceiveWithAuthorization" });
    const args = [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, signature] as const;
    const relayer = sandboxWalletClient(sb.rpcUrl, sb.accounts.relayer);
    await expect(
      relayer.writeContract({ address: BASE_USDC, abi: SandboxUSDCAbi, functionName: "receiveWithAuthorization", args }),
    ).rejects.toThrow(/caller must be the payee/);
    const w = sandboxWalletClient(sb.rpcUrl, payee);
    const hash = await w.writeContract({ address: BASE_USDC, abi: SandboxUSDCAbi, functionName: "receiveWithAuthorization", args });
    expect((await w.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await usdcBalance(payee.address)).toBe(1_000_000n);
  });

  it("cancelAuthorization burns a nonce", async () => {
    const payer = await fundedAccount(sb, { usdc: "3" });
    const { message: m, signature } = await signTransfer(payer, randomAddress(), 1_000_000n);
    const cancelSig = await payer.signTypedData({
      domain: DOMAIN,
      types: { CancelAuthorization: [{ name: "authorizer", type: "address" }, { name: "nonce", type: "bytes32" }] },
      primaryType: "CancelAuthorization",
      message: { authorizer: payer.address, nonce: m.nonce },
    });
    const relayer = sandboxWalletClient(sb.rpcUrl, sb.accounts.relayer);
    const hash = await relayer.writeContract({
      address: BASE_USDC,
      abi: SandboxUSDCAbi,
      functionName: "cancelAuthorization",
      args: [payer.address, m.nonce, cancelSig],
    });
    const receipt = await relayer.waitForTransactionReceipt({ hash });
    expect(decodeEventLog({ abi: SandboxUSDCAbi, data: receipt.logs[0].data, topics: receipt.logs[0].topics }).eventName).toBe("AuthorizationCanceled");
    await expect(
      relayer.writeContract({
        address: BASE_USDC,
        abi: SandboxUSDCAbi,
        functionName: "transferWithAuthorization",
        args: [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, signature],
      }),
    ).rejects.toThrow(/authorization is used or canceled/);
  });

  it("verifies an EIP-7702 delegated account through ERC-1271 (BatchExecutor.isValidSignature)", async () => {
    const payer = await fundedAccount(sb, { eth: "1", usdc: "4" });
    const w = sandboxWalletClient(sb.rpcUrl, payer);
    const authorization = await w.signAuthorization({ contractAddress: BATCH_EXECUTOR, executor: "self" });
    await w.waitForTransactionReceipt({ hash: await w.sendTransaction({ authorizationList: [authorization], to: payer.address, data: "0x" }) });
    expect(await pub.getCode({ address: payer.address })).toBe(`0xef0100${BATCH_EXECUTOR.slice(2).toLowerCase()}`);

    const payee = randomAddress();
    const { message: m, signature } = await signTransfer(payer, payee, 1_500_000n);
    const relayer = sandboxWalletClient(sb.rpcUrl, sb.accounts.relayer);
    const hash = await relayer.writeContract({
      address: BASE_USDC,
      abi: SandboxUSDCAbi,
      functionName: "transferWithAuthorization",
      args: [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, signature],
    });
    expect((await relayer.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await usdcBalance(payee)).toBe(1_500_000n);
  });
});

describe("ConstantProductPool", () => {
  it("is seeded with 100 WETH / 300,000 USDC", async () => {
    expect(await pub.readContract({ address: SANDBOX_POOL, abi: ConstantProductPoolAbi, functionName: "getReserves" })).toEqual([
      POOL_SEED_WETH,
      POOL_SEED_USDC,
    ]);
  });

  it("swaps USDC for WETH at the quoted price and enforces minAmountOut", async () => {
    const trader = await fundedAccount(sb, { eth: "1", usdc: "3000" });
    const w = sandboxWalletClient(sb.rpcUrl, trader);
    const amountIn = 3_000_000_000n;
    const quote = await pub.readContract({ address: SANDBOX_POOL, abi: ConstantProductPoolAbi, functionName: "getAmountOut", args: [BASE_USDC, amountIn] });
    expect(quote).toBeGreaterThan(parseEther("0.98"));
    expect(quote).toBeLessThan(parseEther("1"));
    await w.waitForTransactionReceipt({
      hash: await w.writeContract({ address: BASE_USDC, abi: SandboxUSDCAbi, functionName: "approve", args: [SANDBOX_POOL, amountIn] }),
    });
    await expect(
      w.writeContract({
        address: SANDBOX_POOL,
        abi: ConstantProductPoolAbi,
        functionName: "swapExactIn",
        args: [BASE_USDC, amountIn, quote + 1n, trader.address],
      }),
    ).rejects.toThrow(/insufficient output amount/);
    const [r0, r1] = await pub.readContract({ address: SANDBOX_POOL, abi: ConstantProductPoolAbi, functionName: "getReserves" });
    const hash = await w.writeContract({
      address: SANDBOX_POOL,
      abi: ConstantProductPoolAbi,
      functionName: "swapExactIn",
      args: [BASE_USDC, amountIn, quote, trader.address],
    });
    expect((await w.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await wethBalance(trader.address)).toBe(quote);
    expect(await usdcBalance(trader.address)).toBe(0n);
    expect(await pub.readContract({ address: SANDBOX_POOL, abi: ConstantProductPoolAbi, functionName: "getReserves" })).toEqual([
      r0 - quote,
      r1 + amountIn,
    ]);
  });

  it("sells ETH sent as msg.value for USDC", async () => {
    const trader = await fundedAccount(sb, { eth: "2" });
    const w = sandboxWalletClient(sb.rpcUrl, trader);
    const amountIn = parseEther("1");
    const quote = await pub.readContract({ address: SANDBOX_POOL, abi: ConstantProductPoolAbi, functionName: "getAmountOut", args: [BASE_WETH, amountIn] });
    const hash = await w.writeContract({
      address: SANDBOX_POOL,
      abi: ConstantProductPoolAbi,
      functionName: "swapExactIn",
      args: [BASE_WETH, amountIn, quote, trader.address],
      value: amountIn,
    });
    expect((await w.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await usdcBalance(trader.address)).toBe(quote);
  });
});

describe("BatchExecutor via EIP-7702", () => {
  it("runs an approve + swap batch atomically from the account itself", async () => {
    const wallet = await fundedAccount(sb, { eth: "1", usdc: "100" });
    const w = sandboxWalletClient(sb.rpcUrl, wallet);
    const amountIn = 100_000_000n;
    const quote = await pub.readContract({ address: SANDBOX_POOL, abi: ConstantProductPoolAbi, functionName: "getAmountOut", args: [BASE_USDC, amountIn] });
    const calls = [
      { to: BASE_USDC, value: 0n, data: encodeFunctionData({ abi: SandboxUSDCAbi, functionName: "approve", args: [SANDBOX_POOL, amountIn] }) },
      {
        to: SANDBOX_POOL,
        value: 0n,
        data: encodeFunctionData({ abi: ConstantProductPoolAbi, functionName: "swapExactIn", args: [BASE_USDC, amountIn, quote, wallet.address] }),
      },
    ];
    const authorization = await w.signAuthorization({ contractAddress: BATCH_EXECUTOR, executor: "self" });
    const hash = await w.sendTransaction({
      authorizationList: [authorization],
      to: wallet.address,
      data: encodeFunctionData({ abi: BatchExecutorAbi, functionName: "execute", args: [calls] }),
    });
    const receipt = await w.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    expect(receipt.type).toBe("eip7702");
    expect(await usdcBalance(wallet.address)).toBe(0n);
    expect(await wethBalance(wallet.address)).toBe(quote);
  });

  it("a batch with one reverting call moves nothing and bubbles the reason", async () => {
    const wallet = await fundedAccount(sb, { eth: "1", usdc: "10" });
    const w = sandboxWalletClient(sb.rpcUrl, wallet);
    const authorization = await w.signAuthorization({ contractAddress: BATCH_EXECUTOR, executor: "self" });
    await w.waitForTransactionReceipt({ hash: await w.sendTransaction({ authorizationList: [authorization], to: wallet.address, data: "0x" }) });

    const payee = randomAddress();
    const data = encodeFunctionData({
      abi: BatchExecutorAbi,
      functionName: "execute",
      args: [
        [
          { to: BASE_USDC, value: 0n, data: encodeFunctionData({ abi: SandboxUSDCAbi, functionName: "transfer", args: [payee, 5_000_000n] }) },
          { to: payee, value: parseEther("0.1"), data: "0x" },
          { to: BASE_USDC, value: 0n, data: encodeFunctionData({ abi: SandboxUSDCAbi, functionName: "transfer", args: [payee, 50_000_000n] }) },
        ],
      ],
    });
    await expect(w.estimateGas({ to: wallet.address, data })).rejects.toThrow(/transfer amount exceeds balance/);
    // Mined anyway (explicit gas): the transaction reverts as a whole.
    const hash = await w.sendTransaction({ to: wallet.address, data, gas: 300_000n });
    expect((await w.waitForTransactionReceipt({ hash })).status).toBe("reverted");
    expect(await usdcBalance(wallet.address)).toBe(10_000_000n);
    expect(await usdcBalance(payee)).toBe(0n);
    expect(await pub.getBalance({ address: payee })).toBe(0n);
  });

  it("refuses execute from anyone but the account itself", async () => {
    const wallet = await fundedAccount(sb, { eth: "1" });
    const w = sandboxWalletClient(sb.rpcUrl, wallet);
    const authorization = await w.signAuthorization({ contractAddress: BATCH_EXECUTOR, executor: "self" });
    await w.waitForTransactionReceipt({ hash: await w.sendTransaction({ authorizationList: [authorization], to: wallet.address, data: "0x" }) });
    const attacker = sandboxWalletClient(sb.rpcUrl, sb.accounts.relayer);
    await expect(
      attacker.writeContract({
        address: wallet.address,
        abi: BatchExecutorAbi,
        functionName: "execute",
        args: [[{ to: sb.accounts.relayer.address, value: parseEther("0.5"), data: "0x" }]],
      }),
    ).rejects.toThrow(/OnlySelf/);
    // and a plain ETH transfer to the delegated account still works (receive())
    const hash = await attacker.sendTransaction({ to: wallet.address, value: 1n });
    expect((await attacker.waitForTransactionReceipt({ hash })).status).toBe("success");
  });
});

describe("Multicall3", () => {
  it("serves viem's multicall (aggregate3) and the helper getters", async () => {
    const results = await pub.multicall({
      contracts: [
        { address: BASE_USDC, abi: SandboxUSDCAbi, functionName: "name" },
        { address: BASE_USDC, abi: SandboxUSDCAbi, functionName: "mint", args: [randomAddress(), 1n] },
        { address: MULTICALL3, abi: Multicall3Abi, functionName: "getEthBalance", args: [sb.accounts.faucet.address] },
      ],
    });
    expect(results[0]).toEqual({ status: "success", result: "USD Coin" });
    expect(results[1].status).toBe("failure");
    expect(results[2].status).toBe("success");
    expect(await pub.readContract({ address: MULTICALL3, abi: Multicall3Abi, functionName: "getChainId" })).toBe(8453n);
  });
});
