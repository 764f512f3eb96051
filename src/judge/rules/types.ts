/**
 * Shared shapes of the embedded rules engine: the constraints the intent parser produces, the normalised view
 * of the action the checks read, and the result the engine returns. Everything here is JSON-safe so the parsed
 * constraints can go into the transcript verbatim.
 */
import type { Verdict } from "../types";

/**
 * What an action does, finer than the adapters' ActionFamily: rules speak about "borrow", "delegate" or
 * "wrap", not about families, so both the intent parser and the action view map onto this vocabulary.
 */
export const ACTIVITIES = [
  "order",
  "cancel",
  "leverage",
  "margin",
  "transfer",
  "internal_transfer",
  "withdrawal",
  "payment",
  "swap",
  "bridge",
  "approval",
  "permission",
  /** Closing an SPL token account (its rent goes to a destination): not a payment, and owners forbid it by name. */
  "close_account",
  "subaccount",
  "stake",
  "unstake",
  "delegate",
  "undelegate",
  "vault_deposit",
  "vault_withdraw",
  "supply",
  "redeem",
  "borrow",
  "repay",
  "wrap",
  "unwrap",
  /** Adding or removing liquidity in a pool ("no LP"); no adapter reports it yet, so a rule about it is read, not guessed. */
  "liquidity",
  "unknown",
] as const;
export type Activity = (typeof ACTIVITIES)[number];

/** A money or token quantity as written in a rule: USD, or whole units of a token symbol. */
export interface Quantity {
  value: number;
  unit: "USD" | string; // "USD" or an upper-case token symbol, or OPEN_UNIT
  /**
   * With unit OPEN_UNIT: every plausible meaning of a figure the owner left open ("max 500 per order": $500 or 500 of
   * the action's own units; "1.200 USDC": 1.2 or 1,200 USDC). Checks decide only when every reading agrees
   * (checks/readings.ts); anything that measures the open unit itself gets no figure and holds the action.
   */
  readings?: Quantity[];
}
/** The unit of a figure with several readings (see `Quantity.readings`). */
export const OPEN_UNIT = "OPEN";
/** In a reading: the action's own unit, its asset's units (or a prediction order's shares). */
export const OWN_UNIT = "OWN";

/** Which actions a cap counts: each order, each swap, each payment/transfer, or any action. */
export type CapScope = "order" | "swap" | "transfer" | "margin" | "any";
export type Period = "action" | "day" | "week" | "month" | "total";

export type ListDim =
  | "asset"
  | "recipient"
  | "spender"
  | "venue"
  | "chain"
  | "host"
  | "market" // a prediction market question
  | "outcome" // a prediction market outcome ("Yes")
  | "topic" // a loose market category ("US politics markets")
  | "contract" // the contract an EVM call goes to (a router named in the rules)
  | "marketType" // perp | spot | prediction
  | "assetClass"; // "stablecoin"

/**
 * "if the funding rate on a coin is over 0.03% an hour, don't open new longs on it", "when the price is 0.9 or more,
 * do not buy": the state of the world in which a rule binds. `price` is the action's own limit price per unit;
 * `path` a figure in the context (a number, or a map keyed by the action's asset). The rule is checked only when the
 * condition holds; when it cannot be told, whatever the rule would find is a question for a human.
 */
export interface Condition {
  /** `member`: the action's counterparty (recipient, payee, host) is on the context list at `path` (or not: `negated`). */
  subject: "price" | "context" | "member" | "unread";
  path?: string;
  negated?: boolean;
  op: ">" | ">=" | "<" | "<=";
  value: number;
  /** The figure was written with "%" and the context key does not say its unit. */
  pct?: boolean;
  text: string;
}

interface Base {
  /** The sentence the constraint came from, quoted back in reasoning. */
  rule: string;
  /** The rule binds only while this holds (parse/conditions.ts, checks/conditions.ts). */
  when?: Condition;
}

