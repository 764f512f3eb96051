/**
 * The top-up rails of a deployment, chosen once in the composition root (src/deps.ts):
 *
 *   payTo        TOPUP_PAY_TO, else (sandbox) the sandbox's payTo account
 *   facilitator  FACILITATOR_URL        -> remote (HTTPFacilitatorClient)
 *                FACILITATOR_PRIVATE_KEY -> in-process, that key pays settlement gas on BASE_RPC_URL / the sandbox
 *                sandbox                -> in-process with the sandbox relayer
 *   chain reads  the runtime's Base client (sandbox anvil or BASE_RPC_URL): crash recovery and receipt checks
 *
 * Anything missing on a production deployment disables top-ups (503 topup_not_configured), never guesses.
 */
import type { Address, PublicClient } from "viem";
import type { Config } from "../../config";
import type { ChainRuntime } from "../../chains/evm/start";
import { BASE_USDC, SANDBOX_NETWORK } from "../../sandbox/addresses";
import { createLocalFacilitator, createRemoteFacilitator, type Facilitator, type Network } from "../../x402";
import type { RelayerLock } from "../../x402/facilitator";

export interface TopupRails {
  payTo: Address;
  asset: Address;
  network: Network;
  facilitator: Facilitator;
  /** Reads the chain the payments settle on. */
  client: PublicClient;
  sandbox: boolean;
}

export type TopupRailsChoice = { ok: true; rails: TopupRails } | { ok: false; reason: string };

export function chooseTopupRails(config: Config, chain: ChainRuntime | null, relayerLock?: RelayerLock): TopupRailsChoice {
  if (!chain) return { ok: false, reason: "no Base chain is configured (set BASE_RPC_URL, or run the sandbox)" };
  const sandbox = chain.sandbox;
  const payTo = (config.TOPUP_PAY_TO as Address | undefined) ?? sandbox?.accounts.payTo.address;
  if (!payTo) return { ok: false, reason: "TOPUP_PAY_TO is not set" };
  let facilitator: Facilitator;
  if (config.FACILITATOR_URL) {
    facilitator = createRemoteFacilitator({ url: config.FACILITATOR_URL });
  } else if (config.FACILITATOR_PRIVATE_KEY) {
    facilitator = createLocalFacilitator({
      rpcUrl: chain.base.rpcUrl,
      relayer: config.FACILITATOR_PRIVATE_KEY as `0x${string}`,
      ...(sandbox ? { mineWhenStaleSeconds: 30 } : {}),
      relayerLock,
    });
  } else if (sandbox) {
    facilitator = sandbox.createFacilitator({ relayerLock });
  } else {
    return { ok: false, reason: "no x402 facilitator: set FACILITATOR_URL or FACILITATOR_PRIVATE_KEY" };
  }
  return { ok: true, rails: { payTo, asset: BASE_USDC, network: SANDBOX_NETWORK, facilitator, client: chain.base.client, sandbox: !!sandbox } };
}
