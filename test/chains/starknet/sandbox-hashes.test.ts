/**
 * The sandbox node's own hash, address and signature code against vectors computed by starknet.js
 * itself: a node that recomputed a hash differently would refuse every real client's transaction.
 */
import { randomBytes } from "node:crypto";
import { ec, hash, Signer, stark, type Call } from "starknet";
import { describe, expect, it } from "vitest";
import { OZ_ACCOUNT_CLASS_HASH, SN_MAIN, SN_SEPOLIA } from "../../../src/chains/starknet/constants";
import { contractAddress, deployAccountV3Hash, invokeV3Hash, verifyStarkSignature, type ResourceBounds } from "../../../src/chains/starknet/tx-hash";
import { SandboxNode } from "../../../src/chains/starknet/sandbox";
import { handleBody } from "../../../src/chains/starknet/sandbox/server";

const rnd = (bytes: number) => BigInt("0x" + randomBytes(bytes).toString("hex"));
const bounds = (): ResourceBounds => ({
  l1_gas: { maxAmount: rnd(7), maxPricePerUnit: rnd(15) },
  l2_gas: { maxAmount: rnd(7), maxPricePerUnit: rnd(15) },
  l1_data_gas: { maxAmount: rnd(7), maxPricePerUnit: rnd(15) },
});
const sjsBounds = (rb: ResourceBounds) => ({
  l1_gas: { max_amount: rb.l1_gas.maxAmount, max_price_per_unit: rb.l1_gas.maxPricePerUnit },
  l2_gas: { max_amount: rb.l2_gas.maxAmount, max_price_per_unit: rb.l2_gas.maxPricePerUnit },
  l1_data_gas: { max_amount: rb.l1_data_gas.maxAmount, max_price_per_unit: rb.l1_data_gas.maxPricePerUnit },
});
const felts = (n: number) => Array.from({ length: n }, () => rnd(31));
/** starknet.js's hash functions take the data-availability modes as numbers (L1 = 0, L2 = 1). */
type EDAMode = Parameters<typeof hash.calculateInvokeTransactionHash>[0]["nonceDataAvailabilityMode"];

