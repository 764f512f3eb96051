export { startSolanaSandbox } from "./server";
export type { SolanaSandbox, StartSolanaSandboxOptions } from "./server";
export type { SolanaFaucet, SolanaFundRequest, SolanaFundResult, SolanaFaucetAsset } from "./faucet";
export { SvmLedger, MAX_PROCESSING_AGE } from "./ledger";
