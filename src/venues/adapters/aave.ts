/**
 * Aave V3 Pool (supply, withdraw, borrow, repay, repayWithATokens, setUserUseReserveAsCollateral), the V2
 * LendingPool's deposit, and the WrappedTokenGateway's ETH variants. Supply and withdraw are vault moves;
 * borrow and repay change a debt position. `onBehalfOf` and `to` are recipients: supplying on behalf of a
 * stranger, or withdrawing to one, moves the owner's value to them.
 */
import { parseAbi } from "viem";
import { evmAmount, nativeAmount } from "../lib/amounts";
import { addrArg, bigArg, isUnlimited, safeDecode, selectorsOf, type EvmTx } from "../lib/evm";
import { makeEvmAdapter } from "../lib/evm-adapter";
import { withMeta } from "../lib/evm-generic";
import { facts, fmt, fmtUsd, type FactsInit } from "../lib/facts";
import type { ActionFamily } from "../types";

type Ctx = Record<string, unknown> | null | undefined;

const ABI = parseAbi([
  "function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode)",
  "function deposit(address asset, uint256 amount, address onBehalfOf, uint16 referralCode)",
  "function withdraw(address asset, uint256 amount, address to)",
  "function borrow(address asset, uint256 amount, uint256 interestRateMode, uint16 referralCode, address onBehalfOf)",
  "function repay(address asset, uint256 amount, uint256 interestRateMode, address onBehalfOf)",
  "function repayWithATokens(address asset, uint256 amount, uint256 interestRateMode)",
  "function setUserUseReserveAsCollateral(address asset, bool useAsCollateral)",
  "function setUserEMode(uint8 categoryId)",
  // WrappedTokenGatewayV3
  "function depositETH(address pool, address onBehalfOf, uint16 referralCode)",
  "function withdrawETH(address pool, uint256 amount, address to)",
  "function borrowETH(address pool, uint256 amount, uint16 referralCode)",
  "function repayETH(address pool, uint256 amount, address onBehalfOf)",
]);

export const POOLS: Record<string, string> = {
  "0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2": "Aave V3 Pool (Ethereum)",
  "0xa238dd80c259a72e81d7e4664a9801593f98d1c5": "Aave V3 Pool (Base)",
  "0x794a61358d6845594f94dc1db02a252b5b4814ad": "Aave V3 Pool (Arbitrum/Optimism/Polygon)",
  "0x7d2768de32b0b80b7a3454c06bdac94a69ddc7a9": "Aave V2 LendingPool (Ethereum)",
};

const FAMILY: Record<string, ActionFamily> = {
  supply: "vault",
  deposit: "vault",
  depositETH: "vault",
  withdraw: "vault",
  withdrawETH: "vault",
  borrow: "position",
  borrowETH: "position",
  repay: "position",
  repayETH: "position",
  repayWithATokens: "position",
  setUserUseReserveAsCollateral: "position",
  setUserEMode: "position",
};

const SELECTORS = selectorsOf(ABI);

function describeTx(tx: EvmTx, ctx: Ctx): FactsInit | null {
  const known = POOLS[tx.to];
  if (!tx.selector || !SELECTORS.has(tx.selector)) return null;
  const d = safeDecode(ABI, tx.data);
  if (!d) return null;
  const fn = d.functionName;
  const a = d.args;
  const w: string[] = [];
  // ERC-4626 shares the withdraw(uint256,address,address) name but not the selector; Aave's takes the asset first
  if (fn === "setUserEMode") {
    const f = facts("aave", "position", fn, tx.chain);
    f.summary = `Set Aave E-Mode category ${String(a[0])}`;
    return withMeta(f, tx, w);
  }
  const eth = fn.endsWith("ETH");
  const asset = eth ? null : addrArg(a[0]);
  let amount: bigint | null = null;
  let party: string | null = null;
  if (fn === "supply" || fn === "deposit") [amount, party] = [bigArg(a[1]), addrArg(a[2])];
  else if (fn === "withdraw") [amount, party] = [bigArg(a[1]), addrArg(a[2])];
  else if (fn === "borrow") [amount, party] = [bigArg(a[1]), addrArg(a[4])];
  else if (fn === "repay") [amount, party] = [bigArg(a[1]), addrArg(a[3])];
  else if (fn === "repayWithATokens") amount = bigArg(a[1]);
  else if (fn === "depositETH") [amount, party] = [tx.value, addrArg(a[1])];
  else if (fn === "withdrawETH") [amount, party] = [bigArg(a[1]), addrArg(a[2])];
  else if (fn === "borrowETH") amount = bigArg(a[1]);
  else if (fn === "repayETH") [amount, party] = [bigArg(a[1]) ?? tx.value, addrArg(a[2])];
  const all = amount !== null && isUnlimited(amount);
  const amt = all ? null : amount;
  const af = asset ? evmAmount(asset, amt, tx.chainId, ctx, w) : nativeAmount(amt ?? 0n, tx.chainId, ctx, w);
  if (all) {
    af.amount = null;
    af.amountBase = amount?.toString() ?? null;
    w.push(`${fn} of the full balance (amount = max uint256): exact amount unknown`);
  }
  const f = facts("aave", FAMILY[fn] ?? "unknown", fn, tx.chain);
  f.assets = [af.asset];
  if (fn === "setUserUseReserveAsCollateral") {
    f.summary = `${a[1] ? "Enable" : "Disable"} ${af.asset} as Aave collateral`;
    return withMeta(f, tx, w);
  }
  const sender = tx.from;
  const entering = fn.startsWith("supply") || fn.startsWith("deposit") || fn.startsWith("repay");
  if (entering) f.transfers = [{ ...af, to: tx.to, from: sender, kind: `aave.${fn}`, intoProtocol: true }];
  if (party) {
    f.recipients = [party];
    if (sender && party !== sender) w.push(`${fn} ${entering ? "on behalf of" : "to"} ${party}, not the sender ${sender}`);
  }
  f.notionalUsd = af.usd;
  f.details = { pool: known ?? null, onBehalfOfOrTo: party, interestRateMode: fn.startsWith("borrow") || fn.startsWith("repay") ? String(a[2] ?? "") : undefined };
  if (!known) w.push(`Aave call to ${tx.to}, which is not a known Aave pool or gateway`);
  const verb: Record<string, string> = { supply: "Supply", deposit: "Deposit", depositETH: "Supply", withdraw: "Withdraw", withdrawETH: "Withdraw", borrow: "Borrow", borrowETH: "Borrow", repay: "Repay", repayETH: "Repay", repayWithATokens: "Repay with aTokens" };
  f.summary = `Aave ${verb[fn] ?? fn} ${all ? "ALL" : fmt(af.amount)} ${af.asset} (${fmtUsd(af.usd)})${party ? ` ${entering || fn.startsWith("borrow") ? "for" : "to"} ${party}` : ""}`;
  return withMeta(f, tx, w);
}

const matchesTx = (tx: EvmTx) => !!tx.selector && SELECTORS.has(tx.selector) && safeDecode(ABI, tx.data) !== null;

export const aave = makeEvmAdapter({ id: "aave", aliases: ["aavev3", "aavev2", "aavepool"], matchesTx, describeTx });