describe("sandbox node hashes match starknet.js", () => {
  it("INVOKE v3 hash, for random fields, with and without proof facts and both DA modes", () => {
    for (let i = 0; i < 24; i++) {
      const t = {
        version: i % 3 === 0 ? 2n ** 128n + 3n : 3n,
        senderAddress: rnd(31),
        tip: rnd(4),
        resourceBounds: bounds(),
        paymasterData: felts(i % 3),
        chainId: BigInt(i % 2 ? SN_MAIN : SN_SEPOLIA),
        nonce: rnd(3),
        nonceDaMode: BigInt(i % 2),
        feeDaMode: BigInt((i >> 1) % 2),
        accountDeploymentData: felts(i % 2),
        calldata: felts(1 + (i % 7)),
        proofFacts: i % 4 === 0 ? felts(9) : [],
      };
      const expected = hash.calculateInvokeTransactionHash({
        senderAddress: t.senderAddress,
        version: ("0x" + t.version.toString(16)) as "0x3",
        compiledCalldata: t.calldata.map(String),
        chainId: ("0x" + t.chainId.toString(16)) as typeof SN_MAIN,
        nonce: t.nonce,
        accountDeploymentData: t.accountDeploymentData,
        nonceDataAvailabilityMode: Number(t.nonceDaMode) as EDAMode,
        feeDataAvailabilityMode: Number(t.feeDaMode) as EDAMode,
        resourceBounds: sjsBounds(t.resourceBounds),
        tip: t.tip,
        paymasterData: t.paymasterData,
        ...(t.proofFacts.length ? { proofFacts: t.proofFacts } : {}),
      });
      expect(invokeV3Hash(t)).toBe(BigInt(expected));
    }
  });

  it("a proof_facts list changes the hash (it is bound into it)", () => {
    const base = { version: 3n, senderAddress: 5n, tip: 0n, resourceBounds: bounds(), paymasterData: [], chainId: BigInt(SN_MAIN), nonce: 1n, nonceDaMode: 0n, feeDaMode: 0n, accountDeploymentData: [], calldata: [1n] };
    expect(invokeV3Hash({ ...base, proofFacts: [7n] })).not.toBe(invokeV3Hash(base));
  });

  it("DEPLOY_ACCOUNT v3 hash and the counterfactual OpenZeppelin address", () => {
    for (let i = 0; i < 12; i++) {
      const pub = BigInt(ec.starkCurve.getStarkKey(stark.randomAddress()));
      const address = contractAddress(pub, BigInt(OZ_ACCOUNT_CLASS_HASH), [pub]);
      expect(address).toBe(BigInt(hash.calculateContractAddressFromHash(pub, OZ_ACCOUNT_CLASS_HASH, [pub], 0)));
      const t = {
        version: i % 2 ? 3n : 2n ** 128n + 3n,
        contractAddress: address,
        tip: rnd(3),
        resourceBounds: bounds(),
        paymasterData: felts(i % 2),
        chainId: BigInt(SN_MAIN),
        nonce: 0n,
        nonceDaMode: BigInt(i % 2),
        feeDaMode: 0n,
        constructorCalldata: [pub],
        classHash: BigInt(OZ_ACCOUNT_CLASS_HASH),
        salt: pub,
      };
      const expected = hash.calculateDeployAccountTransactionHash({
        contractAddress: address,
        classHash: OZ_ACCOUNT_CLASS_HASH,
        compiledConstructorCalldata: [pub.toString()],
        salt: pub,
        version: ("0x" + t.version.toString(16)) as "0x3",
        chainId: SN_MAIN,
        nonce: 0,
        nonceDataAvailabilityMode: Number(t.nonceDaMode) as EDAMode,
        feeDataAvailabilityMode: 0 as EDAMode,
        resourceBounds: sjsBounds(t.resourceBounds),
        tip: t.tip,
        paymasterData: t.paymasterData,
      });
      expect(deployAccountV3Hash(t)).toBe(BigInt(expected));
    }
  });

  it("the research note's address vector (pk 0x1234567890abcdef)", () => {
    const pub = BigInt(ec.starkCurve.getStarkKey("0x1234567890abcdef"));
    expect("0x" + contractAddress(pub, BigInt(OZ_ACCOUNT_CLASS_HASH), [pub]).toString(16)).toBe("0x586c424f3eee11f40afee1fab3719d08375aa13ca617e9d0d4a56a675e7e79f");
  });
});

