/**
 * Starknet facts the family and the sandbox node share: chain ids, the four tokens at their mainnet
 * addresses, the OpenZeppelin account class, explorers. Sources: the project research notes (research/starknet.md) §2, §4.
 */
import { hash } from "starknet";
import { shortString } from "./felt";

export const SN_MAIN = "0x534e5f4d41494e";
export const SN_SEPOLIA = "0x534e5f5345504f4c4941";
export const CAIP2_MAIN = "starknet:SN_MAIN";

export interface StarknetToken {
  symbol: "STRK" | "ETH" | "USDC" | "USDT";
  name: string;
  address: string;
  decimals: number;
}

export const STARKNET_TOKENS: readonly StarknetToken[] = [
  { symbol: "STRK", name: "Starknet Token", address: "0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d", decimals: 18 },
  { symbol: "ETH", name: "Ether", address: "0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7", decimals: 18 },
  { symbol: "USDC", name: "USD Coin", address: "0x033068f6539f8e6e6b131e6b2b814e6c34a5224bc66947c47dab9dfee93b35fb", decimals: 6 },
  { symbol: "USDT", name: "Tether USD", address: "0x068f5c6a61780768455de69077e07e89787839bf8166decfbf92b645209c0fb8", decimals: 6 },
];

export const STRK_ADDRESS = STARKNET_TOKENS[0]!.address;

export function tokenBySymbol(symbol: string): StarknetToken | undefined {
  const s = symbol.trim().toUpperCase();
  return STARKNET_TOKENS.find((t) => t.symbol === s);
}

export function tokenByAddress(address: string): StarknetToken | undefined {
  return STARKNET_TOKENS.find((t) => t.address === address);
}

/** OpenZeppelin account v0.17 (the starknet.js guide's class): constructor [publicKey], salt = publicKey. */
export const OZ_ACCOUNT_CLASS_HASH = "0x0540d7f5ec7ecf317e68d48564934cb99259781b1ee3cedbbc37ec5337f8e688";

/** The sandbox node's ERC-20 model has no real class; this labelled felt stands in for its class hash. */
export const SANDBOX_ERC20_CLASS_HASH = "0x" + shortString("arbiter.sandbox.erc20.model").toString(16).padStart(64, "0");

export const selector = (name: string): bigint => BigInt(hash.getSelectorFromName(name));

export const SEL = {
  transfer: selector("transfer"),
  transferFrom: selector("transferFrom"),
  transfer_from: selector("transfer_from"),
  approve: selector("approve"),
  balance_of: selector("balance_of"),
  balanceOf: selector("balanceOf"),
  allowance: selector("allowance"),
  decimals: selector("decimals"),
  symbol: selector("symbol"),
  name: selector("name"),
  total_supply: selector("total_supply"),
  totalSupply: selector("totalSupply"),
  Transfer: selector("Transfer"),
  Approval: selector("Approval"),
  __execute__: selector("__execute__"),
  __validate__: selector("__validate__"),
  __validate_deploy__: selector("__validate_deploy__"),
  is_valid_signature: selector("is_valid_signature"),
  isValidSignature: selector("isValidSignature"),
  get_public_key: selector("get_public_key"),
  supports_interface: selector("supports_interface"),
  constructor: selector("constructor"),
} as const;

export const VOYAGER = { tx: (h: string) => `https://voyager.online/tx/${h}`, contract: (a: string) => `https://voyager.online/contract/${a}` };

export const toFeltHexSel = (name: string): string => "0x" + selector(name).toString(16);