export type Constraint =
  | (Base & { kind: "permit"; activities: Activity[] })
  | (Base & {
      kind: "allow" | "deny";
      dim: ListDim;
      values: string[];
      /** Context paths whose keys/values extend the list (e.g. "context.suppliers"). */
      refs?: string[];
      /** Activities the list applies to; empty = every action. */
      activities: Activity[];
      /** From "trade/buy X": a swap's stablecoin side is the implicit quote currency, not a traded asset. */
      quoteImplicit?: boolean;
      /** "SOL may only go to X": the list binds only moves of these assets. */
      forAssets?: string[];
      /** Folded into the `grant` with this id (parse/grants.ts): checked there, never on its own. */
      grantId?: number;
    })
  /** "Nothing else is permitted": an action the rules do not permit is outside them, not merely unmentioned. */
  | (Base & {
      kind: "only_listed";
      /** "anything these rules don't cover: escalate to #ops": what no rule permits is held for a human, not refused. */
      ask?: boolean;
      /** "every other movement of funds is prohibited": the closer covers only these kinds of action (parse/closers.ts). */
      activities?: Activity[];
    })
  /** direction: "never remove margin" binds only margin removals (an addition is not forbidden). */
  | (Base & {
      kind: "forbid";
      activities: Activity[];
      label: string;
      asset?: string;
      direction?: "add" | "remove";
      /** "shall not approve any agent wallet": only this kind of permission (an approval of that adapter kind). */
      permissionKind?: "agent" | "builderFee";
      /** "No NFTs": only actions that touch an asset of this class. */
      assetClass?: "nft";
      /** "No looping": only an action doing every one of `activities` at once. */
      together?: boolean;
      /** "No flash loans": only actions whose type or summary names this. */
      typeRe?: string;
      /** "must not send any asset to another address": only moves that reach another address, never the account's own balances. */
      external?: boolean;
    })
  /** "a max fee rate of at most 0.05%": a builder-fee approval's rate, in percent. */
  | (Base & { kind: "fee_rate_cap"; maxPct: number })
  | CapRule
  | GrantRule
  | (Base & {
      kind: "escalate_above";
      limit: Quantity;
      scope: CapScope;
      inclusive: boolean;
      /** Read from "the agent acts alone below X" (parse/tiers.ts): it implies no permission for the kind it counts. */
      noGrant?: boolean;
      /** "Withdrawals above 500 USDC require human approval": actions made only of these are not held (cap-activity.ts). */
      exempt?: Activity[];
      /** "Team payouts: ... anything above $30 ask me": the line holds only these activities (parse/clause-activity.ts). */
      activities?: Activity[];
    })
  /** "between 5 and 50 USDC", "min payment: 5 USDC": each action in scope must be at least this (inclusive). */
  | (Base & { kind: "floor"; limit: Quantity; scope: CapScope })
  /** "health factor at least 1.6 after the borrow": a lending position's health factor after the action. */
  | (Base & { kind: "health_floor"; min: number; strict: boolean })
  /**
   * "after any transfer the wallet must still hold at least 2 ETH": what the action leaves of `asset`, from the
   * balance at `path` (or the asset's entry in a balances map), may not go below `min` whole units.
   */
  | (Base & { kind: "balance_floor"; asset: string; min: number; strict: boolean; path?: string })
  /** "after any stake, stETH may not exceed 50% of combined ETH plus stETH holdings (context.holdings)". */
  | (Base & { kind: "post_share"; asset: string; of: [string, string]; maxPct: number; path: string })
  /** "price range: 0.05 to 0.90 per share": a prediction-market order's limit price may not be below this. */
  | (Base & { kind: "price_floor"; min: number })
  /** "Undelegating needs my approval": any action of these kinds is held for a human. */
  | (Base & { kind: "escalate_on"; activities: Activity[] })
  /**
   * `assets`: the cap holds only for these ("8x on BTC and ETH"); `except`: for every asset but these ("3x on
   * alts" beside "8x on BTC and ETH"). Neither: every asset.
   */
  | (Base & { kind: "leverage_cap"; max: number; assets?: string[]; except?: string[] })
  /** "Leverage above 5x needs my sign-off": a leverage setting above `above` is held for a human. */
  | (Base & { kind: "leverage_escalate"; above: number })
  | (Base & { kind: "no_leverage_increase" })
  /** "cross only", "positions shall use isolated margin": the margin mode a leverage setting must keep. */
  | (Base & { kind: "margin_mode"; mode: "cross" | "isolated"; /** a switch to `mode` goes to a human (not a required mode) */ escalate?: boolean })
  /** long/short: perps may not open the other way; buy/sell: no orders on the other side at all. */
  /** `assets`: the rule names its coins ("longs only on HYPE", "never short hype"); other coins are free of it. */
  /** `names`: said as a permission ("longs only on HYPE"), so the coins are traded ones (they join an asset list). */
  | (Base & { kind: "side"; allowed: "long" | "short" | "buy" | "sell"; escalate?: boolean; assets?: string[]; names?: boolean; /** "selling down my long is fine": a sell within the long is read, not held */ trimOk?: boolean })
  /** "exits": an order that closes or reduces a position (per context.positions) must carry reduce-only. */
  | (Base & { kind: "reduce_only"; appliesTo: "all" | "sell" | "buy" | "exits" })
  /**
   * Rules about what an order does to the position it meets (context.positions): "never close positions" (close),
   * "no flipping" (flip: long to short or back in one order), "don't add to a losing position" (add_losing).
   */
  | (Base & { kind: "position_rule"; forbids: "close" | "flip" | "add_losing" })
  /** "Reduce-only exits are always allowed": closing orders are exempt from order caps and shape rules. */
  | (Base & { kind: "exits_allowed" })
  /** "Stop-losses and take-profits are fine": reduce-only trigger orders are exempt from order-type rules. */
  | (Base & { kind: "protective_ok" })
  | (Base & {
      kind: "order_type";
      /** Allowed order types/TIFs (lower-case: limit, market, trigger, gtc, ioc, alo, fok, fak, gtd). Empty = any. */
      allow: string[];
      deny: string[];
      appliesTo: "all" | "entries";
      /** "anything bigger than $1,000 goes through a TWAP": binds only orders whose notional is above this (USD). */
      above?: number;
      /** "anything FOK or FAK - run it by me first": an order of a `deny` type goes to a human instead of being refused. */
      escalate?: boolean;
    })
  /** "a TWAP must run at least 20 minutes": a TWAP order's duration in minutes (other orders are free of it). */
  | (Base & { kind: "twap_duration"; min?: number; max?: number })
  | (Base & { kind: "slippage_cap"; bps: number })
  /** "never pay more than 45c a share": a prediction-market order's limit price per share (dollars), for buys or every order. */
  | (Base & { kind: "price_cap"; max: number; strict: boolean; side: "buy" | "all" })
  /** "only swap WETH to USDC", "buy SOL with USDC": swaps may sell only `sell` and buy only `buy`. */
  | (Base & { kind: "swap_direction"; sell: string[]; buy: string[] })
  /** "ExactIn only", "never exact-output swaps": which amount of a swap the agent may fix (the input or the output). */
  | (Base & { kind: "swap_mode"; mode: "in" | "out" })
  /** exact: approvals must equal the swap they serve; otherwise only unlimited approvals are ruled out. */
  | (Base & { kind: "approval_exact"; exact: boolean; pendingRef?: boolean })
  | (Base & { kind: "beneficiary"; addresses: string[]; /** context paths holding the allowed address(es) */ refs?: string[] })
  /**
   * x402: each host is paid only at its own payee. `pairs` from the rules' text (host, address); `refs` are context
   * maps of host -> payTo. `perHost`: the rule said "the payTo listed for that host" and takes the map of the host list.
   */
  | (Base & { kind: "host_payee"; pairs: Array<[string, string]>; refs: string[]; perHost?: boolean })
  /**
   * "exactly the salary next to their name" (exact), "at most the amount approved for that recipient" (max): each
   * move's amount against the figure in its payee's entry of the context lists `refs`.
   */
  | (Base & {
      kind: "payee_amount";
      mode: "exact" | "max";
      refs: string[];
      /** "awarded_usdc minus paid_usdc": the figure is one field of the entry less another, not a field of its own. */
      diff?: { plus: string; minus: string };
    })
  /** "one payment per person per month, context.paid_this_month shows who already got it": `refs` is the paid list. */
  | (Base & { kind: "payee_once"; period: string; refs: string[]; /** only declares the paid list (parse time) */ decl?: boolean });

