import { describe, expect, it } from "vitest";
import { encodeAbiParameters, pad, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { extractChanges, logsFromCallFrame, NATIVE_PSEUDO_ADDRESS, TOPIC_APPROVAL, TOPIC_TRANSFER, TOPIC_WETH_DEPOSIT } from "../../src/chains/evm/effects";
import { MasterKey } from "../../src/wallets/custody/envelope";
import { createEvmKeystoreSigner } from "../../src/chains/evm/custody";
import { envelopeVault } from "../../src/wallets/custody/vault";
import { requestHashOf, type EvmPayload } from "../../src/chains/evm/plan";
import { keccakCanonical } from "../../src/lib/hashing";

const ME = "0x1111111111111111111111111111111111111111";
const BOB = "0x000000000000000000000000000000000000b0b0";
const TOKEN = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";
const WETH = "0x4200000000000000000000000000000000000006";
const topic = (a: string) => pad(a.toLowerCase() as Hex, { size: 32 });
const amount = (n: bigint) => encodeAbiParameters([{ type: "uint256" }], [n]);

describe("extractChanges (simulation logs -> asset changes)", () => {
  it("reads ERC-20 and native transfers touching the wallet, approvals by it, WETH deposits", () => {
    const { changes, warnings } = extractChanges(
      ME,
      [
        { address: TOKEN, topics: [TOPIC_TRANSFER, topic(ME), topic(BOB)], data: amount(5_000_000n) },
        { address: TOKEN, topics: [TOPIC_TRANSFER, topic(BOB), topic(ME)], data: amount(7n) },
        { address: TOKEN, topics: [TOPIC_TRANSFER, topic(BOB), topic(BOB)], data: amount(9n) }, // not ours
        { address: NATIVE_PSEUDO_ADDRESS, topics: [TOPIC_TRANSFER, topic(ME), topic(WETH)], data: amount(10n ** 18n) },
        { address: WETH, topics: [TOPIC_WETH_DEPOSIT, topic(ME)], data: amount(10n ** 18n) },
        { address: TOKEN, topics: [TOPIC_APPROVAL, topic(ME), topic(BOB)], data: amount((1n << 256n) - 1n) },
      ],
      WETH,
    );
    expect(changes.map((c) => [c.direction, c.assetType, c.changeType, c.token, c.rawAmount, c.counterparty.toLowerCase(), c.unlimited])).toEqual([
      ["out", "erc20", "transfer", TOKEN, 5_000_000n, BOB, false],
      ["in", "erc20", "transfer", TOKEN, 7n, BOB, false],
      ["out", "native", "transfer", "native", 10n ** 18n, WETH, false],
      ["in", "erc20", "transfer", WETH, 10n ** 18n, WETH, false],
      ["out", "erc20", "approval", TOKEN, (1n << 256n) - 1n, BOB, true],
    ]);
    expect(warnings[0]).toMatch(/unlimited approval/);
  });

  it("turns call frames into the same logs, skipping reverted frames", () => {
    const logs = logsFromCallFrame({
      type: "CALL",
      from: ME,
      to: BOB,
      value: "0x10",
      calls: [
        { type: "CALL", from: BOB, to: ME, value: "0x1", error: "execution reverted", logs: [{ address: TOKEN, topics: [TOPIC_TRANSFER, topic(BOB), topic(ME)], data: amount(1n) }] },
        { type: "DELEGATECALL", from: BOB, to: TOKEN, value: "0x5" },
      ],
    });
    expect(logs).toHaveLength(1);
    expect(extractChanges(ME, logs, null).changes[0]).toMatchObject({ direction: "out", assetType: "native", rawAmount: 16n });
  });
});

describe("key custody (AES-256-GCM envelope)", () => {
  const mk = new MasterKey("11".repeat(32));

  it("seals a fresh key per wallet and signs with it; the envelope holds no plain key", async () => {
    const signer = createEvmKeystoreSigner(envelopeVault(mk));
    const { address, keyRef } = await signer.createKey("wal_a");
    const env = JSON.parse(keyRef);
    expect(env).toMatchObject({ v: 1, alg: "A256GCM", kid: mk.kid });
    expect(keyRef).not.toMatch(/[0-9a-f]{64}/);
    const h = { walletId: "wal_a", address, keyRef };
    expect(signer.canSign(h)).toBe(true);
    const sig = await signer.signTransaction(h, { chainId: 8453, nonce: 0, to: BOB, value: 1n, gas: 21000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, type: "eip1559" });
    expect(sig).toMatch(/^0x02/);
    expect(JSON.stringify(mk)).not.toContain("1111");
  });

  it("refuses an envelope moved to another wallet, or opened with another master key", async () => {
    const signer = createEvmKeystoreSigner(envelopeVault(mk));
    const { address, keyRef } = await signer.createKey("wal_a");
    await expect(signer.signTransaction({ walletId: "wal_b", address, keyRef }, { chainId: 1, nonce: 0, to: BOB, gas: 21000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n })).rejects.toThrow(/unable to authenticate/);
    const other = createEvmKeystoreSigner(envelopeVault(new MasterKey("22".repeat(32))));
    expect(other.canSign({ walletId: "wal_a", address, keyRef })).toBe(false);
    await expect(other.signTransaction({ walletId: "wal_a", address, keyRef }, { chainId: 1, nonce: 0, to: BOB, gas: 21000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n })).rejects.toThrow(/master key/);
    expect(privateKeyToAccount(`0x${"11".repeat(32)}`).address).not.toBe(address);
  });
});

describe("requestHash", () => {
  it("is keccak256 of the payload's canonical JSON, independent of key order", () => {
    const p: EvmPayload = { v: 1, chainId: 8453, from: ME, to: BOB, value: "1", data: "0x", delegate: null };
    const shuffled = { data: "0x", delegate: null, value: "1", to: BOB, from: ME, chainId: 8453, v: 1 } as EvmPayload;
    expect(requestHashOf(p)).toBe(keccakCanonical(p));
    expect(requestHashOf(shuffled)).toBe(requestHashOf(p));
    expect(requestHashOf({ ...p, value: "2" })).not.toBe(requestHashOf(p));
  });
});
