/**
 * STRK20 private actions for Starknet wallets (SPEC 4.12; docs/strk20.md): the relay's status, the
 * relayer's fee quote, signing and proving a proof invocation, the viewing-key signature and relaying a
 * proven `apply_actions`. Custody rules (research/starknet.md §6) live here, before anything is signed:
 * the calldata is decoded and must be the wallet's; external invokes are refused; the wallet's token and
 * recipient allow-lists apply to every action that moves value; fee quotes above the ceiling or to a
 * recipient off the allow-list are refused; a proof is checked for shape and expiry and never relayed twice.
 * `outflows` reports, priced, what a signing would move out of the wallet, for the wallet's USD limits
 * (applied by the caller, src/strk20/service.ts, with the escrow core's limit check).
 */
import { formatUnits } from "../../../lib/money";
import type { KeyHandle } from "../../custody";
import type { AssetRegistry } from "../../port";
import type { AssetChange, RawChange } from "../../types";
import { priceChanges } from "../simulate";
import { STARKNET_TOKENS, STRK_ADDRESS, tokenByAddress, tokenBySymbol } from "../constants";
import type { StarkCustodySigner } from "../custody";
import { FeltError, normaliseAddress, toFeltHex } from "../felt";
import { orNullOn, StarknetRpcError, starknetRpc, type StarknetRpc } from "../rpc-client";
import { selector } from "../constants";
import { ActionsError, decodeCompileCalldata, type ClientAction } from "./actions";
import { Strk20Error } from "./errors";
import { proofInvocation, proofInvocationHash, SEL_APPLY_ACTIONS } from "./invocation";
import { createPaymasterClient, type PaymasterClient, type Quote } from "./paymaster-client";
import { checkProofShape, parseProofFacts, PROOF_TTL_MS, ProofShapeError } from "./proof-facts";
import { createProverClient, type ProverClient } from "./prover-client";
import type { Strk20Settings } from "./settings";
import { viewingKeyMessage } from "./viewing-key";

export interface Strk20Wallet {
  handle: KeyHandle;
  /** The wallet's limits as stored (allow-lists in canonical form). */
  tokenAllowlist?: readonly string[];
  recipientAllowlist?: readonly string[];
}

export interface RelayStatus {
  configured: boolean;
  keyConfigured: boolean;
  relayReachable: boolean;
  keyAccepted: boolean;
  pool: string | null;
  reason: string | null;
}

export interface FeeQuote {
  feeToken: string;
  feeTokenSymbol: string;
  feeAction: { type: "withdraw"; token: string; amount: string; amountFormatted: string; recipient: string };
  /** The client action to add before proving, as compile_actions felts: Withdraw = variant 7, then to, token, amount, random (a non-zero felt of your choice). */
  clientAction: { variant: 7; toAddr: string; token: string; amount: string };
  ceiling: string;
}

export interface SignedProof {
  pool: string;
  /** The apply_actions calldata: the proven server actions, then None for the screening attestation. */
  calldata: string[];
  call: { contractAddress: string; entrypoint: "apply_actions"; calldata: string[] };
  signature: [string, string];
  proof: { facts: string[]; data: string; baseBlock: number; expiresAt: string };
}

const refused = (m: string) => new Strk20Error("refused", m);

export interface Strk20Module {
  readonly settings: Strk20Settings;
  relayStatus(): Promise<RelayStatus>;
  poolFee(feeToken?: string): Promise<FeeQuote>;
  /**
   * The custody rules on the calldata (as signProofInvocation applies them), then what its actions move out
   * of the wallet, priced: notes to and withdrawals to anyone else, the relayer's fee included. An open
   * note to someone else carries no amount here (whoever fills it sets it): it is reported unpriced.
   */
  outflows(w: Strk20Wallet, compileActionsCalldata: readonly unknown[]): Promise<AssetChange[]>;
  signProofInvocation(w: Strk20Wallet, compileActionsCalldata: readonly unknown[]): Promise<SignedProof>;
  viewingKeySignature(w: Strk20Wallet): Promise<{ pool: string; message: string; signature: [string, string] }>;
  relay(a: { call: { contractAddress: unknown; entrypoint: unknown; calldata: unknown }; proof: unknown; proofFacts: unknown; feeToken?: string }): Promise<{ txHash: string; trackingId: string; pool: string; feeToken: string; fee: string }>;
}

