/**
 * Connecting a self-custodial wallet: Sign-In with Ethereum (EIP-4361) proves the owner controls the address
 * that becomes the wallet. The dashboard asks the browser wallet for its account, the server issues the exact
 * message to sign, the wallet signs it (personal_sign), and the server checks before creating the wallet:
 *
 * - the challenge exists for this dashboard session and account, is unexpired (10 minutes) and unused; it is
 *   consumed by a guarded UPDATE before anything else, so a signature is good for one attempt only;
 * - the signed text is byte-for-byte the message issued (so no field can differ), and independently its
 *   domain is this deployment's host, its URI this dashboard, its chain id the wallet chain's, its address the
 *   one that asked, with issuedAt/expirationTime in range;
 * - the signature verifies for that address (chains/evm/embedded.ts, which also accepts ERC-1271/6492);
 * - the address is an externally owned account (code empty, or an EIP-7702 designator): a contract wallet
 *   cannot send "the exact transaction" from its own address through eth_sendTransaction.
 *
 * The nonce comes from node:crypto; viem's generateSiweNonce draws on Math.random and is not used.
 */
import { randomBytes } from "node:crypto";
import type { Principal } from "../../accounts/principal";
import { createFailed, createWallet, escrowUnconfigured } from "../create";
import type { CreateWalletInput } from "../schemas";
import type { WalletsDeps } from "../types";
import { evmChainOf } from "../../chains/evm/adapter";
import { isExternallyOwned, parseSiwe, siweMessage, verifySiwe, walletAccountAddress, type Address } from "../../chains/evm/embedded";
import { EMBEDDED_KEY_REF, EMBEDDED_PROVIDER } from "./embedded";

export const SIWE_TTL_MS = 10 * 60_000;
export const CONNECT_PATH = "/dashboard/wallets/connect";
export const SIWE_STATEMENT =
  "Use this account as a self-custodial safe wallet on Arbiter. Arbiter never receives its key: every transaction an agent proposes waits for you to sign it in this wallet.";

export interface DashboardSessionRef {
  id: string;
  accountId: string;
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
function nonce(): string {
  // 24 characters from 62 (~143 bits); rejection sampling keeps every character uniform.
  let out = "";
  while (out.length < 24) for (const b of randomBytes(32)) if (b < 248 && out.length < 24) out += ALNUM[b % 62];
  return out;
}

const refuse = (why: string) => createFailed(why);

function expected(deps: WalletsDeps) {
  const chain = evmChainOf(deps.chains.forWallet("base"));
  if (!chain) throw escrowUnconfigured();
  const url = new URL(deps.publicUrl);
  return { chain, domain: url.host, uri: `${deps.publicUrl}${CONNECT_PATH}`, scheme: url.protocol.slice(0, -1) };
}

/** Issues the message the owner's wallet signs for `address`, bound to this session. */
export async function siweChallenge(deps: WalletsDeps, session: DashboardSessionRef, rawAddress: string): Promise<{ message: string; expiresAt: string }> {
  const address = walletAccountAddress(rawAddress);
  if (!address) throw refuse("the wallet did not return a valid account address");
  const e = expected(deps);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + SIWE_TTL_MS);
  const n = nonce();
  const message = siweMessage({
    domain: e.domain,
    scheme: e.scheme,
    address,
    statement: SIWE_STATEMENT,
    uri: e.uri,
    chainId: e.chain.info.chainId,
    nonce: n,
    issuedAt: now,
    expirationTime: expiresAt,
  });
  await deps.db.insertInto("siwe_challenges").values({ nonce: n, account_id: session.accountId, session_id: session.id, address, message, expires_at: expiresAt, used_at: null, created_at: now }).execute();
  await deps.db.deleteFrom("siwe_challenges").where("expires_at", "<", new Date(now.getTime() - 24 * 3600_000)).execute();
  return { message, expiresAt: expiresAt.toISOString() };
}

export interface ConnectInput {
  message: string;
  signature: string;
  name: string;
  mandate?: string | null;
  limits?: unknown;
}

/** Verifies the signed challenge and creates the embedded safe wallet at the proven address. */
export async function connectEmbeddedWallet(deps: WalletsDeps, session: DashboardSessionRef, principal: Principal, input: ConnectInput) {
  const e = expected(deps);
  if (typeof input.message !== "string" || input.message.length > 4000) throw refuse("the signed message is missing");
  if (typeof input.signature !== "string" || !/^0x[0-9a-fA-F]{130,}$/.test(input.signature) || input.signature.length > 20_000) throw refuse("the wallet returned no valid signature");
  const parsed = parseSiwe(input.message);
  if (!parsed.nonce) throw refuse("the signed message is not a sign-in request from this dashboard");
  // Cheap refusals first, so a typo does not burn the signature.
  const name = typeof input.name === "string" ? input.name.trim() : "";
  if (!name) throw refuse("give the wallet a name");
  const named = await deps.db.selectFrom("wallets").select("id").where("account_id", "=", principal.accountId).where("name", "=", name).executeTakeFirst();
  if (named) throw refuse(`a wallet named "${name}" already exists on this account`);
  const now = deps.clock.now();

  // Single use: consumed before the signature is even checked.
  const challenge = await deps.db
    .updateTable("siwe_challenges")
    .set({ used_at: now })
    .where("nonce", "=", parsed.nonce)
    .where("session_id", "=", session.id)
    .where("account_id", "=", session.accountId)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returningAll()
    .executeTakeFirst();
  if (!challenge) throw refuse("this sign-in request is unknown, expired or already used; connect your wallet again");
  if (challenge.message !== input.message) throw refuse("the signed message is not the one this dashboard issued");
  const address = challenge.address as Address;
  const fieldsOk =
    parsed.domain === e.domain &&
    parsed.uri === e.uri &&
    parsed.chainId === e.chain.info.chainId &&
    parsed.version === "1" &&
    parsed.address?.toLowerCase() === address.toLowerCase() &&
    parsed.expirationTime !== undefined &&
    parsed.expirationTime.getTime() > now.getTime() &&
    (parsed.issuedAt?.getTime() ?? Infinity) <= now.getTime() + 60_000;
  if (!fieldsOk) throw refuse("the sign-in message does not match this deployment (domain, URI, chain or address)");
  const valid = await verifySiwe(e.chain, { message: input.message, signature: input.signature, domain: e.domain, nonce: challenge.nonce, address, scheme: e.scheme, time: now });
  if (!valid) throw refuse("the signature does not prove control of this address");

  if (!(await isExternallyOwned(e.chain, address))) {
    throw refuse("this address is a smart contract wallet; self-custodial safe wallets need an ordinary account (EOA) that sends its own transactions");
  }
  const taken = await deps.db.selectFrom("wallets").select(["name"]).where("address", "=", address).executeTakeFirst();
  if (taken) throw refuse(`this address already backs a wallet (${taken.name}); one address can be one wallet`);

  const create: CreateWalletInput = { name, chain: "base", mode: "safe", mandate: input.mandate ?? null, limits: input.limits };
  const wallet = await createWallet(deps, principal, create, { address, keyRef: EMBEDDED_KEY_REF, provider: EMBEDDED_PROVIDER });
  deps.logger.info({ walletId: wallet.id, accountId: principal.accountId, address }, "self-custodial safe wallet connected (SIWE)");
  return wallet;
}
