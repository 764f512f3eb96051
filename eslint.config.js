import js from "@eslint/js";
import tseslint from "typescript-eslint";

/*
 * Layering (docs/architecture.md), enforced with `no-restricted-imports` so `npm run lint` fails on a breach;
 * test/lint/layering.test.ts lints small snippets to prove every rule below still fires.
 *
 * - chain SDKs only in src/chains/<family>, plus the folders listed in SDK_ALLOWED (each says why);
 * - capabilities (every src folder but the transports and the composition root) never import a transport:
 *   src/http, src/mcp, src/dashboard; the composition root (src/deps.ts, ...) wires routes and tools;
 * - transports and the dashboard never import src/chains/<family>: they see chains through the port;
 * - the API transports (src/http, src/mcp) never import the dashboard: what both need (client IP, auth
 *   services) lives in a neutral module or a capability;
 * - the escrow core (src/proposals, src/wallets) neither: it chooses the adapter from the wallet's chain.
 *
 * Flat config does not merge a rule's options across blocks (the last block wins), so each file group below
 * gets the complete list for its layer and the groups do not overlap.
 */
const SDK_REGEX = "^(viem|starknet|litesvm|secp256k1|tiny-secp256k1|ox|abitype)(/|$)|^litesvm-|^@(solana|solana-program|scure)/|^@noble/(curves|secp256k1|ed25519)(/|$)|^@x402/evm(/|$)";
const SDK = { regex: SDK_REGEX, message: "Chain SDKs belong in src/chains/<family> behind the chain port (src/chains/port.ts); see docs/architecture.md." };
const TRANSPORT = {
  regex: "^(\\.\\./)+(http|mcp|dashboard)(/|$)",
  message: "A capability never imports a transport (src/http, src/mcp, src/dashboard): mount routes and register tools in the composition root (src/deps.ts).",
};
const FAMILY = {
  regex: "^(\\.\\./)+chains/(evm|solana|starknet)(/|$)",
  message: "Go through the chain port (src/chains/port.ts, src/chains/types.ts): only the composition root and chain-specific capabilities import src/chains/<family>.",
};
const DASHBOARD = {
  regex: "^(\\.\\./)+dashboard(/|$)",
  message: "The API transports (src/http, src/mcp) never import the dashboard: move what both need to a neutral module (e.g. src/lib/client-ip.ts) or a capability.",
};
const restrict = (...patterns) => ({
  "no-restricted-imports": ["error", { patterns }],
  // import("viem") at run time is an import too.
  "no-restricted-syntax": patterns.includes(SDK) ? ["error", { selector: `ImportExpression[source.value=/${SDK_REGEX.replace(/\//g, "\\/")}/]`, message: SDK.message }] : "off",
});

const FAMILIES = ["src/chains/evm/**", "src/chains/solana/**", "src/chains/starknet/**"];
const API_TRANSPORTS = ["src/http/**", "src/mcp/**"];
const TRANSPORTS = [...API_TRANSPORTS, "src/dashboard/**"];
const COMPOSITION_ROOT = ["src/deps.ts", "src/composition/**", "src/services.ts", "src/server.ts", "src/main.ts", "src/cli.ts"];
/** Chain-specific capabilities that use an SDK directly today. */
const SDK_ALLOWED = [
  "src/sandbox/**", // the sandbox EVM chain itself: anvil, deployed contracts, faucet, the self-service x402 demo client
  "src/venues/**", // venue adapters decode each venue's calldata / instructions (ABIs, Solana instruction decoders)
  "src/receipts/**", // receipts are EIP-712 typed data signed with the judge's secp256k1 key (SPEC): attestation crypto, not chain execution
  "src/x402/**", // x402 "exact" EVM scheme (EIP-3009 USDC authorizations), the protocol's own SDK
  "src/credits/topup/**", // top-ups are x402 payments in USDC on Base: the same scheme, verified on chain
  "src/swaps/**", // 0x and the sandbox pool quote and encode EVM swaps only
  "src/pricing/chainlink.ts", // reads Chainlink price feeds, EVM contracts
];
const ESCROW_CORE = ["src/proposals/**", "src/wallets/**"];
/** Self-custodial wallets are EVM-only (Sign-In with Ethereum); the EVM half is src/chains/evm/embedded.ts. */
const EMBEDDED_EVM = ["src/wallets/custody/embedded-siwe.ts", "src/wallets/custody/embedded-confirm.ts"];

const layering = [
  { files: ["src/**/*.{ts,tsx}"], ignores: [...FAMILIES, ...TRANSPORTS, ...COMPOSITION_ROOT, ...SDK_ALLOWED, ...ESCROW_CORE], rules: restrict(SDK, TRANSPORT) },
  { files: FAMILIES, rules: restrict(TRANSPORT) },
  { files: API_TRANSPORTS, rules: restrict(SDK, FAMILY, DASHBOARD) },
  { files: ["src/dashboard/**"], rules: restrict(SDK, FAMILY) },
  { files: COMPOSITION_ROOT, rules: restrict(SDK) },
  { files: SDK_ALLOWED, rules: restrict(TRANSPORT) },
  { files: ESCROW_CORE, ignores: EMBEDDED_EVM, rules: restrict(SDK, TRANSPORT, FAMILY) },
  { files: EMBEDDED_EVM, rules: restrict(SDK, TRANSPORT) },
];

export default tseslint.config(
  { ignores: ["node_modules", "data", "dist", "src/sandbox/contracts/artifacts", "src/dashboard/public"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "warn",
      "no-console": ["error", { allow: ["error", "warn"] }],
    },
  },
  { files: ["src/cli.ts", "src/judge/eval/**", "bench/**", "test/**"], rules: { "no-console": "off" } },
  ...layering,
  { files: ["scripts/**/*.mjs"], languageOptions: { globals: { process: "readonly", console: "readonly" } } },
);
