/**
 * Executes one v3 transaction against layered state, as a sequencer would: recompute the hash, check the
 * nonce, check the fee bounds and the STRK balance for the maximal fee, validate the signature (OZ
 * `__validate__` / `__validate_deploy__`), run `__execute__` (or the account constructor) on a layer that
 * is discarded if any call panics, then charge the actual fee in STRK and bump the nonce either way.
 * Nothing here touches the committed state: the caller commits the returned layer or throws it away.
 */
import { toFeltHex } from "../felt";
import { OZ_ACCOUNT_CLASS_HASH, SEL, STRK_ADDRESS } from "../constants";
import { contractAddress, deployAccountV3Hash, invokeV3Hash } from "../tx-hash";
import { accountRecord, balanceKey, invoke, nonceKey, Panic, signatureValid, writeAccount, type ExecContext, type Invocation, type TxEnv } from "./contracts";
import { errors } from "./errors";
import { Layer, type Reader } from "./storage";
import { QUERY_V3, type DeployAccountTx, type ParsedTx } from "./transactions";

export const SEQUENCER_ADDRESS = 0x1176a1bd84444c89232ec27754698e5d2e7e1a7f1539f12027f28b23ec9f3d8n;
const STRK = BigInt(STRK_ADDRESS);

/** Constant gas prices (FRI per unit): the sandbox has no fee market. */
export const GAS_PRICES = { l1_gas: 25_000_000_000_000n, l1_data_gas: 1_000_000_000n, l2_gas: 3_000_000_000n } as const;
export const GAS_PRICES_WEI = { l1_gas: 8_000_000_000n, l1_data_gas: 300_000n, l2_gas: 1_000n } as const;

/** The sandbox's gas schedule: deterministic, so an estimate always covers the real execution. */
const GAS = { base: 300_000n, validate: 100_000n, perCall: 200_000n, deploy: 600_000n, dataBase: 128n, dataPerWrite: 32n };

/** The block a transaction executes in: its number and the hashes of the blocks before it. */
export type BlockEnv = Pick<TxEnv, "blockNumber" | "blockHash">;

export interface ExecFlags {
  skipValidate: boolean;
  skipFeeCharge: boolean;
  /** add*Transaction: the fee bounds and balance are enforced and the query version is refused. */
  submit: boolean;
}

export interface FeeEstimate {
  l1_gas_consumed: string;
  l1_gas_price: string;
  l2_gas_consumed: string;
  l2_gas_price: string;
  l1_data_gas_consumed: string;
  l1_data_gas_price: string;
  overall_fee: string;
  unit: "FRI";
}

export interface ExecOutcome {
  hash: bigint;
  type: ParsedTx["type"];
  /** The deployed account's address (DEPLOY_ACCOUNT). */
  contractAddress?: bigint;
  layer: Layer;
  revertReason?: string;
  fee: bigint;
  gas: { l1_gas: bigint; l2_gas: bigint; l1_data_gas: bigint };
  estimate: FeeEstimate;
  trace: Record<string, unknown>;
  /** Receipt events in emission order, with the emitter's address. */
  events: { from_address: string; keys: string[]; data: string[] }[];
}

const hex = toFeltHex;

export function txHash(tx: ParsedTx, chainId: bigint): { hash: bigint; sender: bigint } {
  if (tx.type === "INVOKE") {
    return { hash: invokeV3Hash({ ...tx, chainId }), sender: tx.senderAddress };
  }
  const address = contractAddress(tx.salt, tx.classHash, tx.constructorCalldata);
  return { hash: deployAccountV3Hash({ ...tx, contractAddress: address, chainId }), sender: address };
}

function maxFee(tx: ParsedTx): bigint {
  const rb = tx.resourceBounds;
  return (
    rb.l1_gas.maxAmount * rb.l1_gas.maxPricePerUnit +
    rb.l2_gas.maxAmount * (rb.l2_gas.maxPricePerUnit + tx.tip) +
    rb.l1_data_gas.maxAmount * rb.l1_data_gas.maxPricePerUnit
  );
}

