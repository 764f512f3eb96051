/**
 * From a proposal input to the Starknet payload the wallet will sign: one multicall, each call with its
 * target (canonical felt), entry point name and selector, and felt calldata in canonical hex. Named
 * transfers of STRK, ETH, USDC or USDT become the token's `transfer(recipient, u256)`. Nothing here
 * reads the chain; the adapter checks the targets exist afterwards.
 */
import { keccakCanonical } from "../../lib/hashing";
import { parseUnitsStrict } from "../../lib/money";
import { ChainInputError, type WalletRef } from "../port";
import type { ChainPayload, PlannedTransaction, RawChange } from "../types";
import { STARKNET_TOKENS, selector, SEL } from "./constants";
import { FeltError, fromU256, normaliseAddress, parseFelt, toAddress, toFeltHex, toU256 } from "./felt";
import { starknetAddressCodec } from "./codec";
import { SEL_APPLY_ACTIONS as SEL_APPLY } from "./strk20/invocation";
import { checkProofShape, ProofShapeError } from "./strk20/proof-facts";

export interface StarknetCall {
  to: string;
  entrypoint: string;
  selector: string;
  calldata: string[];
}

export interface StarknetPayload extends ChainPayload {
  v: 1;
  from: string;
  calls: StarknetCall[];
  /** STRK20: the proof facts of a single apply_actions call (public, hashed into the transaction). The proof itself is never stored. */
  proofFacts?: string[];
}

export const MAX_CALLS = 32;
export const MAX_CALLDATA = 512;
const ENTRYPOINT = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const MAX_U256 = 2n ** 256n - 1n;

export const starknetRequestHash = (p: StarknetPayload): string => keccakCanonical(p);

const fail = (m: string): never => {
  throw new ChainInputError(m);
};

function felt(v: unknown, field: string): bigint {
  try {
    return parseFelt(typeof v === "string" ? v.trim() : v, field);
  } catch (e) {
    if (e instanceof FeltError) return fail(e.message);
    throw e;
  }
}

function address(v: unknown, field: string): string {
  try {
    return normaliseAddress(typeof v === "string" ? v.trim() : v, field);
  } catch (e) {
    if (e instanceof FeltError) return fail(e.message);
    throw e;
  }
}

const short = (a: string) => starknetAddressCodec.display(a);

export function transferPlan(wallet: WalletRef, t: { asset: string; amount: string; to: string }): PlannedTransaction<StarknetPayload> {
  const sym = t.asset.trim().toUpperCase();
  // A symbol, or one of the four tokens' addresses in any felt spelling.
  const byAddress = (() => {
    try {
      const a = normaliseAddress(t.asset.trim());
      return STARKNET_TOKENS.find((x) => x.address === a);
    } catch {
      return undefined;
    }
  })();
  const token = STARKNET_TOKENS.find((x) => x.symbol === sym) ?? byAddress;
  if (!token) fail(`unsupported asset "${t.asset}" on Starknet: use one of STRK, ETH, USDC, USDT (or its token address)`);
  const tk = token!;
  let amount: bigint;
  try {
    amount = parseUnitsStrict(t.amount.trim(), tk.decimals);
  } catch (e) {
    return fail(`transfer.amount: ${(e as Error).message} (a plain decimal in whole ${tk.symbol}, at most ${tk.decimals} decimals, no exponent)`);
  }
  if (amount <= 0n) fail("transfer.amount must be greater than zero");
  if (amount > MAX_U256) fail("transfer.amount is too large");
  const to = address(t.to, "transfer.to");
  if (to === wallet.address) fail("transfer.to is the wallet itself");
  const [low, high] = toU256(amount);
  const payload: StarknetPayload = {
    v: 1,
    from: wallet.address,
    calls: [{ to: tk.address, entrypoint: "transfer", selector: toFeltHex(SEL.transfer), calldata: [to, toFeltHex(low), toFeltHex(high)] }],
  };
  const declared: RawChange[] = [{ direction: "out", assetType: "erc20", changeType: "transfer", token: tk.address, rawAmount: amount, counterparty: to, unlimited: false }];
  return { kind: "transfer", payload, requestHash: starknetRequestHash(payload), summary: `transfer ${t.amount.trim()} ${tk.symbol} to ${short(to)}`, declared };
}

