/**
 * The Solana escrow wallets the Solana scenarios need, on the service's sandbox cluster (litesvm): created
 * and funded through the public and operator APIs, and caller transactions built with @solana/kit as an
 * agent would build them (fee payer the wallet, unsigned; the service re-signs with a fresh blockhash).
 */
import {
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { call } from "./fixtures";

/** A fixed recipient: 32 arbitrary bytes in base58 (no one holds its key). */
export const SOL_PAYEE = "GQ1Fn1v8FTBdvGnA3qCh2x5CV5BNBy3yCLhUDoF7hhJb";

export interface SolanaBench {
  rpcUrl: string;
  blockedWallet: string;
  execWallets: { id: string; address: string }[];
}

async function created(base: string, key: string, name: string, extra: Record<string, unknown> = {}) {
  const r = await call(base, "POST", "/api/v1/wallets", { key, body: { name, chain: "solana", mode: "autonomous", mandate: `Send at most 1 SOL per transfer to ${SOL_PAYEE}.`, ...extra } });
  if (r.status !== 201) throw new Error(`create Solana wallet: ${r.status} ${JSON.stringify(r.body)}`);
  for (const [asset, amount] of [
    ["SOL", "100"],
    ["USDC", "1000"],
  ]) {
    const f = await call(base, "POST", "/admin/v1/sandbox/fund", { admin: true, body: { chain: "solana", address: r.body.address, asset, amount } });
    if (f.status !== 200) throw new Error(`fund Solana ${asset}: ${f.status} ${JSON.stringify(f.body)}`);
  }
  return { id: r.body.id as string, address: r.body.address as string };
}

/** Null when the deployment runs no Solana sandbox. */
export async function setupSolana(base: string, key: string): Promise<SolanaBench | null> {
  const info = await call(base, "GET", "/admin/v1/sandbox", { admin: true });
  const rpcUrl = info.body?.solana?.rpcUrl as string | undefined;
  if (!rpcUrl) return null;
  const blocked = await created(base, key, "bench-sol-capped", { limits: { maxPerTxUsd: 1 } });
  const execWallets = [];
  for (let i = 0; i < 4; i++) execWallets.push(await created(base, key, `bench-sol-exec-${i}`));
  return { rpcUrl, blockedWallet: blocked.id, execWallets };
}

/** A named USDC transfer: on a wallet capped at 1 USD, the limits block it before the judge. */
export const solTransferBody = (amount: string) => JSON.stringify({ input: { kind: "transfer", chain: "solana", transfer: { asset: "USDC", amount, to: SOL_PAYEE } } });

/**
 * A propose body carrying a kit-built SOL transfer from `wallet` (recent blockhash: build it just before use).
 * At least 0.00089088 SOL: the payee's account must start rent-exempt.
 */
export async function solTransactionBody(rpcUrl: string, wallet: string, lamports: bigint): Promise<string> {
  const latest = (await createSolanaRpc(rpcUrl).getLatestBlockhash().send()).value;
  const msg = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(wallet as Address, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions([getTransferSolInstruction({ source: createNoopSigner(wallet as Address), destination: SOL_PAYEE as Address, amount: lamports })], m),
  );
  return JSON.stringify({ input: { kind: "solana_transaction", chain: "solana", transaction: getBase64EncodedWireTransaction(compileTransaction(msg)) } });
}
