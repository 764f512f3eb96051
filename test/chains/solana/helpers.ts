/**
 * Solana escrow test runtime: the real service (startEscrowRuntime: real HTTP app, scripted judge) with its
 * litesvm sandbox cluster on a free port, read back through unmodified @solana/kit.
 */
import {
  appendTransactionMessageInstructions,
  compileTransaction,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Instruction,
} from "@solana/kit";
import { fetchMaybeToken, findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { Clock } from "../../../src/lib/clock";
import { startEscrowRuntime } from "../../wallets/helpers";

export const USDC_MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address;

export async function startSolanaEscrow(opts: { clock?: Clock; env?: Record<string, string>; listen?: boolean } = {}) {
  const t = await startEscrowRuntime({ ...opts, env: { SOLANA_SANDBOX_RPC_PORT: "0", ...opts.env } });
  const solana = t.runtime.solana;
  if (!solana?.sandbox) throw new Error("the Solana escrow test runtime needs the Solana sandbox");
  const info = solana.describe()!;
  const rpc = createSolanaRpc(info.rpcUrl);
  return {
    ...t,
    solana,
    info,
    rpc,
    async createSolWallet(key: string, body: Record<string, unknown>) {
      const r = await t.json(await t.request("POST", "/api/v1/wallets", { key, body: { chain: "solana", mode: "autonomous", mandate: "[judge:allow]", ...body } }));
      if (r.status !== 201) throw new Error(`create wallet: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body as { id: string; name: string; address: Address; [k: string]: unknown };
    },
    fundSol: (address: string, asset: "SOL" | "USDC", amount: string) => solana.sandbox!.faucet.fund({ address, asset, amount }),
    proposeSol: async (key: string, wallet: string, input: Record<string, unknown>, note?: string) =>
      t.json(await t.request("POST", `/api/v1/wallets/${encodeURIComponent(wallet)}/propose`, { key, body: { input: { chain: "solana", ...input }, ...(note ? { note } : {}) } })),
    lamportsOf: async (a: string) => (await rpc.getBalance(a as Address).send()).value,
    async usdcOf(owner: string): Promise<bigint> {
      const [ata] = await findAssociatedTokenPda({ owner: owner as Address, mint: USDC_MINT, tokenProgram: TOKEN_PROGRAM_ADDRESS });
      const acc = await fetchMaybeToken(rpc, ata);
      return acc.exists ? acc.data.amount : 0n;
    },
    /** A caller-built transaction (kit), fee payer the wallet, unsigned, base64 wire form. */
    async callerTx(feePayer: string, ixs: Instruction[]) {
      const latest = (await rpc.getLatestBlockhash().send()).value;
      const msg = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayer(feePayer as Address, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
        (m) => appendTransactionMessageInstructions(ixs, m),
      );
      return getBase64EncodedWireTransaction(compileTransaction(msg));
    },
  };
}
export type SolanaEscrow = Awaited<ReturnType<typeof startSolanaEscrow>>;

export const freshSolAddress = async (): Promise<Address> => (await generateKeyPairSigner()).address;
