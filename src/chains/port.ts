/**
 * The chain port: the one interface the escrow core (src/proposals, src/wallets, MCP, dashboard) uses to
 * act on a chain. Each chain family implements it in src/chains/<family> (evm, solana, starknet); those
 * folders are the only places allowed to import a chain SDK (ESLint `no-restricted-imports`).
 *
 * The core's pipeline, and which method serves each step (docs/architecture.md has the picture):
 *
 *   propose   registry.forWallet(wallet.chain) -> adapter
 *             adapter.checkInputChain(input)      the input names this chain (chain / caip2)
 *             adapter.plan(wallet, input)         input.kind -> PlannedTransaction (+ requestHash)
 *             adapter.simulate(payload)           -> Simulated (SPEC 2.8 report + coded warnings)
 *             limits (core, pure)                 on report.changes, addresses compared by adapter.address
 *   execute   adapter.prepare(wallet, payload)    network reads outside any lock (fees, nonce, blockhash)
 *             adapter.sign(prepared, ctx)         under the wallet's row lock, through the family's custody signer
 *             (core stores raw/hash/sequence with status `executing`, commits)
 *             adapter.broadcast(signed)           after the commit; idempotent
 *             adapter.waitForFinal(hash)          bounded wait; null leaves `executing`
 *   reconcile adapter.lookup(record)              after a crash: final, pending, dropped, or not_found (re-broadcast)
 *   withdraw  adapter.buildTransfer + simulate + the execute steps (no judge, no limits)
 *   wallets   adapter.custody.createKey, adapter.balances, adapter.fees, adapter.explorer*
 *
 * Error contract (every method): input the chain refuses (bad address, unknown asset, wrong kind, fee
 * fields too high) throws ChainInputError with a sentence for the caller (the core answers 400
 * propose_failed / withdraw_failed); a chain that cannot be reached or answered garbage throws
 * ChainUnavailableError (the core answers 502 chain_unavailable, or leaves work for reconcile). Anything
 * else thrown is a bug and surfaces as `internal`. `simulate` never throws for chain trouble: it reports
 * `unavailable`.
 */
import type { KeyHandle, CustodySigner } from "./custody";
import type {
  AddressComparator,
  BalanceEntry,
  BroadcastOutcome,
  ChainInfo,
  ChainPayload,
  FeeNeeds,
  KeyFamily,
  NativeAssetInfo,
  PlannedTransaction,
  RawChange,
  ResolvedAsset,
  SignedTransaction,
  Simulated,
  TokenInfo,
  TransactionState,
} from "./types";

/**
 * Input a chain refuses; `message` is shown to the caller as is (it must not echo secrets). With `field`
 * (e.g. "input.transfer.to"), the input is malformed rather than refused: the core answers 400
 * `invalid_input` naming the field, as the request schemas do.
 */
export class ChainInputError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "ChainInputError";
  }
}

/** The chain could not be reached, or answered something unusable. Retrying later may succeed. */
export class ChainUnavailableError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = "ChainUnavailableError";
  }
}

/**
 * Addresses, the family's way. Applied at every edge (inputs, allowlists, withdrawals) so the core only
 * ever holds canonical strings.
 * - EVM: 0x + 40 hex; all-lowercase or all-uppercase accepted, mixed case must be a valid EIP-55 checksum;
 *   canonical form is EIP-55; equality is case-insensitive.
 * - Solana: base58 of 32 bytes; canonical form is the input; equality is exact (base58 is case-sensitive).
 * - Starknet: a felt below 2^251 (0x hex, 1 to 64 digits); canonical form is 0x + 64 lowercase hex;
 *   equality by value.
 * Pure and synchronous; never touches the network.
 */
export interface AddressCodec extends AddressComparator {
  /** What the family expects, for error messages: "a 0x address (20 bytes hex, EIP-55 checksum if mixed case)". */
  readonly describe: string;
  /** Strict parse of untrusted input into canonical form. Throws ChainInputError naming `field` when invalid. */
  parse(input: string, field?: string): string;
  /** Null when `input` parses, else the reason (the same sentence parse would throw). */
  validate(input: string): string | null;
  /**
   * Canonical form of an address that came from a trusted source (the chain, our own rows), where the
   * strict checksum rule does not apply (e.g. lowercase hex from a log). Throws ChainInputError if it is
   * not an address of this family at all.
   */
  normalise(address: string): string;
  /** Same account? Accepts canonical or loose forms; false when either is not an address. */
  equals(a: string, b: string): boolean;
  /** Short human form for summaries: 0x1234...abcd, 7xKX...sAsU. */
  display(address: string): string;
}

