import { readFileSync } from "node:fs";
import {
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createNoopSigner,
  createTransactionMessage,
  getBase64Decoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type Instruction,
} from "@solana/kit";

export interface JudgeCase {
  id: string;
  intent: string;
  action: unknown;
  venue?: string | null;
  context?: Record<string, unknown> | null;
  expected: string;
  acceptable: string[];
  tags: string[];
}

export const DEV_CASES: JudgeCase[] = readFileSync(new URL("../fixtures/judge-cases/public-dev.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as JudgeCase);

export const devCase = (id: string): JudgeCase => {
  const c = DEV_CASES.find((x) => x.id === id);
  if (!c) throw new Error(`no dev case ${id}`);
  return c;
};

export const PAYER = "8oicYtz9aCDVcavBCjTy4aufBB4qREUfE494ofoYfSUW";

/** Serialise instructions into a base64 transaction as a wallet would (signatures left empty). */
export function solanaTx(instructions: Instruction[], opts: { version?: 0 | "legacy"; lookup?: Record<string, string[]> } = {}): string {
  const payer = createNoopSigner(address(PAYER));
  const base = pipe(
    createTransactionMessage({ version: opts.version ?? "legacy" }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: "99NQR78Km6KPTHdc1ZTvW2qjYaVzbh7EUyK4d7tWMcNZ" as Blockhash, lastValidBlockHeight: 1n }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const msg = opts.lookup
    ? compressTransactionMessageUsingAddressLookupTables(
        base as never,
        Object.fromEntries(Object.entries(opts.lookup).map(([k, v]) => [k, v.map((a) => address(a))])) as Record<Address, Address[]>,
      )
    : base;
  const tx = compileTransaction(msg as never);
  return getBase64Decoder().decode(getTransactionEncoder().encode(tx));
}
