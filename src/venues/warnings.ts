/**
 * Venue adapter warnings with a code and a severity (the same severities as the chain simulators'
 * ChainWarning, src/chains/types.ts):
 * - `info`: shown to the judge in the facts, decides nothing (a price the checks look up themselves, a
 *   default that applies, a fact the amount checks already treat as missing);
 * - `warn`: the facts may not describe what will really happen: the rules engine asks a human (ESCALATE);
 * - `block`: the payload contradicts itself (what is signed differs from what it declares): refused.
 *
 * Adapters word their warnings for people (the judge and the transcript read `Facts.warnings` as text);
 * this catalogue is the one place that gives each kind of wording its code and severity. A warning no
 * entry matches is `unclassified` with severity `warn`: it escalates, it is never dropped (the rules
 * engine once sorted warnings by three regular expressions and silently ignored one that matched none).
 * Order matters: the first matching entry wins, so contradictions come first and the benign wordings
 * before the broad serious ones they would otherwise also match.
 */
import type { WarningSeverity } from "../chains/types";

export interface VenueWarning {
  /** Stable lower_snake_case code. */
  code: string;
  severity: WarningSeverity;
  message: string;
}

interface Entry {
  code: string;
  severity: WarningSeverity;
  pattern: RegExp;
}

export const UNCLASSIFIED = "unclassified";

const CATALOGUE: readonly Entry[] = [
  // What is signed differs from what the payload declares: refuse, do not ask.
  { code: "payload_contradiction", severity: "block", pattern: /authorization (?:value|pays)\b.*\b(?:differs|not the accepted)|accepted (?:amount|\.\w+).*differs from the (?:required|requirements)/i },
  // Facts the checks look up themselves, or that do not weaken the facts.
  { code: "price_unknown", severity: "info", pattern: /no context price|no price for|no usd price for|not priced|notional unknown|usd value unknown|more than 20% away|price impact/i },
  { code: "slippage_unbounded_here", severity: "info", pattern: /slippage unknown|slippage is not computed|dynamic slippage|slippagebps not given/i },
  { code: "full_balance", severity: "info", pattern: /full balance \(amount = max uint256\)|^moves all funds$/i },
  { code: "harmless_detail", severity: "info", pattern: /stays valid|memo text|native transfer of zero|upper bound|options offered|cancel with no cancels/i },
  // Chain simulation notes (an escrow proposal's facts carry its simulation report's warnings as text).
  { code: "chain_fee_note", severity: "info", pattern: /^fee about .* STRK|account contract is deployed first/i },
  { code: "limited_approval", severity: "info", pattern: /^approves \S+ to spend (?!an unlimited)/i },
  // The simulation outcome is acted on elsewhere (a revert blocks; an unavailable simulation holds the proposal).
  { code: "simulation_outcome", severity: "info", pattern: /^SIMULATION REVERTED: |^simulation unavailable: the changes are what the input declares/ },
  // The facts may not describe what will happen: a human decides.
  { code: "payload_mismatch", severity: "warn", pattern: /differ|mismatch|disagree|inconsistent|not the sender|not the signer|swaps with different tokens|different chains|chain unknown/i },
  {
    code: "unknown_asset",
    severity: "warn",
    pattern: /unknown (?:token|decimals|mint|hyperliquid|drift|gmx|polymarket)|decimals for|not a known|owner is not known|market not identified/i,
  },
  {
    code: "wrong_contract",
    severity: "warn",
    pattern: /not lido|not the lido|not the morpho|not the pendle|outside polymarket|option market|testnet/i,
  },
  {
    code: "broad_permission",
    severity: "warn",
    pattern: /unlimited|setauthority|setapprovalforall|control of every token|on behalf of vault|builder fee|private to taker|private action|full balance|denominated in shares|part of the output|grants an agent wallet/i,
  },
  { code: "no_slippage_protection", severity: "warn", pattern: /amountoutminimum is zero|no slippage protection/i },
  { code: "instruction_like_text", severity: "warn", pattern: /instruction-like/i },
  {
    code: "not_decoded",
    severity: "warn",
    pattern:
      /does not (?:match|recognise|recognize|decode)|not decoded|undecoded|no decodable|could not|cannot be|not recognised|unrecognised|malformed|missing|without (?:an? |integer )|not a (?:number|boolean|token address|valid url)|not an integer|only the first|no valid orders|x402 version|quantums|no accepted payment terms|what it moves is unknown|payment asset not given|lookup table|not visible/i,
  },
];

/** The code and severity of one adapter warning (unclassified wording: `warn`, so it escalates). */
export function venueWarning(message: string): VenueWarning {
  const hit = CATALOGUE.find((e) => e.pattern.test(message));
  return hit ? { code: hit.code, severity: hit.severity, message } : { code: UNCLASSIFIED, severity: "warn", message };
}

export const venueWarnings = (messages: readonly string[]): VenueWarning[] => messages.map(venueWarning);

/** Every code this catalogue can give, with its severity (for docs and tests). */
export const VENUE_WARNING_CODES: ReadonlyMap<string, WarningSeverity> = new Map([...CATALOGUE.map((e) => [e.code, e.severity] as const), [UNCLASSIFIED, "warn" as const]]);
