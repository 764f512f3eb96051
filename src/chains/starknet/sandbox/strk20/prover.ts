/**
 * The sandbox's local proving service: JSON-RPC `starknet_proveTransaction` on loopback, the production
 * protocol. It checks what a real prover's virtual block would reject (the invocation's shape and the
 * pool's nonce, the wallet's signature through its account's `is_valid_signature`, the client actions via
 * ../compile.ts) and answers proof facts built as the real ones are, the pool's L2->L1 message, and an
 * opaque proof that is an HMAC of the facts (./attest.ts): NOT a STARK. Nothing is cryptographically proven.
 */
import { SEL, STRK_ADDRESS } from "../../constants";
import { toFeltHex } from "../../felt";
import { ActionsError, decodeCompileCalldata } from "../../strk20/actions";
import { proofInvocationHash, SEL_COMPILE_ACTIONS, type ProofInvocation } from "../../strk20/invocation";
import { buildProofFacts, messageHash, osConfigHash } from "../../strk20/proof-facts";
import { accountRecord, nonceKey, VALID } from "../contracts";
import { RpcError } from "../errors";
import type { SandboxNode } from "../node";
import { sandboxProof } from "./attest";
import { compileActions } from "./compile";
import { serveJsonRpc, type LocalRpcServer } from "./http";
import { encodeServerActions, SANDBOX_POOL_ADDRESS, SANDBOX_POOL_CLASS_HASH, SANDBOX_PROGRAM_HASH } from "./model";

const invalid = (m: string) => new RpcError(1000, "Invalid input", m);

export function proveTransaction(node: SandboxNode, params: unknown): unknown {
  const p = (params ?? {}) as { block_id?: unknown; transaction?: Partial<ProofInvocation> };
  const block = node.block(p.block_id);
  const tx = p.transaction;
  if (!tx || tx.type !== "INVOKE" || tx.version !== "0x3") throw new RpcError(1001, "Unsupported transaction type", "an INVOKE v3 is expected");
  const pool = BigInt(SANDBOX_POOL_ADDRESS);
  let cd: bigint[];
  try {
    if (BigInt(tx.sender_address ?? "0x0") !== pool) throw invalid("the proof invocation's sender must be the pool");
    cd = (tx.calldata ?? []).map((x) => BigInt(x));
    BigInt(tx.nonce ?? "x");
  } catch (e) {
    if (e instanceof RpcError) throw e;
    throw invalid("malformed transaction");
  }
  if (cd.length < 4 || cd[0] !== 1n || cd[1] !== pool || cd[2] !== SEL_COMPILE_ACTIONS || Number(cd[3]) !== cd.length - 4) throw invalid("the calldata must be __execute__ of one call to the pool's compile_actions");
  if (BigInt(tx.nonce!) !== node.read(nonceKey(pool))) throw invalid(`invalid nonce: the pool's nonce is ${node.read(nonceKey(pool))}`);
  let call: ReturnType<typeof decodeCompileCalldata>;
  try {
    call = decodeCompileCalldata(cd.slice(4).map(toFeltHex));
  } catch (e) {
    throw invalid((e as ActionsError).message);
  }
  // The pool calls the user's account in the virtual block: it must be deployed, and the signature valid.
  const user = BigInt(call.user);
  if (!accountRecord({ get: (k) => node.read(k) }, user)) throw new RpcError(55, "Account validation failed", "the user's account is not deployed at the proving block");
  const hash = proofInvocationHash(tx as ProofInvocation, node.chainId);
  const sig = (tx.signature ?? []).map((x) => BigInt(x));
  const answer = node.call(user, SEL.is_valid_signature, [hash, BigInt(sig.length), ...sig]);
  if (BigInt(answer[0] ?? "0x0") !== VALID) throw new RpcError(55, "Account validation failed", "the signature over the proof invocation is not the user's");
  let actions;
  try {
    actions = compileActions(node, pool, call);
  } catch (e) {
    if (e instanceof ActionsError) throw invalid(e.message);
    throw e;
  }
  const serialized = encodeServerActions(actions);
  const facts = buildProofFacts({
    programHash: SANDBOX_PROGRAM_HASH,
    baseBlockNumber: BigInt(block.number),
    baseBlockHash: BigInt(block.hash),
    configHash: osConfigHash(node.chainId, BigInt(STRK_ADDRESS)),
    messageHash: messageHash(pool, BigInt(SANDBOX_POOL_CLASS_HASH), serialized),
  });
  return {
    proof: sandboxProof(Buffer.from(node.strk20.attestKey, "hex"), facts),
    proof_facts: facts.map(toFeltHex),
    l2_to_l1_messages: [{ from_address: toFeltHex(pool), to_address: "0x0", payload: [SANDBOX_POOL_CLASS_HASH, ...serialized.map(toFeltHex)] }],
  };
}

export function startSandboxProver(node: SandboxNode, o: { host?: string; port?: number } = {}): Promise<LocalRpcServer> {
  return serveJsonRpc(
    {
      starknet_specVersion: () => "0.10.3+arbiter-sandbox-prover.not-a-stark-prover",
      starknet_proveTransaction: (params) => proveTransaction(node, params),
    },
    { ...o, banner: "Arbiter's sandbox STRK20 proving service (JSON-RPC over POST; proofs are HMACs, not STARKs)" },
  );
}
