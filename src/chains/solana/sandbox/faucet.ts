/**
 * Sandbox faucet: SOL by a real System transfer from the faucet account, USDC by a real `MintToChecked`
 * (the faucet is the sandbox USDC mint's authority) into the recipient's associated token account, created
 * in the same transaction when missing. Every grant has a signature and shows in the explorer.
 * Grants are serialized: each lands before the next is built, so no two share a blockhash.
 */
import {
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getTransactionEncoder,
  isAddress,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getMintToCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { invalidInput } from "../../../lib/errors";
import { parseUnitsStrict } from "../../../lib/money";
import { USDC_MINT } from "../tokens";
import type { SvmLedger } from "./ledger";

export type SolanaFaucetAsset = "SOL" | "USDC";

export interface SolanaFundRequest {
  address: string;
  asset: SolanaFaucetAsset;
  /** Whole units as a plain decimal string. */
  amount: string;
}

export interface SolanaFundResult {
  txHash: string;
  address: string;
  asset: SolanaFaucetAsset;
  amount: string;
  amountBase: string;
}

export interface SolanaFaucet {
  readonly address: string;
  fund(req: SolanaFundRequest): Promise<SolanaFundResult>;
}

const DECIMALS: Record<SolanaFaucetAsset, number> = { SOL: 9, USDC: 6 };
const MAX: Record<SolanaFaucetAsset, string> = { SOL: "1000", USDC: "1000000" };
const encoder = getTransactionEncoder();

export async function createSolanaFaucet(o: { ledger: SvmLedger; faucetSeed: Uint8Array }): Promise<SolanaFaucet> {
  const signer: KeyPairSigner = await createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(o.faucetSeed));
  let queue: Promise<unknown> = Promise.resolve();

  const sendInstructions = async (ixs: Instruction[]): Promise<string> => {
    const msg = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(signer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(o.ledger.latestBlockhash(), m),
      (m) => appendTransactionMessageInstructions(ixs, m),
    );
    const signed = await signTransactionMessageWithSigners(msg);
    return o.ledger.send(new Uint8Array(encoder.encode(signed)), { skipPreflight: false });
  };

  return {
    address: signer.address,
    async fund(req) {
      if (typeof req.address !== "string" || !isAddress(req.address)) throw invalidInput("address must be a base58 Solana address (32 bytes)");
      if (req.asset !== "SOL" && req.asset !== "USDC") throw invalidInput("asset must be SOL or USDC");
      let amountBase: bigint;
      try {
        amountBase = parseUnitsStrict(String(req.amount), DECIMALS[req.asset]);
      } catch (e) {
        throw invalidInput(`amount: ${(e as Error).message}`);
      }
      if (amountBase <= 0n) throw invalidInput("amount must be greater than zero");
      if (amountBase > parseUnitsStrict(MAX[req.asset], DECIMALS[req.asset])) throw invalidInput(`amount exceeds the faucet limit of ${MAX[req.asset]} ${req.asset}`);
      const to = req.address as Address;
      const run = async () => {
        if (req.asset === "SOL") {
          if (o.ledger.getBalance(signer.address) < amountBase + 1000n * 10n ** 9n) o.ledger.setLamports(signer.address, 10n ** 18n);
          return sendInstructions([getTransferSolInstruction({ source: signer, destination: to, amount: amountBase })]);
        }
        const mint = USDC_MINT as Address;
        const [ata] = await findAssociatedTokenPda({ owner: to, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
        return sendInstructions([
          getCreateAssociatedTokenIdempotentInstruction({ payer: signer, ata, owner: to, mint }),
          getMintToCheckedInstruction({ mint, token: ata, mintAuthority: signer, amount: amountBase, decimals: 6 }),
        ]);
      };
      const next = queue.then(run, run);
      queue = next.catch(() => undefined);
      const txHash = await next;
      return { txHash, address: to, asset: req.asset, amount: req.amount, amountBase: amountBase.toString() };
    },
  };
}
