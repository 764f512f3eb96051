/**
 * Chain-neutral types: what the escrow core (proposals, wallets, MCP, dashboard) knows about a chain.
 * Nothing here names a chain SDK; every family (src/chains/evm, solana, starknet) produces and consumes
 * these shapes through the port (./port.ts).
 *
 * Conventions every family keeps:
 * - Amounts are bigint base units in code and decimal strings on the wire (`rawAmount`, `amount`).
 * - Addresses are strings in the family's canonical form (the codec's `normalise`): EIP-55 for EVM,
 *   base58 exactly as decoded for Solana, 0x + 64 lowercase hex for Starknet felts. Two canonical
 *   addresses are the same account iff they are equal strings; the core compares them only through
 *   `AddressCodec.equals` anyway, so a family whose canonical form is not unique stays correct.
 * - USD values are numbers rounded to micro-dollars; `null` means "no known price", never a guess.
 */

/** Chain families, one folder each under src/chains. */
export type ChainFamilyName = "evm" | "solana" | "starknet";

/** Key families custody holds (one custody signer each, all behind the same envelope encryption). */
export type KeyFamily = "secp256k1" | "ed25519" | "stark";

/**
 * A wallet's `chain` value (the wallets.chain column and the wire field). `ethereum` is legacy: rows may
 * carry it, no deployment serves it. The list grows with each family; a wallet whose chain no adapter
 * serves is readable but cannot transact.
 */
export const WALLET_CHAINS = ["base", "ethereum", "solana", "starknet"] as const;
export type WalletChain = (typeof WALLET_CHAINS)[number];

/** One chain a deployment serves, as the core and the wire see it. */
export interface ChainInfo {
  /** Wallet `chain` value this adapter serves ("base", "solana", "starknet"). */
  key: WalletChain;
  family: ChainFamilyName;
  /** CAIP-2 id: eip155:8453, solana:<first 32 chars of the genesis hash>, starknet:SN_MAIN. */
  caip2: string;
  /** Other CAIP-2 ids and names an input may use for this chain (e.g. a sandbox cluster alias); lowercase names. */
  names: readonly string[];
  /** Display name ("Base", "Solana", "Starknet"). */
  name: string;
  /** True when this is the local sandbox chain (faucet, fixed prices, local explorer). */
  sandbox: boolean;
  /** False when wallets on this chain cannot be created in `safe` mode (SPEC 4.7: Base and Starknet only). Default true. */
  safeMode?: boolean;
  /**
   * Input kinds that always wait for the owner's confirmation, whatever the judge says (SPEC 3: every named
   * Solana transfer). The judge and the limits still run first; only an ALLOW that would execute is held.
   */
  ownerConfirmsKinds?: readonly string[];
}

// ---------------------------------------------------------------------------------------------------
// Assets

/**
 * SPEC 2.8 `assetType`. `native` (ETH, SOL, and STRK where it is the fee token but still an ERC-20 on
 * Starknet: there it is `erc20`); `erc20` for EVM and Starknet fungible tokens; `spl` for Solana SPL and
 * Token-2022 mints; `erc721` / `erc1155` for EVM NFTs.
 */
export type AssetType = "native" | "erc20" | "spl" | "erc721" | "erc1155";
export const FUNGIBLE_ASSET_TYPES: readonly AssetType[] = ["native", "erc20", "spl"];

/**
 * SPEC 2.8 `changeType`. `approval`: the wallet lets a spender (EVM/Starknet allowance, Solana token
 * delegate) move its tokens later; `approval_for_all`: EVM NFT operator; `authority`: the wallet gives
 * away control of an account (Solana SetAuthority / System Assign), always counted as unlimited.
 */
export type ChangeType = "transfer" | "approval" | "approval_for_all" | "authority";

/** The pseudo-address native assets are stored under in allowlists, price tables and `contractAddress`. */
export const NATIVE = "native" as const;

/** A token the chain's registry knows: what balances list, what `transfer` accepts by symbol. */
export interface TokenInfo {
  symbol: string;
  name: string;
  /** Canonical address (codec form): EVM/Starknet token contract, Solana mint. */
  address: string;
  decimals: number;
  logoUrl: string | null;
}