export type CapRule = Base & {
  kind: "cap";
  limit: Quantity;
  period: Period;
  scope: CapScope;
  /** Inclusive ("at most") or strict ("under"); an amount exactly at an inclusive cap is inside it. */
  strict: boolean;
  /** For swaps: the cap counts the amount going in (sold). */
  sideIn?: boolean;
  /** "max supply per tx: 50k": the cap counts only these activities (the one its cap word names). */
  activities?: Activity[];
  /** Cumulative caps name what is counted ("staked", "spent"); used to find the context counter. */
  subject?: string;
  /** The context path the rules name as the running total ("the day's running total is context.spent_today_usd"). */
  counterRef?: string;
  /** "5% of context.account.account_value_usd": the limit is a share of a context figure, read at check time. */
  limitOf?: { pct: number; path: string };
  /** "except a rent top-up of at most 0.01 SOL to context.x": the cap binds only moves to these recipients. */
  to?: { values: string[]; refs?: string[] };
  /** Folded into the `grant` with this id (parse/grants.ts): checked there, never on its own. */
  grantId?: number;
  /**
   * "4 SOL or 650 USDC per payout", "WETH: 4; USDC: 12,500": one ceiling per asset, given as alternatives. Each cap
   * counts only its own asset (never the dollar value of another), and an action in none of these assets has no
   * ceiling the owner wrote, so it is not allowed on them (checks/asset-alternatives.ts).
   */
  alts?: string[];
};

/**
 * One permission scoped to the clause that gives it ("USDC to the contractors in context.contractors, up to 1,800
 * each"): the moves it covers (activities), the assets it names, to whom (addresses and context lists) and its own
 * per-item caps. Built only when an intent gives two or more such permissions (parse/grants.ts); a move is allowed
 * by the grants when it fits one of them completely (checks/grants.ts).
 */
