/**
 * The sandbox's local paymaster: SNIP-29 method names with AVNU's private `apply_action` extension, the
 * protocol the production relayer speaks (research/starknet.md §1.9). It quotes its fee as a withdraw to its
 * forwarder, checks the API key (`x-paymaster-api-key`, 163 when wrong), the pool's whitelisting (156),
 * the fee withdraw inside the proven actions (165 missing, 167 below the quote), refuses a proof it already
 * relayed ("Tx already sent", 156), simulates, then sends `apply_actions` with the proof from its own
 * relayer account, which pays the gas and the pool fee.
 */
import { randomBytes } from "node:crypto";
import { safeEqual } from "../../../../lib/hashing";
import { ec } from "starknet";
import { STARKNET_TOKENS } from "../../constants";
import { parseFelt, toAddress, toFeltHex } from "../../felt";
import { SEL_APPLY_ACTIONS } from "../../strk20/invocation";
import { invokeV3Hash } from "../../tx-hash";
import { nonceKey } from "../contracts";
import { RpcError } from "../errors";
import { GAS_PRICES } from "../execute";
import type { SandboxNode } from "../node";
import { dispatch } from "../rpc";
import { serveJsonRpc, type LocalRpcServer } from "./http";
import { decodeServerActions, SANDBOX_FORWARDER, SANDBOX_POOL_ADDRESS } from "./model";

/** The sandbox relayer's fee per token (whole-unit amounts in base units). */
export const SANDBOX_RELAY_FEES: Record<string, bigint> = { STRK: 5n * 10n ** 17n, ETH: 2n * 10n ** 14n, USDC: 250_000n, USDT: 250_000n };

const err = (code: number, message: string) => new RpcError(code, message);

export interface SandboxPaymasterOptions {
  apiKey: string;
  host?: string;
  port?: number;
}

function feeFor(token: unknown): { token: string; amount: bigint } {
  let t: string;
  try {
    t = toAddress(parseFelt(token, "pool_fee_token"));
  } catch {
    throw err(-32602, "Invalid params: pool_fee_token must be a 0x-hex felt");
  }
  if (!/^0x/.test(String(token))) throw err(-32602, "Invalid params: felts must be 0x-hex");
  const known = STARKNET_TOKENS.find((x) => x.address === t);
  if (!known) throw err(151, "Token not supported");
  return { token: t, amount: SANDBOX_RELAY_FEES[known.symbol]! };
}