/** The chain's native (fee) asset. */
export interface NativeAssetInfo {
  symbol: string;
  name: string;
  decimals: number;
}

/** An asset named in an input or an allowlist, resolved by the chain's registry. */
export type ResolvedAsset = { kind: "native"; asset: NativeAssetInfo } | { kind: "token"; token: TokenInfo };

/**
 * A change a transaction makes to the wallet, before pricing: what a family's decoder declares and its
 * simulator extracts. `token` is NATIVE or the canonical token address.
 */
export interface RawChange {
  direction: "in" | "out";
  assetType: AssetType;
  changeType: ChangeType;
  token: string;
  rawAmount: bigint;
  /** Recipient of a transfer out, sender of a transfer in, spender of an approval (canonical form). */
  counterparty: string;
  /** Approvals only: a grant so large it is effectively unlimited (2^256-1, u64::MAX). */
  unlimited: boolean;
}

/** SPEC 2.8 asset change, priced. */
export interface AssetChange {
  direction: "in" | "out";
  assetType: AssetType;
  changeType: ChangeType;
  symbol: string;
  name: string;
  /** Token address (codec form), or "native". */
  contractAddress: string;
  rawAmount: string;
  decimals: number;
  amount: string;
  /** Null when the asset has no known price (never guessed). */
  usdValue: number | null;
  counterparty: string;
  logoUrl: string | null;
  /** Approvals only: unlimited grants. */
  unlimited?: boolean;
  /**
   * Approvals only, when the simulator could read it: the allowance left after the transaction (base
   * units). An approval spent in full in the same transaction (approve + swap) leaves "0" and is not an
   * outflow. Absent: the whole grant counts (the conservative reading).
   */
  residualRaw?: string;
}

// ---------------------------------------------------------------------------------------------------
// Simulation (SPEC 2.8)

export type SimulationStatus = "clean" | "reverted" | "unavailable";

/**
 * A warning a simulator or decoder raises. `severity` decides what the core does with it: `info` is
 * shown; `warn` is shown and given to the judge; `block` holds the proposal for the owner whatever the
 * verdict (an escalation, never an automatic execution). An unknown severity is treated as `block`.
 * The SPEC 2.8 report carries warnings as strings (their `message`); the structured list travels beside
 * it in `Simulated.warnings` and is what the core decides on.
 */
export type WarningSeverity = "info" | "warn" | "block";
export interface ChainWarning {
  /** Stable, lower_snake_case, family-prefixed when family-specific: "unpriced_asset", "solana_authority_change". */
  code: string;
  severity: WarningSeverity;
  message: string;
}

/** The neutral simulation report (SPEC 2.8), stored on the proposal and shown on every transport. */
export interface SimulationReport {
  ok: boolean;
  status: SimulationStatus;
  /** True when `changes` come from the declared input because the chain could not simulate. */
  declared: boolean;
  wouldRevert: boolean;
  /** Revert reason or simulator failure; "" when none. */
  error: string;
  caip2: string;
  changes: AssetChange[];
  /** Sum of the priced transfers out / in (approvals excluded: they move nothing yet). */
  totalUsdOut: number;
  totalUsdIn: number;
  /** Gas units (EVM), compute units (Solana), L2 gas (Starknet); decimal string. */
  gasUsed: string;
  logsExcerpt: string[];
  warnings: string[];
  simulatedAt: string;
  /** Which simulator answered: "eth_simulateV1", "simulateTransaction", "starknet_simulateTransactions", "none". */
  provider: string;
}

/** What a family's simulator returns: the SPEC report plus its warnings with code and severity. */
export interface Simulated {
  report: SimulationReport;
  /** Same warnings as `report.warnings`, structured; the core holds the proposal on any `block` (or unknown) severity. */
  warnings: ChainWarning[];
}

/** True when a warning must hold the proposal for the owner: `block`, or a severity this build does not know. */
export const holdsForOwner = (w: { severity: string }): boolean => w.severity !== "info" && w.severity !== "warn";