/**
 * Runs the transaction; returns the outcome or throws an RpcError for what a node refuses outright
 * (`submit`: 52/53/54/55; otherwise the refusal is a TRANSACTION_EXECUTION_ERROR 41 at `index`).
 */
export function executeTx(state: Reader, tx: ParsedTx, chainId: bigint, flags: ExecFlags, index = 0, block?: BlockEnv): ExecOutcome {
  if (flags.submit && tx.version === QUERY_V3) throw errors.unsupportedTxVersion("query-only transaction versions cannot be submitted");
  const { hash, sender } = txHash(tx, chainId);
  const refuse = (submitError: Error, reason: string): never => {
    throw flags.submit ? submitError : errors.txExecutionError(index, reason);
  };

  const txLayer = new Layer(state as Layer);
  let order = 0;
  const env: TxEnv | undefined = block && { ...block, chainId, proofFacts: tx.type === "INVOKE" ? tx.proofFacts : [] };
  const ctx = (storage: Layer): ExecContext => ({ storage, txHash: hash, nextOrder: () => order++, callCount: 0, ...(env ? { env } : {}) });

  // Existence and nonce.
  const existing = accountRecord(txLayer, sender);
  if (tx.type === "INVOKE" && !existing) {
    refuse(errors.validationFailure(`Requested contract address ${hex(sender)} is not deployed.`), `Requested contract address ${hex(sender)} is not deployed.`);
  }
  if (tx.type === "DEPLOY_ACCOUNT") {
    if (tx.classHash !== BigInt(OZ_ACCOUNT_CLASS_HASH)) {
      if (flags.submit) throw errors.classHashNotFound();
      refuse(errors.classHashNotFound(), `Class with hash ${hex(tx.classHash)} is not declared.`);
    }
    if (existing) refuse(errors.validationFailure(`Requested contract address ${hex(sender)} is unavailable for deployment.`), `Requested contract address ${hex(sender)} is unavailable for deployment.`);
  }
  const currentNonce = txLayer.get(nonceKey(sender));
  if (tx.nonce !== currentNonce) {
    const detail = `Invalid transaction nonce of contract at address ${hex(sender)}. Account nonce: ${hex(currentNonce)}; got: ${hex(tx.nonce)}.`;
    refuse(errors.invalidNonce(detail), detail);
  }

  // Fee bounds and balance (a submitted transaction must be able to pay its maximal fee).
  const strkBalance = txLayer.get(balanceKey(STRK, sender));
  if (flags.submit) {
    const rb = tx.resourceBounds;
    const minL2 = GAS.base + GAS.validate;
    if (rb.l2_gas.maxPricePerUnit < GAS_PRICES.l2_gas || rb.l2_gas.maxAmount < minL2) throw errors.insufficientResources();
    if (rb.l1_gas.maxAmount > 0n && rb.l1_gas.maxPricePerUnit < GAS_PRICES.l1_gas) throw errors.insufficientResources();
    if (rb.l1_data_gas.maxPricePerUnit < GAS_PRICES.l1_data_gas) throw errors.insufficientResources();
    if (strkBalance < maxFee(tx)) throw errors.insufficientBalance();
  }

  // Validation: the OpenZeppelin account checks one Stark signature [r, s] over the transaction hash.
  const pubKey = tx.type === "INVOKE" ? BigInt(existing!.publicKey) : tx.constructorCalldata[0];
  let validateInvocation: Invocation | undefined;
  if (!flags.skipValidate) {
    const ok = pubKey !== undefined && signatureValid({ classHash: OZ_ACCOUNT_CLASS_HASH, publicKey: hex(pubKey) }, hash, tx.signature);
    if (!ok) {
      const reason = `Error in the called contract (contract address: ${hex(sender)}, selector: ${hex(
        tx.type === "INVOKE" ? SEL.__validate__ : SEL.__validate_deploy__,
      )}):\nExecution failed. Failure reason: 'Account: invalid signature'.`;
      refuse(errors.validationFailure(reason), reason);
    }
    validateInvocation = syntheticInvocation(sender, tx.type === "INVOKE" ? SEL.__validate__ : SEL.__validate_deploy__, [], 0n, ["0x" + Buffer.from("VALID").toString("hex")]);
  }

  // Execution on its own layer: any panic discards every write of the multicall.
  const execLayer = new Layer(txLayer);
  const execCtx = ctx(execLayer);
  let revertReason: string | undefined;
  let executeInvocation: Invocation | undefined;
  let constructorInvocation: Invocation | undefined;
    try {
    if (tx.type === "INVOKE") {
      executeInvocation = invoke(execCtx, 0n, sender, SEL.__execute__, tx.calldata);
    } else {
      constructorInvocation = deployConstructor(execLayer, sender, tx);
    }
  } catch (e) {
    if (!(e instanceof Panic)) throw e;
    revertReason = e.format();
  }

  const l2 = GAS.base + (flags.skipValidate ? 0n : GAS.validate) + GAS.perCall * BigInt(execCtx.callCount) + (tx.type === "DEPLOY_ACCOUNT" ? GAS.deploy : 0n);
  const estimatedL2 = l2 + (flags.skipValidate ? GAS.validate : 0n);
  let gas = { l1_gas: 0n, l2_gas: l2, l1_data_gas: GAS.dataBase + GAS.dataPerWrite * BigInt(revertReason ? 0 : execLayer.size) };
  if (flags.submit && !revertReason && gas.l2_gas > tx.resourceBounds.l2_gas.maxAmount) {
    revertReason = `Insufficient max L2Gas: max amount: ${tx.resourceBounds.l2_gas.maxAmount}, actual used: ${gas.l2_gas}.`;
    gas = { ...gas, l2_gas: tx.resourceBounds.l2_gas.maxAmount };
  }
  const feeOf = (g: typeof gas, tip: bigint) => g.l1_gas * GAS_PRICES.l1_gas + g.l2_gas * (GAS_PRICES.l2_gas + tip) + g.l1_data_gas * GAS_PRICES.l1_data_gas;
  let fee = feeOf(gas, flags.submit ? tx.tip : 0n);

  // Pay the fee from what the calls left; if they spent the STRK meant for the fee, the calls revert
  // and the fee is charged on the pre-execution state (which covered the maximal fee).
  let feeInvocation: Invocation | undefined;
  let feeBase: Layer = revertReason ? txLayer : execLayer;
  if (!flags.skipFeeCharge) {
    for (;;) {
      const feeLayer = new Layer(feeBase);
      try {
        feeInvocation = invoke(ctx(feeLayer), sender, STRK, SEL.transfer, [SEQUENCER_ADDRESS, fee & (2n ** 128n - 1n), fee >> 128n]);
        feeLayer.commit();
        break;
      } catch (e) {
        if (!(e instanceof Panic)) throw e;
        if (feeBase === txLayer) refuse(errors.insufficientBalance(), "Insufficient fee token balance: the account cannot pay the transaction fee in STRK.");
        revertReason = "Insufficient fee token balance: the calls left too little STRK to pay the transaction fee.";
        feeBase = txLayer;
      }
    }
  }
  if (feeBase === execLayer) execLayer.commit();
  txLayer.set(nonceKey(sender), currentNonce + 1n);

  const estimate: FeeEstimate = {
    l1_gas_consumed: hex(gas.l1_gas),
    l1_gas_price: hex(GAS_PRICES.l1_gas),
    l2_gas_consumed: hex(flags.submit ? gas.l2_gas : estimatedL2),
    l2_gas_price: hex(GAS_PRICES.l2_gas),
    l1_data_gas_consumed: hex(gas.l1_data_gas),
    l1_data_gas_price: hex(GAS_PRICES.l1_data_gas),
    overall_fee: hex(flags.submit ? fee : feeOf({ ...gas, l2_gas: estimatedL2 }, 0n)),
    unit: "FRI",
  };
  if (!flags.submit) fee = BigInt(estimate.overall_fee);

  const events = collectEvents([...(executeInvocation && !revertReason ? [executeInvocation] : []), ...(constructorInvocation && !revertReason ? [constructorInvocation] : []), ...(feeInvocation ? [feeInvocation] : [])]);
  const execution_resources = { l1_gas: Number(gas.l1_gas), l1_data_gas: Number(gas.l1_data_gas), l2_gas: Number(gas.l2_gas) };
  const trace: Record<string, unknown> =
    tx.type === "INVOKE"
      ? {
          type: "INVOKE",
          ...(validateInvocation ? { validate_invocation: validateInvocation } : {}),
          execute_invocation: revertReason ? { revert_reason: revertReason } : executeInvocation,
          ...(feeInvocation ? { fee_transfer_invocation: feeInvocation } : {}),
          state_diff: stateDiff(txLayer),
          execution_resources,
        }
      : {
          type: "DEPLOY_ACCOUNT",
          ...(validateInvocation ? { validate_invocation: validateInvocation } : {}),
          constructor_invocation: constructorInvocation ?? syntheticInvocation(sender, SEL.constructor, [], 0n, [], true),
          ...(feeInvocation ? { fee_transfer_invocation: feeInvocation } : {}),
          state_diff: stateDiff(txLayer),
          execution_resources,
        };
  return {
    hash,
    type: tx.type,
    ...(tx.type === "DEPLOY_ACCOUNT" ? { contractAddress: sender } : {}),
    layer: txLayer,
    ...(revertReason ? { revertReason } : {}),
    fee,
    gas,
    estimate,
    trace,
    events,
  };
}

