/**
 * What a venue adapter makes of an action: structured, unit-normalised facts the judge checks rules
 * against. Adapters never decide anything; they only describe. Every amount is in whole units
 * (human decimals as a string) with the base-unit value beside it when the decimals are known.
 */
export const ACTION_FAMILIES = [
  "order",
  "margin",
  "withdrawal",
  "transfer",
  "staking",
  "vault",
  "position",
  "swap",
  "payment",
  "subaccount",
  "permission",
  "unknown",
] as const;
export type ActionFamily = (typeof ACTION_FAMILIES)[number];

export interface OrderFact {
  asset: string; // market symbol, e.g. "BTC", or a Polymarket token id / outcome label
  market: "perp" | "spot" | "prediction" | null;
  side: "buy" | "sell";
  size: number | null; // in coins / shares
  price: number | null; // limit price (USD per unit) when known
  notionalUsd: number | null; // |size| x (price or mark), null when not computable
  reduceOnly: boolean;
  orderType: "limit" | "market" | "trigger" | "twap" | null;
  tif: string | null; // Gtc, Ioc, Alo, FOK, GTD ...
  trigger?: { kind: "tp" | "sl" | null; triggerPx: number | null; isMarket: boolean } | null;
  /** Prediction markets: the market question and outcome the token id maps to (from context), when known. */
  tokenId?: string | null;
  marketLabel?: string | null;
  outcome?: string | null;
  /** Which price the notional used: "limit", "context" (mark from context), "trigger", "declared". */
  priceBasis?: string | null;
  /** Position leverage implied by the order itself (e.g. GMX size / collateral), when computable. */
  leverage?: number | null;
}

export interface AmountFact {
  asset: string; // symbol when known, else token address / mint
  tokenAddress?: string | null;
  amount: string | null; // whole units as a decimal string; null when decimals unknown
  amountBase?: string | null; // base units when known
  decimals?: number | null;
  usd: number | null;
}

export interface TransferFact extends AmountFact {
  to: string | null; // recipient address / destination
  from?: string | null;
  kind?: string; // e.g. "usdSend", "spotSend", "erc20.transfer", "native"
  /** Moves value between the owner's own accounts (e.g. Hyperliquid spot <-> perp); not a payment to anyone. */
  internal?: boolean;
  /** Deposit into a protocol contract (lending pool, vault, staking) that keeps it for the owner; `to` is the contract. */
  intoProtocol?: boolean;
}

export interface ApprovalFact {
  token: string; // symbol or address
  tokenAddress?: string | null;
  spender: string;
  amount: string | null; // whole units; null when unlimited or unknown decimals
  amountBase: string | null;
  unlimited: boolean;
  usd: number | null;
  kind?: "erc20" | "setApprovalForAll" | "agent" | "builderFee" | "permit2" | "permit";
}

/** Staking and delegation (kept apart from transfers: the stake stays the owner's). */
export interface StakingFact {
  asset: string;
  amount: string | null; // whole units
  amountBase?: string | null;
  usd: number | null;
  direction: "stake" | "unstake" | "delegate" | "undelegate" | "deposit" | "withdraw";
  validator?: string | null;
}

/** One call of a batch (EVM calls, Starknet multicall, Solana instructions), summarised. */
export interface CallFact {
  venue: string;
  actionFamily: ActionFamily;
  actionType: string | null;
  summary: string;
}

export interface SwapFact {
  sell: AmountFact;
  buy: AmountFact & { minAmount?: string | null };
  slippageBps: number | null;
  recipient: string | null;
  route?: string | null;
}

export interface LeverageFact {
  asset: string;
  value: number;
  isCross: boolean | null;
}

export interface Facts {
  venue: string; // adapter id (one of the 17)
  actionFamily: ActionFamily;
  actionType: string | null;
  chain: string | null; // "base", "ethereum", "arbitrum", "solana", "starknet", "hyperliquid", "polygon" ...
  chainId?: string | number | null;
  /** One-line plain-English description, e.g. "Buy 0.02 BTC perp at 97050 (limit GTC), ~$1,941". */
  summary: string;
  orders?: OrderFact[];
  transfers?: TransferFact[]; // value leaving the account (withdrawals, sends, payments, deposits into protocols)
  approvals?: ApprovalFact[];
  swap?: SwapFact | null;
  leverage?: LeverageFact | null;
  staking?: StakingFact | null;
  /** For batches: each component call; the top-level family is the batch's main action. */
  calls?: CallFact[];
  /** Every asset symbol the action touches (upper-case symbols where known). */
  assets: string[];
  /** Every address / destination that receives value or permission. */
  recipients: string[];
  /** Total USD at stake when computable (sum of order notionals / transfer values), else null. */
  notionalUsd: number | null;
  /** Things the adapter noticed that a judge should weigh (mismatches, unlimited approvals, unknown decimals). */
  warnings: string[];
  /** Adapter-specific decoded detail (e.g. decoded calldata args), for the transcript. JSON-safe only. */
  details?: Record<string, unknown>;
}

export interface DetectInput {
  action: unknown; // the object action (strings are never classified)
  venue?: string | null; // caller's selector, already resolved to an adapter id or null
  context?: Record<string, unknown> | null;
}

export interface VenueAdapter {
  id: string;
  aliases: string[];
  /** Does this object look like one of this venue's native payloads? (used when no venue is given) */
  matches(action: unknown, context?: Record<string, unknown> | null): boolean;
  /** Describe the action; return null when it is not a payload this adapter understands. */
  describe(action: unknown, context?: Record<string, unknown> | null): Facts | null;
}
