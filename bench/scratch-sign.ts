import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { hashTypedData, keccak256, toHex } from "viem";
import { secp256k1 } from "@noble/curves/secp256k1";
import { receiptTypedData, signReceipt } from "../src/receipts/sign";
const acct = privateKeyToAccount(generatePrivateKey());
const msg = { requestHash: keccak256("0x01"), transcriptRoot: keccak256("0x02"), outputHash: keccak256("0x03") } as const;
async function time(label: string, fn: () => unknown) { for (let i = 0; i < 200; i++) await fn(); const t0 = performance.now(); const N = 2000; for (let i = 0; i < N; i++) await fn(); console.log(label.padEnd(30), (((performance.now() - t0) / N) * 1000).toFixed(0), "us"); }
await time("signReceipt (viem)", () => signReceipt(acct, msg));
await time("hashTypedData", () => hashTypedData(receiptTypedData(msg)));
const h = hashTypedData(receiptTypedData(msg));
await time("acct.sign({hash})", () => acct.sign({ hash: h }));
await time("keccak256 1 kB", () => keccak256(toHex("x".repeat(1000))));