export function createSandboxPaymaster(node: SandboxNode, o: SandboxPaymasterOptions) {
  const seen = new Set<bigint>();
  const pool = BigInt(SANDBOX_POOL_ADDRESS);
  const relayer = node.strk20.relayer;
  const checkKey = (h: Record<string, string | string[] | undefined>) => {
    const given = h["x-paymaster-api-key"];
    if (typeof given !== "string" || !safeEqual(given, o.apiKey)) throw err(163, "An error occurred (x-paymaster-api-key is invalid)");
  };
  const feeMode = (params: unknown) => {
    const fm = ((params ?? {}) as { fee_mode?: { mode?: unknown; pool_fee_token?: unknown } }).fee_mode;
    if (!fm || fm.mode !== "sponsored_private") throw err(163, "An error occurred (fee_mode must be sponsored_private)");
    return feeFor(fm.pool_fee_token);
  };
  const methods = {
    paymaster_isAvailable: () => true,
    paymaster_buildTransaction: (params: unknown, h: Record<string, string | string[] | undefined>) => {
      checkKey(h);
      const p = (params ?? {}) as { transaction?: { type?: unknown; apply_action?: { pool_address?: unknown } }; parameters?: unknown };
      if (p.transaction?.type !== "apply_action") throw err(163, "An error occurred (transaction.type must be apply_action)");
      if (BigInt(String(p.transaction.apply_action?.pool_address ?? "0x0")) !== pool) throw err(156, "privacy pool address is not whitelisted");
      const fee = feeMode(p.parameters);
      return { fee_action: { type: "withdraw", recipient: SANDBOX_FORWARDER, token: fee.token, amount: toFeltHex(fee.amount) }, parameters: p.parameters };
    },
    paymaster_executeTransaction: (params: unknown, h: Record<string, string | string[] | undefined>) => {
      checkKey(h);
      const p = (params ?? {}) as { transaction?: { type?: unknown; apply_action?: { apply_actions_call?: { to?: unknown; selector?: unknown; calldata?: unknown }; proof?: unknown; proof_facts?: unknown } }; parameters?: unknown };
      if (p.transaction?.type !== "apply_action") throw err(163, "An error occurred (transaction.type must be apply_action)");
      const fee = feeMode(p.parameters);
      const aa = p.transaction.apply_action ?? {};
      const call = aa.apply_actions_call ?? {};
      let to: bigint, sel: bigint, cd: bigint[], facts: bigint[];
      try {
        to = parseFelt(call.to);
        sel = parseFelt(call.selector);
        cd = (call.calldata as unknown[]).map((x) => parseFelt(x));
        facts = (aa.proof_facts as unknown[]).map((x) => parseFelt(x));
      } catch {
        throw err(-32602, "Invalid params: apply_actions_call and proof_facts must be 0x-hex felts");
      }
      if (to !== pool) throw err(156, "privacy pool address is not whitelisted");
      if (sel !== SEL_APPLY_ACTIONS) throw err(156, "the call must be the pool's apply_actions");
      if (typeof aa.proof !== "string" || facts.length === 0) throw err(168, "proof and proof_facts are required");
      let actions;
      try {
        actions = decodeServerActions(cd).actions;
      } catch {
        throw err(156, "apply_actions calldata does not decode");
      }
      const paid = actions.filter((a) => a.type === "TransferTo" && toAddress(a.token) === fee.token && toAddress(a.to) === SANDBOX_FORWARDER);
      if (paid.length === 0) throw err(165, "Missing fee action: add the quoted withdraw to the forwarder before proving");
      const amount = paid.reduce((s, a) => s + (a as { amount: bigint }).amount, 0n);
      if (amount < fee.amount) throw err(167, `Fee below the quote (${amount} < ${fee.amount})`);
      const id = ec.starkCurve.poseidonHashMany(facts);
      if (seen.has(id)) throw err(156, "Tx already sent");
      const sender = BigInt(relayer.address);
      const calldata = [1n, pool, SEL_APPLY_ACTIONS, BigInt(cd.length), ...cd];
      const nonce = node.read(nonceKey(sender));
      const bounds = {
        l1_gas: { maxAmount: 0n, maxPricePerUnit: GAS_PRICES.l1_gas * 2n },
        l2_gas: { maxAmount: 50_000_000n, maxPricePerUnit: GAS_PRICES.l2_gas * 2n },
        l1_data_gas: { maxAmount: 100_000n, maxPricePerUnit: GAS_PRICES.l1_data_gas * 2n },
      };
      const hash = invokeV3Hash({ version: 3n, senderAddress: sender, tip: 0n, resourceBounds: bounds, paymasterData: [], chainId: node.chainId, nonce, nonceDaMode: 0n, feeDaMode: 0n, accountDeploymentData: [], calldata, proofFacts: facts });
      const sig = ec.starkCurve.sign(toFeltHex(hash), relayer.privateKey);
      const rb = (b: { maxAmount: bigint; maxPricePerUnit: bigint }) => ({ max_amount: toFeltHex(b.maxAmount), max_price_per_unit: toFeltHex(b.maxPricePerUnit) });
      const tx = {
        type: "INVOKE",
        version: "0x3",
        sender_address: toFeltHex(sender),
        calldata: calldata.map(toFeltHex),
        signature: [toFeltHex(sig.r), toFeltHex(sig.s)],
        nonce: toFeltHex(nonce),
        resource_bounds: { l1_gas: rb(bounds.l1_gas), l2_gas: rb(bounds.l2_gas), l1_data_gas: rb(bounds.l1_data_gas) },
        tip: "0x0",
        paymaster_data: [],
        account_deployment_data: [],
        nonce_data_availability_mode: "L1",
        fee_data_availability_mode: "L1",
        proof_facts: facts.map(toFeltHex),
        proof: aa.proof,
      };
      // Simulate first: a proof the pool would refuse (expired, wrong message) is not sent at the relayer's cost.
      const [sim] = dispatch(node, "starknet_simulateTransactions", { block_id: "latest", transactions: [tx], simulation_flags: [] }) as { transaction_trace: { execute_invocation?: { revert_reason?: string } } }[];
      const reverted = sim?.transaction_trace.execute_invocation?.revert_reason;
      if (reverted) throw err(156, `An error occurred (execution would revert: ${lastLine(reverted)})`);
      try {
        const out = dispatch(node, "starknet_addInvokeTransaction", { invoke_transaction: tx }) as { transaction_hash: string };
        seen.add(id);
        return { tracking_id: "0x" + randomBytes(16).toString("hex"), transaction_hash: out.transaction_hash };
      } catch (e) {
        if (e instanceof RpcError) throw err(e.code === 69 ? 168 : 156, `An error occurred (the node refused the transaction: ${e.code} ${e.message})`);
        throw e;
      }
    },
  };
  return {
    methods,
    start: (): Promise<LocalRpcServer> =>
      serveJsonRpc(methods as Record<string, (p: unknown, h: Record<string, string | string[] | undefined>) => unknown>, { host: o.host, port: o.port, banner: "Arbiter's sandbox STRK20 paymaster (SNIP-29 names, AVNU apply_action; JSON-RPC over POST)" }),
  };
}

function lastLine(reason: string): string {
  const m = /\('([^']+)'\)/.exec(reason);
  return m ? m[1]! : reason.split("\n").pop()!.slice(0, 200);
}
