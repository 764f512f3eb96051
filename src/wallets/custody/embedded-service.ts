/**
 * The self-custodial wallet verbs the dashboard calls (docs/oauth.md "Embedded wallets"). Only the owner,
 * signed in, reaches them: there is no API-key or MCP route to connect a wallet or to confirm for one.
 */
import type { Principal } from "../../accounts/principal";
import type { ProposalsDeps } from "../../proposals/types";
import type { WalletsDeps } from "../types";
import { prepareEmbedded, submitEmbedded } from "./embedded-confirm";
import { connectEmbeddedWallet, siweChallenge, type ConnectInput, type DashboardSessionRef } from "./embedded-siwe";

export function createEmbeddedCustody(wallets: WalletsDeps, proposals: ProposalsDeps) {
  return {
    /** The EIP-4361 message the owner's wallet signs to prove `address`. */
    challenge: (session: DashboardSessionRef, address: string) => siweChallenge(wallets, session, address),
    /** Verifies the signed message and creates the self-custodial safe wallet at that address. */
    connect: (session: DashboardSessionRef, principal: Principal, input: ConnectInput) => connectEmbeddedWallet(wallets, session, principal, input),
    /** Re-checks a held proposal and returns the exact transaction for the owner's wallet to send. */
    prepare: (accountId: string, txId: string) => prepareEmbedded(proposals, accountId, txId),
    /** Records the hash the owner's wallet returned, after checking the transaction on chain. */
    submit: (accountId: string, txId: string, txHash: string) => submitEmbedded(proposals, accountId, txId, txHash),
  };
}
export type EmbeddedCustody = ReturnType<typeof createEmbeddedCustody>;
