/**
 * STRK20 private-action tools (SPEC 4.12): strk20_relay_status (scope `mcp`), strk20_pool_fee,
 * strk20_sign_proof_invocation, strk20_viewing_key_signature, strk20_relay_private_action (scope `wallet`).
 * All free. Thin: validate, call one service verb, say plainly what the result means. Signing and relaying
 * put a private action on chain with no proposal; the replies say so and name the gated route.
 */
import { z } from "zod";
import { defineTool } from "../types";
import { ok } from "../results";

const walletParam = z.string().min(1).max(100).describe("A Starknet wallet: its id (wal_...) or its name.");
const hexFelt = z.string().regex(/^0x[0-9a-fA-F]{1,64}$/, "must be a 0x-hex felt");
const felt = z.string().min(1).max(80).describe("A felt: 0x-hex or a decimal string.");
const feeToken = z.string().min(1).max(80).optional().describe("The token the relayer's fee is paid in: a token address (or STRK, ETH, USDC, USDT). Default STRK.");

const NoInput = z.object({});
const FeeInput = z.object({ feeToken });
const SignInput = z.object({
  wallet: walletParam,
  compileActionsCalldata: z
    .array(felt)
    .min(3)
    .max(4096)
    .describe("The calldata of the pool's compile_actions: [user_addr (must be this wallet), viewing_key, n_actions, (variant, fields...)*]. Known variants 0-8; unknown variants, malformed Serde and external invokes are refused."),
});
const WalletOnly = z.object({ wallet: walletParam });
const RelayInput = z.object({
  call: z
    .object({
      contractAddress: z.string().min(1).max(80).describe("The privacy pool's address."),
      entrypoint: z.literal("apply_actions").describe("Always apply_actions."),
      calldata: z.array(hexFelt).min(1).max(4096).describe("The apply_actions calldata strk20_sign_proof_invocation answered."),
    })
    .describe("The proven apply_actions call."),
  proof: z.string().min(1).describe("The base64 proof (under 4 MB)."),
  proofFacts: z.array(hexFelt).min(1).max(64).describe("The proof facts: 1 to 64 hex felts."),
  feeToken,
});

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;

export const strk20RelayStatusTool = defineTool({
  name: "strk20_relay_status",
  title: "STRK20 relay status",
  description: "Free. Whether STRK20 private actions can be relayed through a paymaster on this deployment: keyConfigured (a paymaster API key is set), relayReachable (the paymaster answers), keyAccepted (it accepted the key for a fee quote). Needs only the mcp scope.",
  inputSchema: NoInput,
  annotations: { title: "STRK20 relay status", ...READ },
  scope: "mcp",
  requiresEscrow: true,
  async handler(_args, ctx) {
    const s = await ctx.services.strk20.relayStatus();
    const yn = (b: boolean) => (b ? "yes" : "no");
    const text = s.configured
      ? `STRK20 relay: key configured ${yn(s.keyConfigured)}, relay reachable ${yn(s.relayReachable)}, key accepted ${yn(s.keyAccepted)}.${s.reason ? ` ${s.reason}.` : " Private actions can be relayed."}`
      : `STRK20 private actions are not available here: ${s.reason}.`;
    return ok(text, { ...s });
  },
});

export const strk20PoolFeeTool = defineTool({
  name: "strk20_pool_fee",
  title: "STRK20 relayer fee",
  description:
    "Free. The relayer's fee quote as the withdraw action to add to your client actions before proving (Withdraw = variant 7: to_addr, token, amount, random). A quote above this deployment's ceiling, or to a fee recipient not on its allow-list, is refused. Quotes are per operation: ask again before each proof.",
  inputSchema: FeeInput,
  annotations: { title: "STRK20 relayer fee", ...READ, idempotentHint: false },
  scope: "wallet",
  requiresEscrow: true,
  async handler(args, ctx) {
    const q = await ctx.services.strk20.poolFee(ctx.principal, args.feeToken);
    const text = `Relayer fee: ${q.feeAction.amountFormatted} ${q.feeTokenSymbol} to ${q.feeAction.recipient} (ceiling ${q.ceiling}). Add Withdraw{to_addr: ${q.feeAction.recipient}, token: ${q.feeAction.token}, amount: ${q.clientAction.amount}, random: any non-zero felt} before proving.`;
    return ok(text, { ...q });
  },
});