function deployConstructor(layer: Layer, address: bigint, tx: DeployAccountTx): Invocation {
  const pub = tx.constructorCalldata[0];
  if (tx.constructorCalldata.length !== 1 || pub === undefined || pub === 0n) throw new Panic("Failed to deserialize param #1");
  writeAccount(layer, address, { classHash: tx.classHash, publicKey: pub });
  return syntheticInvocation(address, SEL.constructor, tx.constructorCalldata, 0n, []);
}

function syntheticInvocation(address: bigint, selector: bigint, calldata: bigint[], caller: bigint, result: string[], reverted = false): Invocation {
  return {
    contract_address: hex(address),
    entry_point_selector: hex(selector),
    calldata: calldata.map(hex),
    caller_address: hex(caller),
    class_hash: OZ_ACCOUNT_CLASS_HASH,
    entry_point_type: "EXTERNAL",
    call_type: "CALL",
    result,
    calls: [],
    events: [],
    messages: [],
    execution_resources: { l1_gas: 0, l2_gas: Number(GAS.validate) },
    is_reverted: reverted,
  };
}

/** Receipt events: every invocation's events with their emitter, in emission order. */
function collectEvents(roots: Invocation[]): ExecOutcome["events"] {
  const out: { order: number; from_address: string; keys: string[]; data: string[] }[] = [];
  const walk = (inv: Invocation) => {
    for (const e of inv.events) out.push({ order: e.order, from_address: inv.contract_address, keys: e.keys, data: e.data });
    inv.calls.forEach(walk);
  };
  roots.forEach(walk);
  out.sort((a, b) => a.order - b.order);
  return out.map(({ from_address, keys, data }) => ({ from_address, keys, data }));
}

function stateDiff(layer: Layer): Record<string, unknown> {
  const nonces: { contract_address: string; nonce: string }[] = [];
  const storage = new Map<string, { key: string; value: string }[]>();
  for (const [k, v] of layer.entries()) {
    const parts = k.split(":");
    if (parts[0] === "acct" && parts[2] === "nonce") nonces.push({ contract_address: hex(BigInt("0x" + parts[1])), nonce: hex(v) });
    else if (parts[0] === "erc20") {
      const addr = hex(BigInt("0x" + parts[1]));
      const list = storage.get(addr) ?? [];
      list.push({ key: k, value: hex(v) });
      storage.set(addr, list);
    }
  }
  return {
    storage_diffs: [...storage].map(([address, storage_entries]) => ({ address, storage_entries })),
    deprecated_declared_classes: [],
    declared_classes: [],
    deployed_contracts: [],
    replaced_classes: [],
    nonces,
  };
}