export function callsPlan(wallet: WalletRef, input: Record<string, unknown>, strk20?: { pool: string | null }): PlannedTransaction<StarknetPayload> & { proofData?: string } {
  const hasProof = input.proof !== undefined && input.proof !== null;
  if (hasProof && !strk20?.pool) fail("starknet_calls.proof: STRK20 private actions are not available on this deployment");
  const list = input.calls;
  if (!Array.isArray(list) || list.length === 0) fail("calls must be a non-empty array of {contractAddress, entrypoint, calldata}");
  const raw = list as unknown[];
  if (raw.length > MAX_CALLS) fail(`calls: at most ${MAX_CALLS} calls in one multicall`);
  const calls: StarknetCall[] = raw.map((c, i) => {
    if (!c || typeof c !== "object" || Array.isArray(c)) return fail(`calls[${i}] must be an object {contractAddress, entrypoint, calldata}`);
    const o = c as Record<string, unknown>;
    const to = address(o.contractAddress, `calls[${i}].contractAddress`);
    if (to === wallet.address) fail(`calls[${i}]: a call to the wallet's own account contract is refused (it could change the key or upgrade the account)`);
    const ep = typeof o.entrypoint === "string" ? o.entrypoint.trim() : "";
    if (!ENTRYPOINT.test(ep)) fail(`calls[${i}].entrypoint must be a Cairo entry point name (letters, digits, underscore)`);
    const cd = o.calldata ?? [];
    if (!Array.isArray(cd)) return fail(`calls[${i}].calldata must be an array of felts (hex or decimal strings)`);
    if (cd.length > MAX_CALLDATA) fail(`calls[${i}].calldata: at most ${MAX_CALLDATA} felts`);
    const calldata = cd.map((x, j) => {
      if (typeof x !== "string") return fail(`calls[${i}].calldata[${j}] must be a string (hex or decimal felt)`);
      return toFeltHex(felt(x, `calls[${i}].calldata[${j}]`));
    });
    return { to, entrypoint: ep, selector: toFeltHex(selector(ep)), calldata };
  });
  const pool = strk20?.pool ?? null;
  const apply = calls.filter((c) => pool !== null && c.to === pool && BigInt(c.selector) === SEL_APPLY);
  let proof: { facts: bigint[]; data: string } | undefined;
  if (hasProof) {
    const p = input.proof as Record<string, unknown>;
    if (!p || typeof p !== "object" || Array.isArray(p)) fail("proof must be an object {facts, data}");
    try {
      proof = checkProofShape({ facts: p.facts, data: p.data }, "proof");
    } catch (e) {
      if (e instanceof ProofShapeError) fail(e.message);
      throw e;
    }
    if (calls.length !== 1 || apply.length !== 1) fail(`proof is only for one call to the privacy pool's apply_actions (${pool}); apply_actions cannot share a multicall with other calls (the proof travels on the transaction)`);
  } else if (apply.length > 0) {
    fail("a call to the privacy pool's apply_actions needs its proof: send starknetProof {facts, data} (from strk20_sign_proof_invocation)");
  }
  const payload: StarknetPayload = { v: 1, from: wallet.address, calls, ...(proof ? { proofFacts: proof.facts.map(toFeltHex) } : {}) };
  const declared = declaredChanges(calls);
  const summary =
    calls.length === 1 ? `call ${calls[0]!.entrypoint} on ${short(calls[0]!.to)}` : `multicall of ${calls.length} calls (${[...new Set(calls.map((c) => c.entrypoint))].join(", ")})`;
  return { kind: "starknet_calls", payload, requestHash: starknetRequestHash(payload), summary: proof ? `STRK20 private action (apply_actions on the pool ${short(pool!)})` : summary, declared, ...(proof ? { proofData: proof.data } : {}) };
}

/** What the calls say they do to the wallet, for a report when the chain cannot simulate. */
function declaredChanges(calls: StarknetCall[]): RawChange[] {
  const out: RawChange[] = [];
  for (const c of calls) {
    const token = STARKNET_TOKENS.find((t) => t.address === c.to);
    if (!token) continue;
    const sel = BigInt(c.selector);
    const cd = c.calldata.map((x) => BigInt(x));
    try {
      if (sel === SEL.transfer && cd.length === 3) {
        out.push({ direction: "out", assetType: "erc20", changeType: "transfer", token: token.address, rawAmount: fromU256(cd[1]!, cd[2]!), counterparty: toAddress(cd[0]!), unlimited: false });
      } else if (sel === SEL.approve && cd.length === 3) {
        const amount = fromU256(cd[1]!, cd[2]!);
        out.push({ direction: "out", assetType: "erc20", changeType: "approval", token: token.address, rawAmount: amount, counterparty: toAddress(cd[0]!), unlimited: amount >= 2n ** 255n });
      }
    } catch {
      // malformed u256: the simulation will revert it
    }
  }
  return out;
}

/** The Cairo 1 `__execute__` calldata of a payload: [n, (to, selector, len, ...calldata)*]. */
export function executeCalldata(p: StarknetPayload): string[] {
  const out: string[] = [toFeltHex(BigInt(p.calls.length))];
  for (const c of p.calls) out.push(toFeltHex(BigInt(c.to)), c.selector, toFeltHex(BigInt(c.calldata.length)), ...c.calldata);
  return out;
}