export type GrantRule = Base & {
  kind: "grant";
  id: number;
  /** The moves it covers; `universal` when its lists named no activity (they bound every action). */
  activities: Activity[];
  universal: boolean;
  /** Upper-case symbols; never empty (a permission naming no asset is not a grant). */
  assets: string[];
  recipients: string[];
  refs: string[];
  /** Says to whom nowhere, while other grants do and no list outside the grants does: to whom is unclear. */
  openRecipients: boolean;
  caps: CapRule[];
  /** "anything else: ask me": a move no grant covers is held for a human rather than refused. */
  askOtherwise: boolean;
};

export type ConstraintKind = Constraint["kind"];

/** One order, normalised for checking. */
export interface OrderView {
  asset: string | null;
  marketType: "perp" | "spot" | "prediction" | null;
  side: "buy" | "sell" | null;
  size: number | null;
  price: number | null;
  /** Upper bound of the order's USD value, or null when it cannot be bounded from the facts present. */
  notionalUsd: number | null;
  /** True when the bound assumes a fill at the mark price (no limit price), so slippage could raise it. */
  notionalAtMark: boolean;
  reduceOnly: boolean;
  orderType: string | null; // limit | market | trigger | twap
  tif: string | null; // lower-case: gtc, ioc, alo, fok, fak, gtd
  isMarketLike: boolean;
  trigger: boolean;
  /** A TWAP's duration in minutes, when the adapter gives it. */
  minutes?: number | null;
  /** Prediction markets: the market question and outcome when the context maps the token. */
  question?: string | null;
  tokenId?: string | null;
}

/** Value leaving the account or moving between places. */
export interface MoveView {
  asset: string | null;
  amount: number | null; // whole units
  usd: number | null;
  to: string | null;
  /** For a move between the owner's own accounts: the other account (the sub-account moved to or from). */
  own?: string | null;
}

export interface SwapView {
  sellAsset: string | null;
  sellAmount: number | null;
  sellUsd: number | null;
  buyAsset: string | null;
  buyMin: number | null;
  buyUsdMin: number | null;
  slippageBps: number | null;
  recipient: string | null;
  /** Exact-input ("in") or exact-output ("out") swap, when the adapter says. */
  mode?: "in" | "out" | null;
}

export interface ApprovalView {
  token: string | null;
  spender: string | null;
  amount: number | null;
  unlimited: boolean;
  /** The adapter's kind ("erc20", "permit2", "agent", "builderFee") and its amount as written ("0.03%" for a fee rate). */
  kind?: string | null;
  raw?: string | null;
}

/** The action as the checks see it, built from adapter Facts or from a plain-English action string. */
export interface ActionView {
  source: "facts" | "text" | "none";
  venue: string | null;
  chain: string | null;
  /** Where a withdrawal lands when it leaves for another chain (Hyperliquid's withdraw3: Arbitrum). */
  destinationChain?: string | null;
  chainId: string | null;
  activities: Activity[];
  actionType: string | null;
  summary: string;
  orders: OrderView[];
  moves: MoveView[];
  swap: SwapView | null;
  approvals: ApprovalView[];
  leverage: { asset: string | null; value: number; isCross?: boolean | null } | null;
  assets: string[];
  recipients: string[];
  /** Addresses credited with a position (Aave onBehalfOf) or receiving output. */
  beneficiaries: string[];
  hosts: string[];
  /** Isolated-margin changes: whether margin is added or removed, when the adapter says. */
  marginDirection?: "add" | "remove" | null;
  /** Total USD at stake according to the adapter, when it gave no per-item figures. */
  notionalUsd: number | null;
  /** EVM contracts the action calls (empty when not an EVM call). */
  contracts: string[];
  /** The address the transaction is sent from, when the raw action names one ("this wallet" in the rules). */
  sender?: string | null;
  /** Facts the view could not establish (e.g. "the price of SOL"); each makes an ALLOW impossible. */
  gaps: string[];
  warnings: string[];
}

export interface RulesResult {
  verdict: Verdict;
  reasoning: string;
  /** Hard violations: each a sentence quoting the rule and the computed figure. */
  violations: string[];
  /** Sentences not understood and facts missing (escalations first, when any). */
  unknowns: string[];
  /**
   * The intent's own "needs a human above X" rules that this action triggers. A subset of `unknowns`, kept apart
   * because no model may turn it into an ALLOW: the owner asked for a human.
   */
  escalations: string[];
  /** Parsed constraints, JSON-safe, for the transcript. */
  constraints: unknown[];
  /** Authority claims found in untrusted text. */
  injection: string[];
  /** Per clause of the intent, how it was read (constraint, descriptive, not understood) and the words it ignored. */
  clauses: unknown[];
}

/** Outcome of one check: hard violation, a reason to hold for a human, or a missing fact. */
export interface Finding {
  type: "violation" | "escalate" | "unknown";
  message: string;
}