export function resolveFeeToken(t: string | undefined): string {
  if (t === undefined || t.trim() === "") return STRK_ADDRESS;
  const sym = tokenBySymbol(t);
  if (sym) return sym.address;
  try {
    const a = normaliseAddress(t.trim(), "feeToken");
    if (!tokenByAddress(a)) throw refused(`feeToken ${a} is not one of STRK, ETH, USDC, USDT`);
    return a;
  } catch (e) {
    if (e instanceof FeltError) throw refused(e.message);
    throw e;
  }
}

export function createStrk20(
  settings: Strk20Settings,
  o: { rpcUrl: string; custody: StarkCustodySigner; assets: AssetRegistry; now?: () => number; rpc?: StarknetRpc; clientOptions?: { timeoutMs?: number; backoffMs?: number } },
): Strk20Module {
  const rpc = o.rpc ?? starknetRpc(o.rpcUrl);
  const now = o.now ?? Date.now;
  const prover: ProverClient = createProverClient(settings.proverUrl, o.clientOptions);
  const paymaster: PaymasterClient | null = settings.paymasterUrl ? createPaymasterClient(settings.paymasterUrl, settings.apiKey, o.clientOptions) : null;
  /** Proofs this process relayed (by their facts), so the same proof is never sent twice. */
  const relayed = new Map<string, { txHash: string; trackingId: string }>();
  let chainId: bigint | null = null;
  const chain = async () => (chainId ??= BigInt(await rpc.call<string>("starknet_chainId", {})));

  const needPaymaster = (): PaymasterClient => {
    if (!paymaster) throw new Strk20Error("unconfigured", "no paymaster is configured on this deployment (STRK20_PAYMASTER_URL)");
    if (!settings.apiKey) throw new Strk20Error("unconfigured", "no paymaster API key is configured on this deployment (STRK20_PAYMASTER_API_KEY)");
    return paymaster;
  };
  const checkQuote = (q: Quote, feeToken: string) => {
    if (q.feeAction.token !== feeToken) throw refused(`the relayer quoted its fee in ${q.feeAction.token}, not the fee token asked for (${feeToken})`);
    if (!settings.feeRecipients.includes(q.feeAction.recipient)) throw refused(`the relayer's fee recipient ${q.feeAction.recipient} is not on this deployment's allow-list (STRK20_FEE_RECIPIENTS)`);
    const ceiling = settings.maxFee.get(feeToken);
    if (ceiling === undefined) throw refused(`no fee ceiling is configured for ${tokenByAddress(feeToken)?.symbol ?? feeToken} (STRK20_MAX_RELAY_FEE): the relayer cannot be paid in it`);
    if (q.feeAction.amount > ceiling) throw refused(`the relayer's fee ${fmt(feeToken, q.feeAction.amount)} is above this deployment's ceiling ${fmt(feeToken, ceiling)}`);
  };
  const quote = async (feeToken: string) => {
    const q = await needPaymaster().quote(settings.pool, feeToken);
    checkQuote(q, feeToken);
    return q;
  };
  const rpcFail = (e: unknown, what: string): never => {
    if (e instanceof Strk20Error) throw e;
    throw new Strk20Error("unavailable", `the Starknet node could not ${what} (${e instanceof StarknetRpcError ? `${e.code} ${e.message}` : (e as Error).message})`);
  };

  return {
    settings,
    async relayStatus() {
      const base = { configured: true, pool: settings.pool, keyConfigured: Boolean(settings.apiKey), relayReachable: false, keyAccepted: false, reason: null as string | null };
      if (!paymaster) return { ...base, reason: "no paymaster is configured (STRK20_PAYMASTER_URL)" };
      try {
        base.relayReachable = await paymaster.isAvailable();
        if (!base.relayReachable) return { ...base, reason: "the paymaster says it is not available" };
      } catch (e) {
        return { ...base, reason: (e as Error).message };
      }
      if (!settings.apiKey) return { ...base, reason: "no paymaster API key is configured (STRK20_PAYMASTER_API_KEY)" };
      try {
        // isAvailable may not look at the key (unconfirmed for AVNU): a quote does.
        await paymaster.quote(settings.pool, STRK_ADDRESS);
        return { ...base, keyAccepted: true };
      } catch (e) {
        return { ...base, reason: (e as Error).message };
      }
    },

    async poolFee(feeTokenIn) {
      const feeToken = resolveFeeToken(feeTokenIn);
      const q = await quote(feeToken);
      const f = q.feeAction;
      return {
        feeToken,
        feeTokenSymbol: tokenByAddress(feeToken)?.symbol ?? feeToken,
        feeAction: { type: "withdraw", token: f.token, amount: f.amount.toString(), amountFormatted: fmtNum(f.token, f.amount), recipient: f.recipient },
        clientAction: { variant: 7, toAddr: f.recipient, token: f.token, amount: toFeltHex(f.amount) },
        ceiling: fmt(feeToken, settings.maxFee.get(feeToken)!),
      };
    },

    async outflows(w, raw) {
      const call = vetted(w, raw, settings);
      const self = w.handle.address;
      const out: RawChange[] = [];
      const open: AssetChange[] = [];
      for (const a of call.actions) {
        if (a.type === "Withdraw" && a.to !== self) out.push({ direction: "out", assetType: "erc20", changeType: "transfer", token: a.token, rawAmount: a.amount, counterparty: a.to, unlimited: false });
        if (a.type === "CreateEncNote" && a.recipient !== self) out.push({ direction: "out", assetType: "erc20", changeType: "transfer", token: a.token, rawAmount: a.amount, counterparty: a.recipient, unlimited: false });
        if (a.type === "CreateOpenNote" && a.recipient !== self) {
          const [priced] = await priceChanges(o.assets, [{ direction: "out", assetType: "erc20", changeType: "transfer", token: a.token, rawAmount: 0n, counterparty: a.recipient, unlimited: false }]);
          open.push({ ...priced!, amount: "unknown (an open note)", usdValue: null });
        }
      }
      return [...(await priceChanges(o.assets, out)), ...open];
    },

    async signProofInvocation(w, raw) {
      vetted(w, raw, settings);
      const id = await chain();
      let head: number;
      let nonce: bigint;
      try {
        const deployed = await orNullOn([20], () => rpc.call<string>("starknet_getClassHashAt", { block_id: "latest", contract_address: w.handle.address }));
        if (deployed === null) throw refused("the wallet's account is not deployed yet: the pool checks the signature through it at the proving block. Send one ordinary transaction first (it deploys the account), then wait for it to settle");
        head = await rpc.call<number>("starknet_blockNumber", {});
        nonce = BigInt((await orNullOn([20], () => rpc.call<string>("starknet_getNonce", { block_id: "latest", contract_address: settings.pool }))) ?? "0x0");
      } catch (e) {
        return rpcFail(e, "read the wallet's account and the pool");
      }
      const calldata = raw.map((x) => toFeltHex(BigInt(String(x).trim())));
      const tx = proofInvocation(settings.pool, calldata, nonce);
      const signature = await o.custody.signTxHash(w.handle, proofInvocationHash(tx, id));
      const block = Math.max(0, head - settings.provingLagBlocks);
      const proven = await prover.prove(block, { ...tx, signature }, settings.pool);
      const applyCalldata = [...proven.poolMessage.slice(1).map((x) => toFeltHex(BigInt(x))), "0x1"];
      return {
        pool: settings.pool,
        calldata: applyCalldata,
        call: { contractAddress: settings.pool, entrypoint: "apply_actions" as const, calldata: applyCalldata },
        signature,
        proof: { facts: proven.proofFacts.map((x) => toFeltHex(BigInt(x))), data: proven.proof, baseBlock: block, expiresAt: new Date(now() + PROOF_TTL_MS).toISOString() },
      };
    },

    async viewingKeySignature(w) {
      const id = await chain();
      const signature = await o.custody.signViewingKeyDerivation(w.handle, id, settings.pool);
      return { pool: settings.pool, message: viewingKeyMessage(id, settings.pool), signature };
    },

    async relay(a) {
      const pm = needPaymaster();
      const c = (a.call ?? {}) as { contractAddress?: unknown; entrypoint?: unknown; calldata?: unknown };
      let to: string;
      try {
        to = normaliseAddress(typeof c.contractAddress === "string" ? c.contractAddress.trim() : c.contractAddress, "call.contractAddress");
      } catch (e) {
        throw refused((e as Error).message);
      }
      if (to !== settings.pool) throw refused(`call.contractAddress must be this deployment's privacy pool ${settings.pool}`);
      if (c.entrypoint !== "apply_actions") throw refused("call.entrypoint must be apply_actions (only a proven apply_actions is relayed)");
      if (!Array.isArray(c.calldata) || c.calldata.length === 0 || c.calldata.length > 4096) throw refused("call.calldata must be 1 to 4096 felts");
      let calldata: string[];
      try {
        calldata = c.calldata.map((x, i) => {
          if (typeof x !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(x)) throw new Error(`call.calldata[${i}] must be a 0x-hex felt`);
          return toFeltHex(BigInt(x));
        });
      } catch (e) {
        throw refused((e as Error).message);
      }
      let proof: { facts: bigint[]; data: string };
      try {
        proof = checkProofShape({ facts: a.proofFacts, data: a.proof }, "proof");
      } catch (e) {
        if (e instanceof ProofShapeError) throw refused(e.message.replace("proof.facts", "proofFacts").replace("proof.data", "proof"));
        throw e;
      }
      const key = proof.facts.map(toFeltHex).join(",");
      const before = relayed.get(key);
      if (before) throw refused(`this proof was already relayed (txHash ${before.txHash}, trackingId ${before.trackingId}); it is never sent twice. Track that transaction, or sign and prove again for a new attempt`);
      await checkExpiry(rpc, settings.pool, proof.facts, now, rpcFail);
      const feeToken = resolveFeeToken(a.feeToken);
      const q = await quote(feeToken);
      const out = await pm.execute({ pool: settings.pool, call: { to, selector: toFeltHex(SEL_APPLY_ACTIONS), calldata }, proof: proof.data, proofFacts: proof.facts.map(toFeltHex), parameters: q.parameters });
      relayed.set(key, out);
      if (relayed.size > 10_000) relayed.delete(relayed.keys().next().value!);
      return { ...out, pool: settings.pool, feeToken, fee: fmt(feeToken, q.feeAction.amount) };
    },
  };
}

