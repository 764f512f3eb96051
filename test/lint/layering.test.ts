/**
 * The layering rules in eslint.config.js (docs/architecture.md) fire: ESLint's own Node API lints small
 * in-memory snippets as if they were files at the given paths, so a rule that is deleted, narrowed by a
 * later config block or broken by a typo in its pattern fails here instead of silently allowing a breach.
 */
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });
// Loading the config and the TypeScript parser takes seconds on a busy machine; do it once, up front.
beforeAll(() => eslint.lintText("export {};\n", { filePath: "src/lib/warm-up.ts" }), 60_000);

/** The rule ids that fired for `code` linted as `filePath` (only the layering rules are looked at). */
async function layeringErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === "no-restricted-imports" || m.ruleId === "no-restricted-syntax").map((m) => `${m.ruleId}: ${m.message}`);
}
const importing = (from: string) => `import * as m from ${JSON.stringify(from)};\nexport const used = m;\n`;

describe("chain SDKs only in src/chains/<family> (and the listed exceptions)", () => {
  const sdks = ["viem", "viem/accounts", "@solana/kit", "@solana-program/token", "starknet", "litesvm", "secp256k1", "tiny-secp256k1", "@x402/evm"];

  it.each(sdks)("refuses %s in the escrow core, lib, the judge, the transports and the chain-neutral port", async (sdk) => {
    for (const file of ["src/proposals/propose.ts", "src/wallets/limits.ts", "src/lib/hashing.ts", "src/judge/rules/engine.ts", "src/http/routes/wallets.ts", "src/mcp/tools/proposals.ts", "src/dashboard/escrow.ts", "src/chains/port.ts", "src/deps.ts"]) {
      const errors = await layeringErrors(file, importing(sdk));
      expect(errors, `${sdk} in ${file}`).toHaveLength(1);
      expect(errors[0]).toMatch(/no-restricted-imports: .*Chain SDKs belong in src\/chains\/<family>/);
    }
  });

  it("counts type-only imports, re-exports and dynamic import() too", async () => {
    expect(await layeringErrors("src/wallets/present.ts", 'import type { Hex } from "viem";\nexport type H = Hex;\n')).toHaveLength(1);
    expect(await layeringErrors("src/proposals/x.ts", 'export { getAddress } from "viem";\n')).toHaveLength(1);
    const dynamic = await layeringErrors("src/proposals/x.ts", 'export const load = () => import("@solana/kit");\n');
    expect(dynamic).toEqual([expect.stringMatching(/^no-restricted-syntax: Chain SDKs belong/)]);
  });

  it("allows them in each family folder and in the named exceptions", async () => {
    for (const [file, sdk] of [
      ["src/chains/evm/plan.ts", "viem"],
      ["src/chains/solana/plan.ts", "@solana/kit"],
      ["src/chains/starknet/plan.ts", "starknet"],
      ["src/chains/solana/sandbox/server.ts", "litesvm"],
      ["src/venues/adapters/aave.ts", "viem"],
      ["src/venues/lib/solana-ix.ts", "@solana-program/system"],
      ["src/sandbox/chain.ts", "viem"],
      ["src/receipts/signer.ts", "tiny-secp256k1"],
      ["src/x402/facilitator.ts", "@x402/evm"],
      ["src/credits/topup/evidence.ts", "viem"],
      ["src/swaps/zerox.ts", "viem"],
      ["src/pricing/chainlink.ts", "viem"],
    ]) {
      expect(await layeringErrors(file, importing(sdk)), `${sdk} in ${file}`).toEqual([]);
    }
    // Neutral names that merely look alike stay allowed.
    expect(await layeringErrors("src/proposals/x.ts", importing("@x402/core/types"))).toEqual([]);
    expect(await layeringErrors("src/proposals/x.ts", importing("./viem-free"))).toEqual([]);
  });
});