// ---------------------------------------------------------------------------------------------------
// Planning, signing, settling

/**
 * What the core records for a proposal before anything is signed: the canonical intent the wallet will
 * sign (`payload`, stored as JSON), its hash, a one-line summary and the changes the input declares
 * (shown only when the chain cannot simulate).
 *
 * Invariant: `requestHash` is a pure function of `payload` (PlannedTransaction.requestHash ===
 * adapter.requestHashOf(payload)), and `payload` holds only what decides what the transaction does: no
 * nonce, fee, gas limit, Solana blockhash or Starknet resource bound, which are chosen at signing. So a
 * held proposal re-signed an hour later still matches its requestHash, and a payload edited in the
 * database does not.
 */
export interface PlannedTransaction<P extends ChainPayload = ChainPayload> {
  kind: string;
  payload: P;
  requestHash: string;
  summary: string;
  declared: RawChange[];
  /** Swaps the planner decoded in the input, with the least output each accepts (checked against the simulation). */
  minimumOutputs?: MinimumOutput[];
}

/** A decoded swap's floor: at least `minRaw` base units of `token` (codec form) come back, or it reverts. */
export interface MinimumOutput {
  /** Where the swap is in the input, e.g. "input.calls.1". */
  where: string;
  token: string;
  minRaw: string;
}

/** The stored payload: JSON, versioned by the family, always naming the wallet (`from`). */
export interface ChainPayload {
  v: number;
  from: string;
}

/**
 * What signing produced, stored in the proposal row in the same transaction that moves it to
 * `executing` (signed_tx, tx_hash, nonce). Broadcasting these exact bytes again is always safe.
 */
export interface SignedTransaction {
  /** Serialized signed transaction, as the chain's broadcast method takes it (hex, base64 or JSON). */
  raw: string;
  /** Transaction hash / signature the chain identifies it by. */
  hash: string;
  /** Account sequence it consumed (EVM and Starknet nonce); null where the chain has none (Solana). */
  sequence: number | null;
  /** How many sequence numbers it consumed (EVM: 2 with a self-sponsored EIP-7702 authorization). */
  sequenceUsed: number;
}

/** What broadcasting said. `unknown`: no answer (network); reconcile settles it later. */
export type BroadcastOutcome = { kind: "sent" } | { kind: "rejected"; reason: string } | { kind: "unknown"; reason: string };

/**
 * Where a signed transaction stands on chain, as reconcile needs it.
 * - `succeeded` / `reverted`: final (a reverted transaction still paid its fee).
 * - `pending`: known to the node, not final yet.
 * - `dropped`: can never land (the nonce was used by another transaction; the blockhash expired).
 * - `not_found`: unknown to the node and not provably dead: re-broadcasting the same bytes is safe.
 */
export type TransactionState =
  | { state: "succeeded" }
  | { state: "reverted"; reason: string }
  | { state: "pending" }
  | { state: "dropped"; reason: string }
  | { state: "not_found" };

// ---------------------------------------------------------------------------------------------------
// Balances (SPEC 2.6) and fees

export interface BalanceEntry {
  symbol: string;
  name: string;
  logoUrl: string | null;
  /** Token address (codec form), or "native". */
  tokenAddress: string;
  amount: string;
  amountFormatted: string;
  decimals: number;
  /** 0 when the amount is 0; null when the asset has no known price. */
  usdValue: number | null;
  caip2: string;
}

/** What the wallet pays fees in, and what to tell its owner about it (wallet details `gas`). */
export interface FeeNeeds {
  /** Fee asset symbol: ETH (Base), SOL (Solana), STRK (Starknet). */
  asset: string;
  note: string;
}

// ---------------------------------------------------------------------------------------------------
// Limits arithmetic inputs

/**
 * What the limits check (proposals/limits-check.ts) needs from the chain: how to compare two addresses
 * and token ids the family's way (EVM case-insensitive after EIP-55 validation, base58 exactly, felts by
 * value). Allowlists are stored in the codec's canonical form.
 */
export interface AddressComparator {
  equals(a: string, b: string): boolean;
}