/**
 * The chain's native asset and known tokens, with prices. Registry contents differ per deployment
 * (sandbox lists only what exists on the local chain).
 */
export interface AssetRegistry {
  readonly native: NativeAssetInfo;
  readonly tokens: readonly TokenInfo[];
  /** The native symbol (any case), a registry symbol (any case) or a registry token address; null when unknown. */
  resolve(asset: string): ResolvedAsset | null;
  /** Registry token by canonical or loose address; null when unknown. */
  byAddress(address: string): TokenInfo | null;
  /**
   * A tokenAllowlist entry in stored form: NATIVE for the native asset (its symbol or "native"), the
   * canonical address for an address or a known symbol; `{ unknown }` (upper-cased symbol, permits
   * nothing) for any other symbol. Throws ChainInputError for an entry that looks like an address but
   * is not a valid one.
   */
  allowlistEntry(entry: string): { id: string } | { unknown: string };
  /** USD price of one whole unit of NATIVE or a token address; null when unknown (never guessed). May be cached. */
  usd(token: string): Promise<number | null>;
}

/** The wallet as an adapter needs it. `address` is canonical. */
export interface WalletRef {
  id: string;
  address: string;
  chain: string;
}

/** What signing needs besides the prepared transaction; built by the core under the wallet lock. */
export interface SignContext {
  handle: KeyHandle;
  /**
   * The wallet's next sequence number as the core tracks it (wallets.next_nonce, read under the lock);
   * null when never used. Families with nonces sign with max(this, the chain's count read in prepare),
   * so two transactions this service signs never share a nonce. Families without (Solana) ignore it.
   */
  nextSequence: number | null;
}

/** Outcome of prepare: ready to sign, or a refusal the core records as `failed` (nothing was signed). */
export type Prepared = { ok: true; prepared: unknown } | { ok: false; reason: string };

/**
 * One chain a deployment serves, implemented by a family. `P` is the family's stored payload.
 * Adapters are built once in the composition root (src/deps.ts) and are safe to share across requests.
 */
export interface ChainAdapter<P extends ChainPayload = ChainPayload> {
  readonly info: ChainInfo;
  readonly keyFamily: KeyFamily;
  readonly address: AddressCodec;
  readonly assets: AssetRegistry;
  /** The custody signer for this family's keys (wallet creation, canSign). */
  readonly custody: CustodySigner;
  /** `input.kind` values this chain plans (always includes "transfer"). */
  readonly inputKinds: readonly string[];
  /** How long a propose call waits for finality before answering `executing`. */
  readonly receiptTimeoutMs: number;

  /**
   * Refuses an input that names another chain (`input.chain` / `input.caip2`) or a kind of another
   * family. Throws ChainInputError ("wrong chain: ..."). Pure.
   */
  checkInputChain(input: { kind: string; chain?: string; caip2?: string }): void;

  /** requestHash of a stored payload: a pure function of it (hash of its canonical JSON). Never throws. */
  requestHashOf(payload: P): string;

  /**
   * A named transfer of `amount` whole units of `asset` (native symbol, registry symbol or token address)
   * from the wallet to `to`. Pure (no network): a Solana transfer that needs the recipient's associated
   * token account says so in the payload and creates it at signing (its rent shows in the simulation);
   * a Starknet transfer is a single-call multicall to the token's `transfer`. Throws ChainInputError.
   */
  buildTransfer(wallet: WalletRef, t: { asset: string; amount: string; to: string }): PlannedTransaction<P>;

  /**
   * Decodes a validated proposal input (its `kind` in `inputKinds`) into the payload the wallet will
   * sign. Only what the service decoded is ever signed: caller-supplied bytes are decoded and rebuilt,
   * and refused when they carry other signers, unknown programs or fields the family will not honour.
   * Pure or read-only (Solana may resolve lookup tables); throws ChainInputError or ChainUnavailableError.
   */
  plan(wallet: WalletRef, input: { kind: string } & Record<string, unknown>): Promise<PlannedTransaction<P>>;