describe("capabilities never import a transport", () => {
  it.each([
    ["src/swaps/wiring.ts", "../http/routes/swap"],
    ["src/swaps/wiring.ts", "../mcp/tools/swaps"],
    ["src/oauth/model.ts", "../mcp/auth"],
    ["src/oauth/service.ts", "../dashboard/auth/service"],
    ["src/credits/topup/guide.ts", "../../http/types"],
    ["src/proposals/propose.ts", "../mcp/results"],
    ["src/chains/evm/adapter.ts", "../../http/types"],
    ["src/venues/adapters/aave.ts", "../../mcp"],
    ["src/lib/errors.ts", "../http/errors"],
  ])("%s importing %s fails", async (file, from) => {
    const errors = await layeringErrors(file, importing(from));
    expect(errors).toEqual([expect.stringMatching(/^no-restricted-imports: .*A capability never imports a transport/)]);
  });

  it("the transports, and the composition root that wires them, may", async () => {
    expect(await layeringErrors("src/mcp/auth.ts", importing("../http/auth"))).toEqual([]);
    expect(await layeringErrors("src/dashboard/pages/auth.tsx", importing("../../http/errors"))).toEqual([]);
    expect(await layeringErrors("src/deps.ts", importing("./http/routes/swap"))).toEqual([]);
    expect(await layeringErrors("src/deps.ts", importing("./chains/evm/adapter"))).toEqual([]);
  });
});

describe("the API transports never import the dashboard", () => {
  it.each([
    ["src/http/routes/oauth.ts", "../../dashboard/context"],
    ["src/http/app.ts", "../dashboard"],
    ["src/http/routes/wallets.ts", "../../dashboard/auth/service"],
    ["src/mcp/tools/proposals.ts", "../../dashboard/escrow"],
  ])("%s importing %s fails", async (file, from) => {
    const errors = await layeringErrors(file, importing(from));
    expect(errors).toEqual([expect.stringMatching(/^no-restricted-imports: .*never import the dashboard/)]);
  });

  it("the neutral client-IP module is open to both, and the other API rules still hold there", async () => {
    expect(await layeringErrors("src/http/routes/oauth.ts", importing("../../lib/client-ip"))).toEqual([]);
    expect(await layeringErrors("src/dashboard/pages/auth.tsx", importing("../../lib/client-ip"))).toEqual([]);
    expect(await layeringErrors("src/http/routes/oauth.ts", importing("viem"))).toEqual([expect.stringMatching(/Chain SDKs belong/)]);
    expect(await layeringErrors("src/http/routes/oauth.ts", importing("../../chains/evm/adapter"))).toEqual([expect.stringMatching(/Go through the chain port/)]);
  });
});

describe("transports, the dashboard and the escrow core go through the chain port", () => {
  it.each([
    ["src/http/routes/wallets.ts", "../../chains/evm/adapter"],
    ["src/mcp/tools/proposals.ts", "../../chains/solana/codec"],
    ["src/dashboard/escrow.ts", "../chains/starknet/felt"],
    ["src/dashboard/views/wallet.tsx", "../../chains/evm/explorer"],
    ["src/proposals/propose.ts", "../chains/evm/plan"],
    ["src/wallets/present.ts", "../chains/evm/tokens"],
  ])("%s importing %s fails", async (file, from) => {
    const errors = await layeringErrors(file, importing(from));
    expect(errors).toEqual([expect.stringMatching(/^no-restricted-imports: .*Go through the chain port/)]);
  });

  it("the port and its neutral types are open to them", async () => {
    expect(await layeringErrors("src/mcp/tools/proposals.ts", importing("../../chains/summary"))).toEqual([]);
    expect(await layeringErrors("src/dashboard/escrow.ts", importing("../chains/port"))).toEqual([]);
    expect(await layeringErrors("src/proposals/propose.ts", importing("../chains/types"))).toEqual([]);
  });
});

describe("the files moved out of the way stay clean", () => {
  it("the former breaches lint without a layering error", { timeout: 60_000 }, async () => {
    const files = ["src/http/routes/oauth.ts", "src/swaps/wiring.ts", "src/oauth/model.ts", "src/oauth/service.ts", "src/wallets/custody/embedded-siwe.ts", "src/wallets/custody/embedded-confirm.ts", "src/lib/hashing.ts", "src/lib/keccak.ts", "src/deps.ts"];
    const results = await eslint.lintFiles(files);
    expect(results).toHaveLength(files.length);
    const layering = results.flatMap((r) => r.messages.filter((m) => m.ruleId === "no-restricted-imports" || m.ruleId === "no-restricted-syntax").map((m) => `${r.filePath}: ${m.message}`));
    expect(layering).toEqual([]);
  });
});