describe("sandbox node signature check against starknet.js's Signer", () => {
  const calls: Call[] = [{ contractAddress: "0x1", entrypoint: "transfer", calldata: ["0x2", "0x3", "0x0"] }];
  const details = (sender: string) => ({
    walletAddress: sender,
    chainId: SN_MAIN as typeof SN_MAIN,
    cairoVersion: "1" as const,
    nonce: 4,
    version: "0x3" as const,
    resourceBounds: sjsBounds(bounds()),
    tip: 0,
    paymasterData: [],
    accountDeploymentData: [],
    nonceDataAvailabilityMode: "L1" as const,
    feeDataAvailabilityMode: "L1" as const,
  });

  it("accepts the signer's signature over the hash it recomputes, refuses another key's and a changed transaction", async () => {
    const pk = stark.randomAddress();
    const pub = BigInt(ec.starkCurve.getStarkKey(pk));
    const d = details("0x" + rnd(31).toString(16));
    const sig = stark.formatSignature(await new Signer(pk).signTransaction(calls, d));
    const signature = sig.map((x) => BigInt(x));
    const calldata = [1n, 1n, BigInt(hash.getSelectorFromName("transfer")), 3n, 2n, 3n, 0n];
    const h = invokeV3Hash({
      version: 3n,
      senderAddress: BigInt(d.walletAddress),
      tip: 0n,
      resourceBounds: {
        l1_gas: { maxAmount: d.resourceBounds.l1_gas.max_amount, maxPricePerUnit: d.resourceBounds.l1_gas.max_price_per_unit },
        l2_gas: { maxAmount: d.resourceBounds.l2_gas.max_amount, maxPricePerUnit: d.resourceBounds.l2_gas.max_price_per_unit },
        l1_data_gas: { maxAmount: d.resourceBounds.l1_data_gas.max_amount, maxPricePerUnit: d.resourceBounds.l1_data_gas.max_price_per_unit },
      },
      paymasterData: [],
      chainId: BigInt(SN_MAIN),
      nonce: 4n,
      nonceDaMode: 0n,
      feeDaMode: 0n,
      accountDeploymentData: [],
      calldata,
    });
    expect(verifyStarkSignature(pub, h, signature)).toBe(true);
    const other = BigInt(ec.starkCurve.getStarkKey(stark.randomAddress()));
    expect(verifyStarkSignature(other, h, signature)).toBe(false);
    expect(verifyStarkSignature(pub, h + 1n, signature)).toBe(false);
    expect(verifyStarkSignature(pub, h, [signature[0]!])).toBe(false);
    expect(verifyStarkSignature(pub, h, [signature[0]!, signature[1]! + 1n])).toBe(false);
  });

  it("the node answers 55 (validation failure) to a transaction signed by the wrong key and 52 to a nonce too far ahead", async () => {
    const node = SandboxNode.open();
    const faucet = node.faucet;
    const mk = async (pk: string, nonce: number) => {
      const d = { ...details(faucet.address), nonce, resourceBounds: sjsBounds({ l1_gas: { maxAmount: 0n, maxPricePerUnit: 10n ** 14n }, l2_gas: { maxAmount: 2_000_000n, maxPricePerUnit: 10n ** 10n }, l1_data_gas: { maxAmount: 1000n, maxPricePerUnit: 10n ** 10n } }) };
      const signature = stark.formatSignature(await new Signer(pk).signTransaction(calls, d));
      const rb = d.resourceBounds;
      const tx = {
        type: "INVOKE",
        version: "0x3",
        sender_address: faucet.address,
        calldata: ["0x1", "0x1", hash.getSelectorFromName("transfer"), "0x3", "0x2", "0x3", "0x0"],
        signature: signature.map((x) => "0x" + BigInt(x).toString(16)),
        nonce: "0x" + nonce.toString(16),
        resource_bounds: Object.fromEntries(Object.entries(rb).map(([k, v]) => [k, { max_amount: "0x" + v.max_amount.toString(16), max_price_per_unit: "0x" + v.max_price_per_unit.toString(16) }])),
        tip: "0x0",
        paymaster_data: [],
        account_deployment_data: [],
        nonce_data_availability_mode: "L1",
        fee_data_availability_mode: "L1",
      };
      return handleBody(node, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "starknet_addInvokeTransaction", params: { invoke_transaction: tx } })) as { result?: unknown; error?: { code: number; data?: unknown } };
    };
    const wrongKey = await mk(stark.randomAddress(), 0);
    expect(wrongKey.error?.code).toBe(55);
    expect(String(wrongKey.error?.data)).toContain("invalid signature");
    // A nonce further ahead than the mempool holds (32) is refused.
    const staleNonce = await mk(faucet.privateKey, 40);
    expect(staleNonce.error?.code).toBe(52);
    // The right key and nonce reach execution: 0x1 is no contract, so the transaction is included as reverted.
    const ok = (await mk(faucet.privateKey, 0)) as { result: { transaction_hash: string } };
    expect(ok.result.transaction_hash).toMatch(/^0x[0-9a-f]+$/);
    const receipt = handleBody(node, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "starknet_getTransactionReceipt", params: { transaction_hash: ok.result.transaction_hash } })) as { result: { execution_status: string; revert_reason: string } };
    expect(receipt.result.execution_status).toBe("REVERTED");
    expect(receipt.result.revert_reason).toContain("Requested contract address 0x1 is not deployed");
  });
});