  /**
   * Simulates the payload as it would execute now and prices its effects on the wallet. Read-only.
   * Never throws for chain trouble: a chain that cannot simulate gives status `unavailable` with the
   * `declared` changes; a transaction that cannot run (revert, insufficient fee balance) gives `reverted`.
   */
  simulate(wallet: WalletRef, payload: P, opts?: { declared?: RawChange[] }): Promise<Simulated>;

  /** The fee asset and the note the wallet details show. Pure. */
  fees(): FeeNeeds;

  /**
   * Network reads the signature needs, outside any database lock: fee estimate, the account's pending
   * nonce, a fresh blockhash, whether the account (Starknet) or its delegation (EVM 7702) must be set up
   * first. Read-only, so repeatable. A transaction that would fail now is `{ ok: false }` (the core records
   * `failed`, nothing signed); an unreachable chain throws ChainUnavailableError.
   */
  prepare(wallet: WalletRef, payload: P): Promise<Prepared>;

  /**
   * Signs the prepared transaction through the family's custody signer. Runs inside the wallet's row
   * lock, so it must not wait on the network. The result's `raw` is opaque to the core and may bundle a
   * set-up transaction (Starknet DEPLOY_ACCOUNT before the first INVOKE) that `broadcast` sends first.
   * Not idempotent (a new signature each call); the core calls it once per proposal, under its guard.
   */
  sign(prepared: unknown, ctx: SignContext): Promise<SignedTransaction>;

  /**
   * Sends stored signed bytes. Idempotent: sending the same bytes again never makes a second transfer
   * ("already known", "already processed", a spent nonce are `sent`; the lookup decides). `rejected` only
   * when the node refused these bytes for good; `unknown` when it could not be asked.
   */
  broadcast(signed: { raw: string; hash: string }): Promise<BroadcastOutcome>;

  /** Polls until the transaction is final or `timeoutMs` passes (null). Read-only; never throws. */
  waitForFinal(hash: string, timeoutMs: number): Promise<TransactionState | null>;

  /**
   * Where a stored transaction stands, for reconcile after a crash. Read-only and idempotent. `dropped`
   * only when it provably can never land (the account's nonce passed ours with no receipt for our hash;
   * the blockhash's last valid height passed). Throws ChainUnavailableError when the chain cannot say.
   */
  lookup(record: { hash: string; raw: string; address: string; sequence: number | null }): Promise<TransactionState>;

  /** SPEC 2.6 balances: the native asset always, then each registry token held. Throws ChainUnavailableError. */
  balances(address: string): Promise<BalanceEntry[]>;

  /** Explorer links; null when the deployment has no explorer. Pure. */
  explorerTxUrl(hash: string): string | null;
  explorerAddressUrl(address: string): string | null;
}

/**
 * The adapters a deployment serves, chosen by a wallet's `chain`. Built once in src/deps.ts.
 */
export interface ChainRegistry {
  /** The adapter for a wallet's `chain` value; null when this deployment does not serve that chain. */
  forWallet(chain: string): ChainAdapter | null;
  /** The adapter serving a CAIP-2 id; null when none. */
  byCaip2(caip2: string): ChainAdapter | null;
  /** Every adapter, in registration order. */
  all(): readonly ChainAdapter[];
}

export function createChainRegistry(adapters: readonly ChainAdapter[]): ChainRegistry {
  const byKey = new Map<string, ChainAdapter>();
  const byCaip = new Map<string, ChainAdapter>();
  for (const a of adapters) {
    if (byKey.has(a.info.key)) throw new Error(`two chain adapters serve wallet chain "${a.info.key}"`);
    byKey.set(a.info.key, a);
    byCaip.set(a.info.caip2, a);
  }
  return {
    forWallet: (chain) => byKey.get(chain) ?? null,
    byCaip2: (caip2) => byCaip.get(caip2.trim()) ?? null,
    all: () => [...byKey.values()],
  };
}

export type { KeyHandle, CustodySigner };

/**
 * A read-only explorer of a local (sandbox) chain, so its explorer links resolve. Each method answers null
 * for a malformed or unknown id (the route answers 404); anything else is the chain's own JSON view.
 * Optional per family; may throw ChainUnavailableError.
 */
export interface ExplorerView {
  transaction(hash: string): Promise<Record<string, unknown> | null>;
  account(address: string): Promise<Record<string, unknown> | null>;
}