const fmtNum = (token: string, amount: bigint) => formatUnits(amount, tokenByAddress(token)?.decimals ?? 18);
const fmt = (token: string, amount: bigint) => `${fmtNum(token, amount)} ${tokenByAddress(token)?.symbol ?? token}`;

/** The calldata decoded, the wallet's own, and its actions within the custody rules; refused otherwise. */
function vetted(w: Strk20Wallet, raw: readonly unknown[], s: Strk20Settings) {
  let call;
  try {
    call = decodeCompileCalldata(raw);
  } catch (e) {
    if (e instanceof ActionsError) throw refused(e.message);
    throw e;
  }
  if (call.user !== w.handle.address) throw refused(`compileActionsCalldata[0] must be the wallet's address ${w.handle.address}; it is ${call.user}`);
  checkActions(w, call.actions, s);
  return call;
}

/** The custody rules on decoded client actions (research/starknet.md §6, item 2). */
function checkActions(w: Strk20Wallet, actions: ClientAction[], s: Strk20Settings): void {
  const self = w.handle.address;
  const tokens = w.tokenAllowlist;
  const recipients = w.recipientAllowlist;
  for (const [k, a] of actions.entries()) {
    if (a.type === "InvokeExternal" || a.type === "ComputeAndInvoke") throw refused(`action ${k} (${a.type}) would make the pool call another contract; this service does not sign that on the ungated path`);
    if ("token" in a && tokens && !tokens.includes(a.token)) throw refused(`action ${k} (${a.type}) uses token ${a.token}, which is not on the wallet's token allow-list`);
    if (a.type === "Withdraw") {
      const isFee = s.feeRecipients.includes(a.to);
      if (isFee) {
        const ceiling = s.maxFee.get(a.token);
        if (ceiling === undefined || a.amount > ceiling) throw refused(`action ${k} pays the relayer ${a.amount} base units of ${a.token}, above this deployment's fee ceiling`);
      } else if (a.to !== self && recipients && !recipients.includes(a.to)) {
        throw refused(`action ${k} withdraws to ${a.to}, which is not on the wallet's recipient allow-list`);
      }
    }
    if ((a.type === "CreateEncNote" || a.type === "CreateOpenNote" || a.type === "OpenChannel" || a.type === "OpenSubchannel") && a.recipient !== self && recipients && !recipients.includes(a.recipient)) {
      throw refused(`action ${k} (${a.type}) sends to ${a.recipient}, which is not on the wallet's recipient allow-list`);
    }
  }
}

