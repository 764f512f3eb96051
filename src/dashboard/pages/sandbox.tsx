/**
 * Sandbox self-service in the dashboard (only when the sandbox chain runs): buy credits through the real x402
 * top-up path paid by the faucet, and fund a wallet from the faucet. src/sandbox/self-service.ts does the work.
 */
import { Hono } from "hono";
import type { SandboxSelfService } from "../../sandbox/self-service";
import { SANDBOX_FUND_MAX, SANDBOX_SOLANA_FUND_MAX, SANDBOX_STARKNET_FUND_MAX } from "../../sandbox/self-service";
import type { DashboardDeps, DashboardEnv } from "../context";
import { CsrfField, Notice } from "../views/components";
import { seeOther } from "../views/render";

/** Says plainly what the sandbox is, on every page that deals with money. */
export function SandboxBanner() {
  return (
    <Notice kind="info">
      <strong>This is a sandbox.</strong> The chain is a local copy of Base (anvil, chain id 8453) run by this service; its ETH and USDC are test
      tokens from a faucet and have no value. Payments and transfers here go through the same code as in production.
    </Notice>
  );
}

export function SandboxBuyCredits(p: { csrf: string; sandbox: SandboxSelfService }) {
  const { minCredits, maxCredits } = p.sandbox.limits;
  return (
    <form method="post" action="/dashboard/credits/sandbox-buy" class="stack" id="sandbox-buy">
      <CsrfField token={p.csrf} />
      <p>
        Buy credits with sandbox USDC: the faucet funds a one-time payer with exactly the price, which signs an x402 v2 payment (EIP-3009) that is
        posted to this service's top-up endpoint and settled on the sandbox chain, like a real purchase.
      </p>
      <label for="sandbox-credits">Credits to buy</label>
      <input id="sandbox-credits" name="credits" type="number" min={minCredits} max={maxCredits} step="1" value="100" required />
      <button type="submit">Buy with sandbox USDC</button>
    </form>
  );
}

/** Each chain's fee asset, its per-request cap, and how much to fund before the first transfer. */
const FEE_ASSET = {
  base: { fee: "ETH", max: SANDBOX_FUND_MAX.ETH, note: "Gas: fund 0.05 ETH once before the first transfer." },
  starknet: { fee: "STRK", max: SANDBOX_STARKNET_FUND_MAX.STRK, note: "Fees: fund 1 STRK once before the first transfer (it also pays the account's deployment)." },
  solana: { fee: "SOL", max: SANDBOX_SOLANA_FUND_MAX.SOL, note: "Fees: fund 0.05 SOL once before the first transfer (it also pays the rent of its USDC account)." },
} as const;

/** The chains the sandbox faucet funds wallets on. */
export const SANDBOX_FUNDED_CHAINS = Object.keys(FEE_ASSET);

export function SandboxFundWallet(p: { csrf: string; walletId: string; chain?: string }) {
  const { fee, max: feeMax, note } = FEE_ASSET[(p.chain ?? "base") as keyof typeof FEE_ASSET] ?? FEE_ASSET.base;
  return (
    <section class="card">
      <h2>Fund from the sandbox faucet</h2>
      <p class="help">
        Sends test tokens to this wallet: {fee} pays its fees, USDC is what it moves. At most {feeMax} {fee} or {SANDBOX_FUND_MAX.USDC.toLocaleString("en-US")} USDC at a time.
      </p>
      <form method="post" action={`/dashboard/wallets/${encodeURIComponent(p.walletId)}/sandbox-fund`} class="row-fields" id="sandbox-fund">
        <CsrfField token={p.csrf} />
        <div class="stack">
          <label for="fund-asset">Asset</label>
          <select id="fund-asset" name="asset">
            <option value="USDC">USDC</option>
            <option value={fee}>{fee}</option>
          </select>
        </div>
        <div class="stack">
          <label for="fund-amount">Amount</label>
          <input id="fund-amount" name="amount" inputmode="decimal" value="100" required />
        </div>
        <div class="stack">
          <span aria-hidden="true">&nbsp;</span>
          <button type="submit">Fund</button>
        </div>
      </form>
      <p class="help">{note}</p>
    </section>
  );
}

export function sandboxRoutes(deps: DashboardDeps) {
  const app = new Hono<DashboardEnv>();
  app.post("/credits/sandbox-buy", async (c) => {
    const sandbox = deps.services.sandbox;
    if (!sandbox) return c.notFound();
    const body = await c.req.parseBody();
    await sandbox.buyCredits(c.get("principal"), Number(body.credits));
    return seeOther(c, "/dashboard/credits", "sandbox_credits");
  });
  app.post("/wallets/:id/sandbox-fund", async (c) => {
    const sandbox = deps.services.sandbox;
    if (!sandbox) return c.notFound();
    const body = await c.req.parseBody();
    const asset = body.asset === "ETH" || body.asset === "STRK" || body.asset === "SOL" ? body.asset : "USDC";
    await sandbox.fundWallet(c.get("principal"), c.req.param("id"), asset, String(body.amount ?? "").trim());
    return seeOther(c, `/dashboard/wallets/${encodeURIComponent(c.req.param("id"))}`, "sandbox_funded");
  });
  return app;
}
