/** What simulating or refusing a transaction reports, in the shapes the RPC methods answer with. */
import type { TransactionMetadata } from "litesvm";
import type { EncodedAccount } from "@solana/kit";
import { errorMessage, type TxErrorJson } from "./errors";
import { base58FromBytes as b58enc } from "./wire";

export interface SimulationResult {
  err: TxErrorJson | null;
  logs: string[];
  unitsConsumed: bigint;
  /** Post-state of the writable accounts litesvm reports; others are unchanged by definition. */
  postAccounts: Map<string, EncodedAccount>;
  innerInstructions: { index: number; instructions: { programIdIndex: number; accounts: number[]; data: Uint8Array; stackHeight: number }[] }[];
  returnData: { programId: string; data: Uint8Array } | null;
}

/** A transaction refused before landing (preflight or pre-execution checks), in Agave's terms. */
export class SendRefused extends Error {
  constructor(
    readonly err: TxErrorJson,
    readonly simulation: SimulationResult | null,
  ) {
    super(`Transaction simulation failed: ${errorMessage(err)}`);
    this.name = "SendRefused";
  }
}

export function emptyResult(err: TxErrorJson): SimulationResult {
  return { err, logs: [], unitsConsumed: 0n, postAccounts: new Map(), innerInstructions: [], returnData: null };
}

export function metaResult(meta: TransactionMetadata): Omit<SimulationResult, "err" | "postAccounts"> & { postAccounts: Map<string, EncodedAccount> } {
  const inner = meta.innerInstructions().map((list, index) => ({
    index,
    instructions: list.map((ii) => {
      const c = ii.instruction();
      return { programIdIndex: c.programIdIndex(), accounts: [...c.accounts()], data: c.data(), stackHeight: ii.stackHeight() };
    }),
  }));
  const rd = meta.returnData();
  const rdData = rd.data();
  return {
    logs: meta.logs(),
    unitsConsumed: meta.computeUnitsConsumed(),
    postAccounts: new Map(),
    innerInstructions: inner.filter((i) => i.instructions.length > 0),
    returnData: rdData.length ? { programId: b58enc.decode(rd.programId()), data: rdData } : null,
  };
}

