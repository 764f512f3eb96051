/**
 * The sandbox faucet: the genesis faucet account sends STRK, ETH, USDC or USDT with an ordinary signed
 * INVOKE v3 through unmodified starknet.js `Account` (so funding exercises the same path as any client).
 * Fundings are serialised: one faucet account, one nonce sequence.
 */
import { Account, cairo, CallData, RpcProvider } from "starknet";
import { parseUnitsStrict } from "../../../lib/money";
import { ChainInputError } from "../../port";
import { STARKNET_TOKENS } from "../constants";
import { FeltError, normaliseAddress } from "../felt";

export interface StarknetFaucet {
  readonly address: string;
  fund(r: { address: string; asset: string; amount: string }): Promise<{ txHash: string; address: string; asset: string; amount: string; amountBase: string }>;
}

export function createStarknetFaucet(rpcUrl: string, faucet: { address: string; privateKey: string }): StarknetFaucet {
  const provider = new RpcProvider({ nodeUrl: rpcUrl });
  const account = new Account({ provider, address: faucet.address, signer: faucet.privateKey, cairoVersion: "1" });
  let queue: Promise<unknown> = Promise.resolve();
  return {
    address: faucet.address,
    fund(r) {
      const token = STARKNET_TOKENS.find((t) => t.symbol === r.asset.trim().toUpperCase());
      if (!token) return Promise.reject(new ChainInputError("asset must be STRK, ETH, USDC or USDT"));
      let to: string;
      let amount: bigint;
      try {
        to = normaliseAddress(r.address.trim(), "address");
        amount = parseUnitsStrict(r.amount.trim(), token.decimals);
      } catch (e) {
        const m = e instanceof FeltError ? e.message : `amount: ${(e as Error).message}`;
        return Promise.reject(new ChainInputError(m));
      }
      if (amount <= 0n) return Promise.reject(new ChainInputError("amount must be greater than zero"));
      const run = async () => {
        const res = await account.execute({ contractAddress: token.address, entrypoint: "transfer", calldata: CallData.compile({ recipient: to, amount: cairo.uint256(amount) }) }, { tip: 0 });
        await provider.waitForTransaction(res.transaction_hash, { retryInterval: 50 });
        return { txHash: res.transaction_hash, address: to, asset: token.symbol, amount: r.amount.trim(), amountBase: amount.toString() };
      };
      const p = queue.then(run, run);
      queue = p.catch(() => undefined);
      return p;
    },
  };
}