/**
 * A proof is expired when the pool would refuse it (the next block is past base + proof_validity_blocks)
 * or five minutes after its base block (SPEC 8), whichever comes first.
 */
export async function checkExpiry(rpc: StarknetRpc, pool: string, facts: bigint[], now: () => number, fail: (e: unknown, what: string) => never): Promise<void> {
  const f = parseProofFacts(facts);
  if (!f) throw refused("the proof facts are not STRK20 proof facts (9 felts: PROOF0, VIRTUAL_SNOS, program hash, VIRTUAL_SNOS0, base block number and hash, OS config hash, 1, message hash)");
  let head: number;
  let validity: bigint;
  let baseTime: number;
  try {
    head = await rpc.call<number>("starknet_blockNumber", {});
    validity = BigInt((await rpc.call<string[]>("starknet_call", { request: { contract_address: pool, entry_point_selector: toFeltHex(selector("get_proof_validity_blocks")), calldata: [] }, block_id: "latest" }))[0] ?? "0x0");
    const b = await orNullOn([24], () => rpc.call<{ timestamp: number }>("starknet_getBlockWithTxHashes", { block_id: { block_number: Number(f.baseBlockNumber) } }));
    if (!b) throw refused(`the proof's base block ${f.baseBlockNumber} is not on this chain`);
    baseTime = b.timestamp * 1000;
  } catch (e) {
    return fail(e, "read the pool's validity window");
  }
  if (BigInt(head) + 1n > f.baseBlockNumber + validity) throw refused(`the proof expired: it was made against block ${f.baseBlockNumber} and the pool accepts proofs for ${validity} blocks (the chain is at ${head}). Sign and prove again`);
  if (now() > baseTime + PROOF_TTL_MS) throw refused(`the proof expired: proofs are used within about five minutes of their base block (block ${f.baseBlockNumber}). Sign and prove again`);
}

export const STRK20_TOKENS = STARKNET_TOKENS;
