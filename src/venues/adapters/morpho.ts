/**
 * Morpho: Morpho Blue markets (supply, withdraw, borrow, repay, supplyCollateral, withdrawCollateral with
 * the MarketParams struct). MetaMorpho vaults are plain ERC-4626 and are described by the generic decoder
 * (under `morpho` when the caller names it). Share-denominated calls (assets = 0, shares > 0) have no
 * asset amount until executed; that is said, not guessed.
 */
import { parseAbi } from "viem";
import { evmAmount } from "../lib/amounts";
import { addrArg, bigArg, safeDecode, selectorsOf, type EvmTx } from "../lib/evm";
import { makeEvmAdapter } from "../lib/evm-adapter";
import { withMeta } from "../lib/evm-generic";
import { facts, fmt, fmtUsd, type FactsInit } from "../lib/facts";
import { isRecord } from "../lib/util";

type Ctx = Record<string, unknown> | null | undefined;

const MORPHO_BLUE = "0xbbbbbbbbbb9cc5e90e3b3af64bdaf62c37eeffcb";
const MP = "(address loanToken, address collateralToken, address oracle, address irm, uint256 lltv) marketParams";
const ABI = parseAbi([
  `function supply(${MP}, uint256 assets, uint256 shares, address onBehalf, bytes data)`,
  `function withdraw(${MP}, uint256 assets, uint256 shares, address onBehalf, address receiver)`,
  `function borrow(${MP}, uint256 assets, uint256 shares, address onBehalf, address receiver)`,
  `function repay(${MP}, uint256 assets, uint256 shares, address onBehalf, bytes data)`,
  `function supplyCollateral(${MP}, uint256 assets, address onBehalf, bytes data)`,
  `function withdrawCollateral(${MP}, uint256 assets, address onBehalf, address receiver)`,
]);
const SELECTORS = selectorsOf(ABI);

function describeTx(tx: EvmTx, ctx: Ctx): FactsInit | null {
  if (!tx.selector || !SELECTORS.has(tx.selector)) return null;
  const d = safeDecode(ABI, tx.data);
  if (!d) return null;
  const w: string[] = [];
  const fn = d.functionName;
  const mp = isRecord(d.args[0]) ? d.args[0] : {};
  const collateralSide = fn === "supplyCollateral" || fn === "withdrawCollateral";
  const token = addrArg(collateralSide ? mp.collateralToken : mp.loanToken);
  const assets = bigArg(d.args[1]);
  const shares = collateralSide ? null : bigArg(d.args[2]);
  const onBehalf = addrArg(collateralSide ? d.args[2] : d.args[3]);
  const receiver = fn === "withdraw" || fn === "borrow" ? addrArg(d.args[4]) : fn === "withdrawCollateral" ? addrArg(d.args[3]) : null;
  const byShares = assets === 0n && shares !== null && shares > 0n;
  if (byShares) w.push(`${fn} is denominated in shares (${shares}); the asset amount is known only on execution`);
  const a = evmAmount(token, byShares ? null : assets, tx.chainId, ctx, w);
  const entering = fn === "supply" || fn === "repay" || fn === "supplyCollateral";
  const f = facts("morpho", fn === "borrow" || fn === "repay" ? "position" : "vault", fn, tx.chain);
  if (entering) f.transfers = [{ ...a, to: tx.to, from: tx.from, kind: `morpho.${fn}`, intoProtocol: true }];
  f.assets = [a.asset];
  f.recipients = [receiver ?? onBehalf].filter(Boolean);
  f.notionalUsd = a.usd;
  f.details = { market: { loanToken: addrArg(mp.loanToken), collateralToken: addrArg(mp.collateralToken), oracle: addrArg(mp.oracle), lltv: String(mp.lltv ?? "") }, onBehalf, receiver, shares: shares?.toString() ?? null };
  if (tx.to !== MORPHO_BLUE) w.push(`Morpho Blue call to ${tx.to}, which is not the Morpho Blue singleton`);
  if (tx.from && onBehalf && onBehalf !== tx.from && entering) w.push(`${fn} on behalf of ${onBehalf}, not the sender`);
  if (receiver && tx.from && receiver !== tx.from) w.push(`${fn} sends to ${receiver}, not the sender`);
  f.summary = `Morpho ${fn} ${byShares ? `${shares} shares of` : fmt(a.amount)} ${a.asset} (${fmtUsd(a.usd)})${receiver ? ` to ${receiver}` : ` for ${onBehalf}`}`;
  return withMeta(f, tx, w);
}

const matchesTx = (tx: EvmTx) => !!tx.selector && SELECTORS.has(tx.selector);

export const morpho = makeEvmAdapter({ id: "morpho", aliases: ["morphoblue", "metamorpho", "morphovault"], matchesTx, describeTx });
