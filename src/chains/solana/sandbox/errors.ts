/**
 * litesvm's transaction errors as Agave's JSON-RPC shapes and messages.
 *
 * litesvm exposes its error enums as TypeScript `const enum`s with no runtime name table, so the names are
 * copied here from `litesvm/dist/internal.d.ts` (1.5.0). Fieldless errors arrive as plain numbers;
 * the others as class instances, told apart by their fields.
 */
import { FailedTransactionMetadata } from "litesvm";

const TX_FIELDLESS = [
  "AccountInUse", "AccountLoadedTwice", "AccountNotFound", "ProgramAccountNotFound", "InsufficientFundsForFee",
  "InvalidAccountForFee", "AlreadyProcessed", "BlockhashNotFound", "CallChainTooDeep", "MissingSignatureForFee",
  "InvalidAccountIndex", "SignatureFailure", "InvalidProgramForExecution", "SanitizeFailure", "ClusterMaintenance",
  "AccountBorrowOutstanding", "WouldExceedMaxBlockCostLimit", "UnsupportedVersion", "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit", "WouldExceedAccountDataBlockLimit", "TooManyAccountLocks", "AddressLookupTableNotFound",
  "InvalidAddressLookupTableOwner", "InvalidAddressLookupTableData", "InvalidAddressLookupTableIndex", "InvalidRentPayingAccount",
  "WouldExceedMaxVoteCostLimit", "WouldExceedAccountDataTotalLimit", "MaxLoadedAccountsDataSizeExceeded", "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit", "UnbalancedTransaction", "ProgramCacheHitMaxLimit", "CommitCancelled",
] as const;

const IX_FIELDLESS = [
  "GenericError", "InvalidArgument", "InvalidInstructionData", "InvalidAccountData", "AccountDataTooSmall", "InsufficientFunds",
  "IncorrectProgramId", "MissingRequiredSignature", "AccountAlreadyInitialized", "UninitializedAccount", "UnbalancedInstruction",
  "ModifiedProgramId", "ExternalAccountLamportSpend", "ExternalAccountDataModified", "ReadonlyLamportChange", "ReadonlyDataModified",
  "DuplicateAccountIndex", "ExecutableModified", "RentEpochModified", "NotEnoughAccountKeys", "AccountDataSizeChanged",
  "AccountNotExecutable", "AccountBorrowFailed", "AccountBorrowOutstanding", "DuplicateAccountOutOfSync", "InvalidError",
  "ExecutableDataModified", "ExecutableLamportChange", "ExecutableAccountNotRentExempt", "UnsupportedProgramId", "CallDepth",
  "MissingAccount", "ReentrancyNotAllowed", "MaxSeedLengthExceeded", "InvalidSeeds", "InvalidRealloc", "ComputationalBudgetExceeded",
  "PrivilegeEscalation", "ProgramEnvironmentSetupFailure", "ProgramFailedToComplete", "ProgramFailedToCompile", "Immutable",
  "IncorrectAuthority", "AccountNotRentExempt", "InvalidAccountOwner", "ArithmeticOverflow", "UnsupportedSysvar", "IllegalOwner",
  "MaxAccountsDataAllocationsExceeded", "MaxAccountsExceeded", "MaxInstructionTraceLengthExceeded",
  "BuiltinProgramsMustConsumeComputeUnits", "BorshIoError",
] as const;

/** Agave's JSON form of a TransactionError: `"BlockhashNotFound"`, `{"InstructionError":[0,{"Custom":1}]}`, ... */
export type TxErrorJson = string | Record<string, unknown>;

export function txErrorName(code: number): string {
  return TX_FIELDLESS[code] ?? `TransactionError${code}`;
}

function instructionErrorJson(e: unknown): unknown {
  if (typeof e === "number") return IX_FIELDLESS[e] ?? `InstructionError${e}`;
  const o = e as { code?: number; msg?: string };
  if (typeof o.code === "number") return { Custom: o.code };
  if (typeof o.msg === "string") return { BorshIoError: o.msg };
  return "GenericError";
}

export function failureToJson(failed: FailedTransactionMetadata): TxErrorJson {
  const e = failed.err() as unknown;
  if (typeof e === "number") return txErrorName(e);
  const o = e as { index?: number; accountIndex?: number; err?: () => unknown; constructor: { name: string } };
  if (typeof o.err === "function" && typeof o.index === "number") return { InstructionError: [o.index, instructionErrorJson(o.err())] };
  if (typeof o.accountIndex === "number") {
    const name = o.constructor.name.includes("Restricted") ? "ProgramExecutionTemporarilyRestricted" : "InsufficientFundsForRent";
    return { [name]: { account_index: o.accountIndex } };
  }
  if (typeof o.index === "number") return { DuplicateInstruction: o.index };
  return "SanitizeFailure";
}

/** A one-line human message in the style of Agave's preflight failures. */
export function errorMessage(err: TxErrorJson): string {
  if (typeof err === "string") return err.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/^./, (c) => c.toUpperCase());
  const [k, v] = Object.entries(err)[0] ?? ["Error", null];
  if (k === "InstructionError" && Array.isArray(v)) {
    const inner = v[1] as unknown;
    const detail = typeof inner === "string" ? inner : (inner as { Custom?: number }).Custom !== undefined ? `custom program error: 0x${(inner as { Custom: number }).Custom.toString(16)}` : JSON.stringify(inner);
    return `Error processing Instruction ${v[0]}: ${detail}`;
  }
  return `${k} ${JSON.stringify(v)}`;
}
