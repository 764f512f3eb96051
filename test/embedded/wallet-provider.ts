/**
 * A browser wallet for tests: an EIP-1193 `window.ethereum` injected into a Playwright page, whose requests
 * are forwarded (page.exposeFunction) to a viem wallet client on the sandbox chain. The key lives only here,
 * in the test, as it would in the owner's wallet extension.
 */
import type { Page } from "playwright-core";
import { createWalletClient, defineChain, http, type Hex, type LocalAccount } from "viem";

export interface WalletCall {
  method: string;
  params: unknown[];
}

export function sandboxChain(rpcUrl: string) {
  return defineChain({ id: 8453, name: "Base (sandbox)", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
}

export function walletClientFor(account: LocalAccount, rpcUrl: string) {
  return createWalletClient({ account, chain: sandboxChain(rpcUrl), transport: http(rpcUrl) });
}

/** Injects the provider; `calls` records every request the page made. */
export async function injectWallet(page: Page, account: LocalAccount, rpcUrl: string): Promise<{ calls: WalletCall[] }> {
  const client = walletClientFor(account, rpcUrl);
  const calls: WalletCall[] = [];
  const handle = async (method: string, params: unknown[]): Promise<unknown> => {
    switch (method) {
      case "eth_requestAccounts":
      case "eth_accounts":
        return [account.address];
      case "eth_chainId":
        return "0x2105";
      case "wallet_switchEthereumChain":
        return null;
      case "personal_sign": {
        const [message, address] = params as [Hex, string];
        if (address.toLowerCase() !== account.address.toLowerCase()) throw Object.assign(new Error("unknown account"), { code: 4100 });
        return account.signMessage({ message: { raw: message } });
      }
      case "eth_sendTransaction": {
        const [tx] = params as [{ from: string; to: Hex; value?: Hex; data?: Hex; chainId?: Hex }];
        if (tx.from.toLowerCase() !== account.address.toLowerCase()) throw Object.assign(new Error("unknown account"), { code: 4100 });
        return client.sendTransaction({ to: tx.to, value: tx.value ? BigInt(tx.value) : 0n, data: tx.data ?? "0x" });
      }
      default:
        throw Object.assign(new Error(`method ${method} not supported`), { code: 4200 });
    }
  };
  await page.exposeFunction("__testWalletRequest", async (method: string, paramsJson: string) => {
    const params = JSON.parse(paramsJson) as unknown[];
    calls.push({ method, params });
    try {
      return JSON.stringify({ result: await handle(method, params) });
    } catch (err) {
      const e = err as { message?: string; code?: number };
      return JSON.stringify({ error: { message: e.message ?? String(err), code: e.code ?? -32603 } });
    }
  });
  await page.addInitScript(() => {
    const bridge = (m: string, p: string) => (window as unknown as { __testWalletRequest: (m: string, p: string) => Promise<string> }).__testWalletRequest(m, p);
    const ethereum = {
      isTestWallet: true,
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const out = JSON.parse(await bridge(method, JSON.stringify(params ?? []))) as { result?: unknown; error?: { message: string; code: number } };
        if (out.error) throw Object.assign(new Error(out.error.message), { code: out.error.code });
        return out.result;
      },
      on() {},
      removeListener() {},
    };
    (window as unknown as { ethereum: typeof ethereum }).ethereum = ethereum;
  });
  return { calls };
}