export const strk20SignProofInvocationTool = defineTool({
  name: "strk20_sign_proof_invocation",
  title: "Sign and prove a STRK20 private action",
  description:
    "Free. Decodes compileActionsCalldata (the first felt must be the wallet's address), signs the proof invocation with the wallet's key and has it proven. Returns wallet, address, pool, calldata (for apply_actions), signature and proof {facts, data, expiresAt}; the proof expires in about five minutes. UNGATED: with strk20_relay_private_action this puts the action on chain with no proposal (no simulation or verdict). The wallet's allow-lists and USD limits still apply to what the actions move out of the wallet (notes and withdrawals to others, the relayer's fee included; countedUsd is what counted against the daily cap); an outflow with no USD price is refused when a USD limit is set. The gated route is escrow_execute with starknetCalls and starknetProof. A safe wallet refuses this tool (its owner approves every action).",
  inputSchema: SignInput,
  annotations: { title: "Sign and prove a STRK20 private action", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  scope: "wallet",
  requiresEscrow: true,
  async handler(args, ctx) {
    const r = await ctx.services.strk20.signProofInvocation(ctx.principal, args.wallet, args.compileActionsCalldata);
    const text = [
      `Signed and proven for wallet "${r.name}" (${r.wallet}): ${r.proof.facts.length} proof facts, proof ${Math.round(r.proof.data.length / 1024)} KiB (base64), expires ${r.proof.expiresAt}.`,
      `Counted against the wallet's daily cap: $${r.countedUsd}.`,
      `Relay it with strk20_relay_private_action (call = apply_actions on ${r.pool} with the calldata below), or send it through escrow_execute for a judged proposal.`,
      `Note: ${r.notice}`,
    ].join("\n");
    return ok(text, { wallet: r.wallet, address: r.address, pool: r.pool, calldata: r.calldata, call: r.call, signature: r.signature, proof: r.proof, countedUsd: r.countedUsd, gated: r.gated, notice: r.notice });
  },
});

export const strk20ViewingKeySignatureTool = defineTool({
  name: "strk20_viewing_key_signature",
  title: "STRK20 viewing-key signature",
  description:
    "Free. Signs this deployment's one fixed viewing-key derivation message (chain id and pool address); no caller bytes are signed. The result DISCLOSES THE WALLET'S VIEWING KEY: whoever holds this signature derives it and can read every private note of the wallet. Returns wallet, address, signature. A safe wallet refuses.",
  inputSchema: WalletOnly,
  annotations: { title: "STRK20 viewing-key signature", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: "wallet",
  requiresEscrow: true,
  async handler(args, ctx) {
    const r = await ctx.services.strk20.viewingKeySignature(ctx.principal, args.wallet);
    const text = `Viewing-key signature of wallet "${r.name}" (${r.wallet}) over "${r.message}". It discloses the wallet's viewing key: keep it secret.`;
    return ok(text, { wallet: r.wallet, address: r.address, pool: r.pool, message: r.message, signature: r.signature, disclosesViewingKey: true });
  },
});

export const strk20RelayPrivateActionTool = defineTool({
  name: "strk20_relay_private_action",
  title: "Relay a proven STRK20 private action",
  description:
    "Free. Relays a proven apply_actions call through the paymaster; the wallet pays no STRK gas (the relayer's fee is the withdraw inside the proven actions). feeToken must be the token the fee was quoted in. Returns txHash and trackingId. A proof is never sent twice; an expired one is refused (sign and prove again). UNGATED: no proposal, simulation or verdict (the wallet's limits were applied when the proof invocation was signed); the gated route is escrow_execute with starknetCalls and starknetProof.",
  inputSchema: RelayInput,
  annotations: { title: "Relay a STRK20 private action", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  scope: "wallet",
  requiresEscrow: true,
  async handler(args, ctx) {
    const r = await ctx.services.strk20.relayPrivateAction(ctx.principal, { call: args.call, proof: args.proof, proofFacts: args.proofFacts, feeToken: args.feeToken });
    const text = [`Relayed to the pool ${r.pool}: transaction ${r.txHash}, tracking id ${r.trackingId} (relayer fee ${r.fee}).`, `Note: ${r.notice}`].join("\n");
    return ok(text, { txHash: r.txHash, trackingId: r.trackingId, pool: r.pool, feeToken: r.feeToken, fee: r.fee, gated: r.gated });
  },
});

export const STRK20_TOOLS = [strk20RelayStatusTool, strk20PoolFeeTool, strk20SignProofInvocationTool, strk20ViewingKeySignatureTool, strk20RelayPrivateActionTool];
