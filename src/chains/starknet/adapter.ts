/**
 * The Starknet family behind the chain port: OpenZeppelin accounts with Stark keys, named transfers of
 * STRK/ETH/USDC/USDT, `starknet_calls` multicalls, simulation through starknet_simulateTransactions,
 * and deploy-on-first-use (the first transaction of a wallet is sent as DEPLOY_ACCOUNT then INVOKE,
 * both signed together under the wallet lock, so the nonce and hash are known before anything is sent).
 */
import { formatUnits } from "../../lib/money";
import { ChainInputError, ChainUnavailableError, type ChainAdapter, type Prepared, type WalletRef } from "../port";
import type { BalanceEntry, ChainInfo, TransactionState } from "../types";
import { starknetAssets, STARKNET_TOKEN_INFOS, type StarknetPrices } from "./assets";
import { starknetAddressCodec } from "./codec";
import { CAIP2_MAIN, STRK_ADDRESS, VOYAGER, toFeltHexSel } from "./constants";
import { accountAddressFor, type StarkCustodySigner } from "./custody";
import { toFeltHex } from "./felt";
import { callsPlan, executeCalldata, starknetRequestHash, transferPlan, type StarknetPayload } from "./plan";
import { orNullOn, StarknetRpcError, starknetRpc, unavailable, type StarknetRpc } from "./rpc-client";
import { simulateStarknet } from "./simulate";
import { Strk20Error } from "./strk20/errors";
import { checkExpiry } from "./strk20/private-actions";
import { boundsFrom, deployHash, deployTx, invokeHash, invokeTx, maxFeeOf, ZERO_BOUNDS, type Bounds, type DeployTxObject, type FeeEstimate, type InvokeTxObject } from "./txs";

export interface StarknetAdapterOptions {
  rpcUrl: string;
  custody: StarkCustodySigner;
  prices: StarknetPrices;
  sandbox: boolean;
  /** The wallet's stored keyRef (for its public key, before the account is deployed); null if unknown. */
  keyRefOf(walletId: string): Promise<string | null>;
  /** Sandbox explorer base (e.g. https://host/sandbox/explorer/starknet); production uses Voyager. */
  sandboxExplorerUrl?: string;
  rpcTimeoutMs?: number;
  /** The STRK20 pool a `starknet_calls` proof may be for (apply_actions); null when private actions are off. */
  strk20Pool?: string | null;
  pollMs?: number;
  now?: () => Date;
}

interface PreparedStarknet {
  wallet: WalletRef;
  payload: StarknetPayload;
  chainId: string;
  nonce: string;
  deploy: { publicKey: string; bounds: Bounds } | null;
  bounds: Bounds;
}

interface SignedBundle {
  deploy: DeployTxObject | null;
  invoke: InvokeTxObject;
}

const KINDS = ["transfer", "starknet_calls"] as const;
/** Below this STRK balance, planning checks the transaction's fee estimate against it (1 STRK). */
const LOW_STRK = 10n ** 18n;

