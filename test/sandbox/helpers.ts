import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import type { Sandbox } from "../../src/sandbox";

/** A fresh random account funded by the sandbox faucet. */
export async function fundedAccount(sb: Sandbox, funds: { eth?: string; usdc?: string } = {}): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  if (funds.eth) await sb.faucet.fund({ address: account.address, asset: "ETH", amount: funds.eth });
  if (funds.usdc) await sb.faucet.fund({ address: account.address, asset: "USDC", amount: funds.usdc });
  return account;
}

export const randomAddress = (): `0x${string}` => privateKeyToAccount(generatePrivateKey()).address;
