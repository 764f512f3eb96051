/**
 * Client of a SNIP-29-style paymaster with AVNU's private `apply_action` extension (research/starknet.md
 * §1.9): `paymaster_isAvailable`, `paymaster_buildTransaction` (the fee as a withdraw action to add before
 * proving) and `paymaster_executeTransaction` (relays a proven `apply_actions` call; answers the tracking
 * id and hash). The API key travels in `x-paymaster-api-key` and is never logged or echoed. Felts go out as
 * 0x-hex (the paymaster refuses decimals). Execution is never retried on a refusal: the same proof sent
 * twice is "Tx already sent", and a new attempt needs a new proof.
 */
import { normaliseAddress, toFeltHex } from "../felt";
import { PAYMASTER_CODES, Strk20Error } from "./errors";
import { jsonRpc, type JsonRpcOptions } from "./jsonrpc";

export interface FeeAction {
  type: "withdraw";
  token: string;
  amount: bigint;
  recipient: string;
}

export interface Quote {
  feeAction: FeeAction;
  /** The quote's parameters, echoed verbatim on execution. */
  parameters: Record<string, unknown>;
}

export interface PaymasterClient {
  readonly url: string;
  readonly hasKey: boolean;
  isAvailable(): Promise<boolean>;
  quote(pool: string, feeToken: string): Promise<Quote>;
  execute(a: { pool: string; call: { to: string; selector: string; calldata: string[] }; proof: string; proofFacts: string[]; parameters: Record<string, unknown> }): Promise<{ trackingId: string; txHash: string }>;
}

const hexFelt = (x: string) => toFeltHex(BigInt(x));

export function createPaymasterClient(url: string, apiKey: string | undefined, o: Partial<Omit<JsonRpcOptions, "url" | "name" | "codes" | "headers">> = {}): PaymasterClient {
  const rpc = jsonRpc({ ...o, url, name: "paymaster", codes: PAYMASTER_CODES, headers: apiKey ? { "x-paymaster-api-key": apiKey } : {} });
  // Execution is not retried even when busy: the relay may have gone through.
  const rpcOnce = jsonRpc({ ...o, retries: 0, url, name: "paymaster", codes: PAYMASTER_CODES, headers: apiKey ? { "x-paymaster-api-key": apiKey } : {} });
  return {
    url,
    hasKey: Boolean(apiKey),
    isAvailable: async () => (await rpc.call<unknown>("paymaster_isAvailable", [])) === true,
    async quote(pool, feeToken) {
      const parameters = { version: "0x1", fee_mode: { mode: "sponsored_private", pool_fee_token: hexFelt(feeToken) } };
      const r = await rpc.call<{ fee_action?: Record<string, unknown>; parameters?: Record<string, unknown> }>("paymaster_buildTransaction", {
        transaction: { type: "apply_action", apply_action: { pool_address: hexFelt(pool) } },
        parameters,
      });
      const fa = r?.fee_action;
      try {
        if (!fa || fa.type !== "withdraw") throw new Error("no withdraw fee action");
        const feeAction: FeeAction = { type: "withdraw", token: normaliseAddress(fa.token), recipient: normaliseAddress(fa.recipient), amount: BigInt(fa.amount as string) };
        if (feeAction.amount < 0n || feeAction.amount >= 2n ** 128n) throw new Error("fee amount out of range");
        return { feeAction, parameters: r.parameters && typeof r.parameters === "object" ? r.parameters : parameters };
      } catch (e) {
        throw new Strk20Error("unavailable", `the paymaster's quote is unusable (${(e as Error).message})`);
      }
    },
    async execute(a) {
      const r = await rpcOnce.call<{ tracking_id?: unknown; transaction_hash?: unknown }>("paymaster_executeTransaction", {
        transaction: {
          type: "apply_action",
          apply_action: { pool_address: hexFelt(a.pool), apply_actions_call: { to: hexFelt(a.call.to), selector: hexFelt(a.call.selector), calldata: a.call.calldata.map(hexFelt) }, proof: a.proof, proof_facts: a.proofFacts.map(hexFelt) },
        },
        parameters: a.parameters,
      });
      if (typeof r?.transaction_hash !== "string") throw new Strk20Error("unavailable", "the paymaster answered without a transaction hash");
      return { trackingId: String(r.tracking_id ?? ""), txHash: hexFelt(r.transaction_hash) };
    },
  };
}