export function createStarknetAdapter(o: StarknetAdapterOptions): ChainAdapter<StarknetPayload> & { rpc: StarknetRpc } {
  const rpc = starknetRpc(o.rpcUrl, o.rpcTimeoutMs);
  const assets = starknetAssets(o.prices);
  const now = o.now ?? (() => new Date());
  const pollMs = o.pollMs ?? 250;
  const info: ChainInfo = { key: "starknet", family: "starknet", caip2: CAIP2_MAIN, names: ["starknet", "sn_main"], name: "Starknet", sandbox: o.sandbox };
  let chainId: string | null = null;
  /**
   * STRK20 proofs of proposals in flight, by their facts, in memory only (SPEC 4.9: never stored). A proposal
   * confirmed after the proof left (another process, a restart, expiry) is refused for a fresh proof.
   */
  const proofs = new Map<string, { data: string; until: number }>();
  const factsKey = (facts: readonly string[]) => facts.join(",");
  const heldProof = (facts: readonly string[]) => {
    const p = proofs.get(factsKey(facts));
    if (!p || p.until < Date.now()) return null;
    return p.data;
  };
  const FRESH_PROOF = "this STRK20 private action needs a fresh proof: the proof sent with the proposal is not stored and proofs expire in about five minutes. Sign and prove again (strk20_sign_proof_invocation) and propose it again with the new proof";
  const expiryProblem = async (facts: readonly string[]): Promise<string | null> => {
    try {
      await checkExpiry(rpc, o.strk20Pool!, facts.map((x) => BigInt(x)), () => now().getTime(), (e) => {
        throw e;
      });
      return null;
    } catch (e) {
      if (e instanceof Strk20Error) return e.message;
      return unavailable(e, "Starknet (STRK20 proof expiry)");
    }
  };

  const getChainId = async () => (chainId ??= await rpc.call<string>("starknet_chainId", {}));
  /** The account's nonce, or null when its contract is not deployed. */
  const nonceOf = (address: string) => orNullOn([20], () => rpc.call<string>("starknet_getNonce", { block_id: "latest", contract_address: address })).then((n) => (n === null ? null : BigInt(n)));
  const balanceOf = async (token: string, owner: string): Promise<bigint> => {
    const [low, high] = await rpc.call<string[]>("starknet_call", { request: { contract_address: token, entry_point_selector: toFeltHexSel("balance_of"), calldata: [owner] }, block_id: "latest" });
    return BigInt(low ?? "0x0") + (BigInt(high ?? "0x0") << 128n);
  };
  /**
   * The fee bounds of the wallet's next submission (the deployment first when the account is not deployed), from
   * `starknet_estimateFee`: the most it can cost in STRK. `fails` when the node says the transaction would fail.
   */
  const estimate = async (
    wallet: WalletRef,
    payload: StarknetPayload,
    retries = 0,
  ): Promise<{ fails: string } | { nonce: bigint | null; publicKey: string | null; bounds: Bounds; deployBounds: Bounds | null; need: bigint } | { noKey: true }> => {
    const nonce = await nonceOf(wallet.address);
    let publicKey: string | null = null;
    const txs: unknown[] = [];
    if (nonce === null) {
      publicKey = await publicKeyFor(wallet);
      if (!publicKey) return { noKey: true };
      txs.push(deployTx({ publicKey, bounds: ZERO_BOUNDS, query: true }));
    }
    txs.push(invokeTx({ sender: wallet.address, calldata: executeCalldata(payload), nonce: nonce ?? 1n, bounds: ZERO_BOUNDS, query: true, proofFacts: payload.proofFacts }));
    let estimates: FeeEstimate[];
    try {
      estimates = await rpc.call<FeeEstimate[]>("starknet_estimateFee", { request: txs, simulation_flags: ["SKIP_VALIDATE"], block_id: "latest" });
    } catch (e) {
      // The nonce read went stale before the estimate: another proposal's deployment or transaction of this account
      // landed in between ("unavailable for deployment", "Invalid transaction nonce"). That says nothing about this
      // transaction, so read the nonce again (a few times: under load several may land in a row).
      if (e instanceof StarknetRpcError && retries < 3 && staleNonce(e)) return estimate(wallet, payload, retries + 1);
      if (e instanceof StarknetRpcError) return { fails: e.detail };
      throw e;
    }
    const bounds = boundsFrom(estimates[estimates.length - 1]!);
    const deployBounds = publicKey ? boundsFrom(estimates[0]!) : null;
    return { nonce, publicKey, bounds, deployBounds, need: maxFeeOf(bounds) + (deployBounds ? maxFeeOf(deployBounds) : 0n) };
  };
  const staleNonce = (e: StarknetRpcError): boolean => e.code === 52 || /unavailable for deployment|invalid transaction nonce/i.test(e.detail);
  const publicKeyFor = async (wallet: WalletRef): Promise<string | null> => {
    const ref = await o.keyRefOf(wallet.id);
    if (!ref) return null;
    const pub = o.custody.publicKeyOf(ref);
    return accountAddressFor(BigInt(pub)) === wallet.address ? pub : null;
  };

  const adapter: ChainAdapter<StarknetPayload> & { rpc: StarknetRpc } = {
    rpc,
    info,
    keyFamily: "stark",
    address: starknetAddressCodec,
    assets,
    custody: o.custody,
    inputKinds: KINDS,
    receiptTimeoutMs: 15_000,

    checkInputChain(input) {
      const named = input.chain?.trim().toLowerCase();
      const caip2 = input.caip2?.trim();
      if ((named !== undefined && !info.names.includes(named)) || (caip2 !== undefined && caip2 !== info.caip2)) {
        throw new ChainInputError(`wrong chain: this wallet is on starknet (${info.caip2}); the input names ${named ?? caip2}`);
      }
      if (input.kind === "x402_payment") throw new ChainInputError("x402 payments are for EVM wallets; a Starknet wallet cannot pay this way");
      if (!(KINDS as readonly string[]).includes(input.kind)) throw new ChainInputError(`wrong chain: ${input.kind} cannot run on a Starknet wallet (use transfer or starknet_calls)`);
    },

    requestHashOf: starknetRequestHash,

    buildTransfer: (wallet, t) => transferPlan(wallet, t),

    async plan(wallet, input) {
      const full = input.kind === "transfer" ? transferPlan(wallet, input.transfer as { asset: string; amount: string; to: string }) : callsPlan(wallet, input, { pool: o.strk20Pool ?? null });
      const { proofData, ...planned } = full as typeof full & { proofData?: string };
      if (proofData !== undefined && planned.payload.proofFacts) {
        const expired = await expiryProblem(planned.payload.proofFacts);
        if (expired) throw new ChainInputError(expired);
        if (proofs.size >= 256) proofs.delete(proofs.keys().next().value!);
        proofs.set(factsKey(planned.payload.proofFacts), { data: proofData, until: Date.now() + 10 * 60_000 });
      }
      // Refuse what cannot run before any judge does: a target the chain does not know, a wallet with no STRK for its fee.
      try {
        for (const to of new Set(planned.payload.calls.map((c) => c.to))) {
          const cls = await orNullOn([20], () => rpc.call<string>("starknet_getClassHashAt", { block_id: "latest", contract_address: to }));
          if (cls === null) throw new ChainInputError(`contract ${to} is not deployed on Starknet (${info.sandbox ? "the sandbox node knows only STRK, ETH, USDC, USDT and accounts" : "check the address"})`);
        }
        const strk = await balanceOf(STRK_ADDRESS, wallet.address);
        if (strk === 0n) {
          throw new ChainInputError("the wallet holds no STRK to pay the Starknet fee: fund it with STRK first (the account is deployed from it on first use)");
        }
        // Too little STRK for this transaction's fee is refused here too, before any judge runs (and charges). The
        // estimate costs a node call and a hash, so it is made only when the balance is low: above LOW_STRK no
        // transaction this service builds comes near its fee.
        if (strk < LOW_STRK) {
          const est = await estimate(wallet, planned.payload);
          if ("need" in est && strk < est.need) {
            throw new ChainInputError(`the wallet holds ${formatUnits(strk, 18)} STRK; this transaction's fee needs up to ${formatUnits(est.need, 18)} STRK: fund it with more STRK first`);
          }
        }
      } catch (e) {
        if (e instanceof ChainInputError) throw e;
        unavailable(e, "Starknet");
      }
      return planned;
    },

    async simulate(wallet, payload, opts) {
      try {
        const nonce = await nonceOf(wallet.address);
        return await simulateStarknet({ rpc, assets, caip2: info.caip2, wallet: wallet.address, payload, nonce, publicKey: nonce === null ? await publicKeyFor(wallet) : null, declared: opts?.declared ?? [], now });
      } catch (e) {
        return simulateStarknet({ rpc: { url: rpc.url, call: () => Promise.reject(e) }, assets, caip2: info.caip2, wallet: wallet.address, payload, nonce: 0n, publicKey: null, declared: opts?.declared ?? [], now });
      }
    },

    fees: () => ({
      asset: "STRK",
      note: "Fees are paid in STRK from the wallet. The account contract is deployed by the service with the wallet's first transaction, once the address holds STRK for the fee (a few thousandths of a STRK).",
    }),

    async prepare(wallet, payload): Promise<Prepared> {
      try {
        if (payload.proofFacts) {
          if (!heldProof(payload.proofFacts)) return { ok: false, reason: FRESH_PROOF };
          const expired = await expiryProblem(payload.proofFacts);
          if (expired) return { ok: false, reason: `${expired}; ${FRESH_PROOF}` };
        }
        const id = await getChainId();
        const est = await estimate(wallet, payload);
        if ("noKey" in est) return { ok: false, reason: "the wallet's account is not deployed and its key is not held here" };
        if ("fails" in est) return { ok: false, reason: `the transaction would fail now: ${est.fails}` };
        const { nonce, publicKey, bounds, deployBounds, need } = est;
        const deploy = publicKey && deployBounds ? { publicKey, bounds: deployBounds } : null;
        const have = await balanceOf(STRK_ADDRESS, wallet.address);
        if (have < need) return { ok: false, reason: `the wallet holds ${formatUnits(have, 18)} STRK; the fee needs up to ${formatUnits(need, 18)} STRK` };
        const prepared: PreparedStarknet = { wallet, payload, chainId: id, nonce: toFeltHex(nonce ?? 1n), deploy, bounds };
        return { ok: true, prepared };
      } catch (e) {
        return unavailable(e, "Starknet prepare");
      }
    },

    async sign(prepared, ctx) {
      const p = prepared as PreparedStarknet;
      const handle = ctx.handle;
      let deploy: DeployTxObject | null = null;
      if (p.deploy) {
        const unsigned = deployTx({ publicKey: p.deploy.publicKey, bounds: p.deploy.bounds });
        deploy = { ...unsigned, signature: await o.custody.signTxHash(handle, deployHash(unsigned, p.wallet.address, p.chainId)) };
      }
      // Never reuse a nonce this service already signed with (the core's counter), even if the chain lags.
      const nonce = BigInt(Math.max(Number(BigInt(p.nonce)), ctx.nextSequence ?? 0));
      const unsigned = invokeTx({ sender: p.wallet.address, calldata: executeCalldata(p.payload), nonce, bounds: p.bounds, proofFacts: p.payload.proofFacts });
      const h = invokeHash(unsigned, p.chainId);
      const invoke = { ...unsigned, signature: await o.custody.signTxHash(handle, h) };
      const bundle: SignedBundle = { deploy, invoke };
      // The deployment takes nonce 0 and the first INVOKE nonce 1. A deployment bundled with a later nonce (another
      // proposal signed the first one and has not landed yet) is sent only if the account is still undeployed;
      // this transaction's own sequence is then just its INVOKE nonce.
      const first = deploy !== null && nonce === 1n;
      return { raw: JSON.stringify(bundle), hash: toFeltHex(h), sequence: first ? 0 : Number(nonce), sequenceUsed: first ? 2 : 1 };
    },

    async broadcast(signed) {
      const bundle = JSON.parse(signed.raw) as SignedBundle;
      try {
        if (bundle.deploy) {
          const deployed = await nonceOf(bundle.invoke.sender_address);
          if (deployed === null) {
            try {
              await rpc.call("starknet_addDeployAccountTransaction", { deploy_account_transaction: bundle.deploy });
            } catch (e) {
              if (!(e instanceof StarknetRpcError)) throw e;
              if (e.code !== 59 && !(e.code === 55 && /unavailable for deployment/.test(e.detail))) return { kind: "rejected", reason: `account deployment refused: ${e.code} ${e.message}: ${e.detail}` };
            }
          }
        }
        // The stored bundle has the proof facts (hashed) but never the proof: it is added from memory here.
        let invoke: Record<string, unknown> = bundle.invoke;
        if (bundle.invoke.proof_facts) {
          const proof = heldProof(bundle.invoke.proof_facts);
          if (!proof) return { kind: "rejected", reason: FRESH_PROOF };
          invoke = { ...bundle.invoke, proof };
        }
        await rpc.call("starknet_addInvokeTransaction", { invoke_transaction: invoke });
        return { kind: "sent" };
      } catch (e) {
        if (e instanceof StarknetRpcError) {
          // Already sent (duplicate) or nonce spent: the lookup decides whether it was ours.
          if (e.code === 59 || e.code === 52) return { kind: "sent" };
          return { kind: "rejected", reason: `${e.code} ${e.message}: ${e.detail}` };
        }
        return { kind: "unknown", reason: (e as Error).message };
      }
    },

    async waitForFinal(hash, timeoutMs) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        try {
          const st = await receiptState(rpc, hash);
          if (st) return st;
        } catch {
          // unreachable for now: keep polling until the deadline
        }
        if (Date.now() >= until) return null;
        await new Promise((r) => setTimeout(r, Math.min(pollMs, Math.max(0, until - Date.now()))));
      }
    },

    async lookup(record) {
      try {
        const st = await receiptState(rpc, record.hash);
        if (st) return st;
        const bundle = JSON.parse(record.raw) as SignedBundle;
        const ours = BigInt(bundle.invoke.nonce);
        const current = await nonceOf(record.address);
        if (current !== null && current > ours) return { state: "dropped", reason: `the account's nonce is ${current}, past ${ours}, with no receipt for this transaction` };
        return { state: "not_found" };
      } catch (e) {
        if (e instanceof ChainUnavailableError) throw e;
        return unavailable(e, "Starknet lookup");
      }
    },

    async balances(address) {
      try {
        const out: BalanceEntry[] = [];
        for (const t of STARKNET_TOKEN_INFOS) {
          const amount = await balanceOf(t.address, address);
          if (amount === 0n && t.address !== STRK_ADDRESS) continue;
          const whole = formatUnits(amount, t.decimals);
          const p = amount === 0n ? 0 : await assets.usd(t.address);
          out.push({ symbol: t.symbol, name: t.name, logoUrl: null, tokenAddress: t.address, amount: amount.toString(), amountFormatted: whole, decimals: t.decimals, usdValue: p === null ? null : Math.round(Number(whole) * p * 1e6) / 1e6, caip2: info.caip2 });
        }
        return out;
      } catch (e) {
        return unavailable(e, "Starknet balances");
      }
    },

    explorerTxUrl: (hash) => (o.sandbox ? (o.sandboxExplorerUrl ? `${o.sandboxExplorerUrl}/tx/${hash}` : null) : VOYAGER.tx(hash)),
    explorerAddressUrl: (address) => (o.sandbox ? (o.sandboxExplorerUrl ? `${o.sandboxExplorerUrl}/address/${address}` : null) : VOYAGER.contract(address)),
  };
  return adapter;
}

async function receiptState(rpc: StarknetRpc, hash: string): Promise<TransactionState | null> {
  const r = await orNullOn([29], () => rpc.call<{ execution_status: string; revert_reason?: string; finality_status: string }>("starknet_getTransactionReceipt", { transaction_hash: hash }));
  if (!r) return null;
  if (r.finality_status !== "ACCEPTED_ON_L2" && r.finality_status !== "ACCEPTED_ON_L1") return { state: "pending" };
  return r.execution_status === "REVERTED" ? { state: "reverted", reason: r.revert_reason ?? "reverted" } : { state: "succeeded" };
}
