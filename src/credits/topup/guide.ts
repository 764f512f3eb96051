/**
 * GET /api/v1/credits/topup/guide: everything a developer needs to buy credits without other help.
 * JSON by default (terms, steps, a runnable @x402/fetch example, the responses); readable HTML for browsers.
 */
import { PRICE_USD_PER_CREDIT } from "../../lib/money";
import { X402_VERSION } from "../../x402";
import { USDC_DECIMALS, USDC_EIP712_NAME, USDC_EIP712_VERSION } from "../../sandbox/addresses";
import { CREDITS_PER_USD, quoteForCredits, USD_MAX, USD_MIN } from "./quote";
import { guideUrl, TOPUP_PATH, type TopupSettings } from "./terms";

export function exampleCode(s: TopupSettings): string {
  const endpoint = `${s.publicUrl}${TOPUP_PATH}`;
  return `// Node.js 20+, saved as topup.mts and run with: npx tsx topup.mts
// npm install @x402/fetch @x402/evm viem
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";

// The wallet that pays: it needs USDC on Base (no ETH: the facilitator pays the gas).
const account = privateKeyToAccount(process.env.PAYER_PRIVATE_KEY as \`0x\${string}\`);

const client = new x402Client();
registerExactEvmScheme(client, { signer: account });
// The x402 client refuses to pay more than $1 per request unless told otherwise.
client.setSpendControls({ maxAmountPerPayment: "$5" });
const fetchWithPayment = wrapFetchWithPayment(fetch, client);

const credits = Number(process.env.CREDITS ?? "100"); // ${s.minCredits} to ${s.maxCredits}; $0.05 each
const apiKey = process.env.ARBITER_API_KEY;
const accountCode = process.env.ARBITER_ACCOUNT_CODE; // svc_topup_... : pay for an account without its key
const url = \`${endpoint}?credits=\${credits}\${apiKey ? "" : \`&account=\${accountCode}\`}\`;

// First answer: 402 with the terms in PAYMENT-REQUIRED; the wrapper signs them and retries with PAYMENT-SIGNATURE.
const res = await fetchWithPayment(url, { method: "POST", headers: apiKey ? { "x-api-key": apiKey } : {} });
const body = await res.json();
console.log(res.status, JSON.stringify(body));
const settlement = res.headers.get("PAYMENT-RESPONSE");
if (settlement) console.log(JSON.stringify(decodePaymentResponseHeader(settlement)));
if (res.status !== 200) process.exit(1);
`;
}

export function buildGuide(s: TopupSettings) {
  const endpoint = `${s.publicUrl}${TOPUP_PATH}`;
  return {
    title: "Buy Arbiter credits with USDC over x402",
    summary:
      `Credits cost ${PRICE_USD_PER_CREDIT} USD each and are paid in USDC on Base with the x402 v2 payment protocol (scheme exact, an EIP-3009 ` +
      `transferWithAuthorization the payer signs; the facilitator pays the gas). Any x402 v2 client works; the example uses @x402/fetch. ` +
      `A plain USDC transfer to the payTo address credits nothing.`,
    terms: {
      protocol: "x402",
      x402Version: X402_VERSION,
      scheme: "exact",
      method: "POST",
      endpoint,
      network: s.network,
      asset: s.asset,
      assetSymbol: "USDC",
      assetDecimals: USDC_DECIMALS,
      eip712Domain: { name: USDC_EIP712_NAME, version: USDC_EIP712_VERSION },
      payTo: s.payTo,
      maxTimeoutSeconds: s.maxTimeoutSeconds,
      priceUsdPerCredit: PRICE_USD_PER_CREDIT,
      minCredits: s.minCredits,
      maxCredits: s.maxCredits,
      usd: { min: USD_MIN, max: USD_MAX, creditsPerUsd: CREDITS_PER_USD },
      defaultCredits: s.minCredits,
    },
    amount: [
      `?credits=N buys N credits (${s.minCredits} to ${s.maxCredits}).`,
      `?usd=N buys N whole dollars of credits (${USD_MIN} to ${USD_MAX}, ${CREDITS_PER_USD} credits per dollar). The usd and credits limits are separate: usd=${USD_MAX} buys ${USD_MAX * CREDITS_PER_USD} credits.`,
      "Send one of the two, never both (400).",
      `With neither, the amount is the minimum: ${s.minCredits} credits ($${quoteForCredits(s.minCredits).usd}); the 402 message says so.`,
    ],
    whoIsCredited: [
      "With an API key (x-api-key or Authorization: Bearer), the key's account is credited and the receipt shows creditsRemaining.",
      "Without a key, add ?account=<top-up code> (svc_topup_..., shown as topup.accountCode on GET /api/v1/credits and in the dashboard). Anyone may pay for an account with its code; the code cannot spend anything. The receipt then has no creditsRemaining.",
      "When a key is sent, account is ignored.",
    ],
    steps: [
      `POST ${endpoint}?credits=N with your API key (or &account=<code>). The answer is 402 with the x402 v2 PaymentRequired, base64-encoded in the PAYMENT-REQUIRED header, and a JSON body {error: "payment_required", message, x402Version: 2, credits, usd}.`,
      `Sign the one accepts entry: an EIP-3009 TransferWithAuthorization of exactly amount atomic USDC (6 decimals) from your wallet to payTo, on ${s.network}, EIP-712 domain {name: "${USDC_EIP712_NAME}", version: "${USDC_EIP712_VERSION}"}, validBefore at most maxTimeoutSeconds ahead, a random 32-byte nonce.`,
      "Repeat the same POST with header PAYMENT-SIGNATURE: base64 of the x402 v2 PaymentPayload {x402Version: 2, resource, accepted, payload: {signature, authorization}}.",
      "The service verifies the payment, settles it on Base and credits the account once. 200 returns {credited, usd, creditsRemaining (API key only), txHash, payer, replayed} and the settlement in the PAYMENT-RESPONSE header.",
      "If anything fails in transit (a 502, a timeout, a dropped connection), send the same request with the same PAYMENT-SIGNATURE again: an authorization is credited at most once, and a repeat returns the original receipt with replayed: true.",
    ],
    example: { language: "typescript", file: "topup.mts", install: "npm install @x402/fetch @x402/evm viem", code: exampleCode(s) },
    responses: [
      { status: 200, body: "top-up receipt", when: "settled and credited (or the same authorization again: replayed: true)" },
      { status: 400, error: "invalid_credits | invalid_usd | invalid_amount", when: "credits or usd out of range, or both sent" },
      { status: 401, error: "missing_account", when: "no API key and no ?account=" },
      { status: 401, error: "invalid or revoked API key", when: "the key is unknown or revoked" },
      { status: 402, error: "payment_required", when: "no payment attached, or the payment was refused (code says why: e.g. invalid_exact_evm_insufficient_balance, invalid_exact_evm_payload_authorization_valid_before, terms_mismatch); fresh terms in PAYMENT-REQUIRED" },
      { status: 402, error: "x402 v1 payments are not supported: ...", when: "the legacy X-PAYMENT header was sent" },
      { status: 402, error: "this wallet cannot complete the payment: ...", code: "wallet_unsupported", when: "a smart-contract or EIP-7702-delegated payer whose signature USDC rejects; use a plain wallet" },
      { status: 404, error: "invalid_account", when: "unknown top-up code" },
      { status: 409, error: "payment_claimed", when: "this authorization was already submitted for a different account" },
      { status: 502, error: "facilitator_unavailable", when: "settlement service or chain unreachable; retry after Retry-After seconds with the same PAYMENT-SIGNATURE" },
      { status: 503, error: "topup_not_configured", when: "top-ups are not enabled on this deployment" },
    ],
    mcp: {
      tool: "topup_credits",
      arguments: { credits: `integer, ${s.minCredits} to ${s.maxCredits}` },
      flow: 'Call it without payment: the result is isError with the x402 PaymentRequired in structuredContent and _meta["x402/payment-required"]. Sign it (x402Client.createPaymentPayload) and call again with the PaymentPayload in _meta["x402/payment"]; the settlement comes back in _meta["x402/payment-response"].',
    },
    ...(s.sandbox
      ? {
          sandbox:
            "This deployment runs the sandbox chain: a local chain that looks like Base (chain id 8453, USDC at its Base address). Test USDC comes from the operator: `npm run cli -- sandbox fund --address 0x... --asset USDC --amount 10`.",
        }
      : {}),
    guideUrl: guideUrl(s),
  };
}

const esc = (v: unknown): string => String(v).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

export function renderGuideHtml(s: TopupSettings): string {
  const g = buildGuide(s);
  const t = g.terms;
  const row = (k: string, v: unknown) => `<tr><th>${esc(k)}</th><td><code>${esc(v)}</code></td></tr>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(g.title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:54rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
code,pre{font:14px/1.45 ui-monospace,monospace}pre{background:#f3f4f6;padding:1rem;overflow:auto;border-radius:6px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e5e7eb;vertical-align:top}
th{white-space:nowrap;font-weight:600}h2{margin-top:2rem}
</style></head><body>
<h1>${esc(g.title)}</h1>
<p>${esc(g.summary)}</p>
<h2>Terms</h2>
<table>
${row("Endpoint", `${t.method} ${t.endpoint}?credits=N`)}
${row("Protocol", `x402 v${t.x402Version}, scheme ${t.scheme}`)}
${row("Network", t.network)}
${row("Asset (USDC, 6 decimals)", t.asset)}
${row("EIP-712 domain", `${t.eip712Domain.name} / ${t.eip712Domain.version}`)}
${row("Pay to", t.payTo)}
${row("Price", `${t.priceUsdPerCredit} USD per credit`)}
${row("credits", `${t.minCredits} to ${t.maxCredits}`)}
${row("usd", `${t.usd.min} to ${t.usd.max} (whole dollars, ${t.usd.creditsPerUsd} credits per dollar)`)}
${row("Default amount", `${t.defaultCredits} credits`)}
${row("maxTimeoutSeconds", t.maxTimeoutSeconds)}
</table>
<h2>Amount</h2><ul>${g.amount.map((l) => `<li>${esc(l)}</li>`).join("")}</ul>
<h2>Which account is credited</h2><ul>${g.whoIsCredited.map((l) => `<li>${esc(l)}</li>`).join("")}</ul>
<h2>Steps</h2><ol>${g.steps.map((l) => `<li>${esc(l)}</li>`).join("")}</ol>
<h2>Example (TypeScript, @x402/fetch)</h2>
<pre><code>${esc(g.example.install)}</code></pre>
<pre><code>${esc(g.example.code)}</code></pre>
<h2>Responses</h2>
<table><tr><th>Status</th><th>error</th><th>When</th></tr>
${g.responses.map((r) => `<tr><td>${r.status}</td><td><code>${esc(r.error ?? r.body ?? "")}</code>${r.code ? ` (code <code>${esc(r.code)}</code>)` : ""}</td><td>${esc(r.when)}</td></tr>`).join("\n")}
</table>
<h2>MCP</h2><p>Tool <code>${esc(g.mcp.tool)}</code> (credits: ${esc(g.mcp.arguments.credits)}). ${esc(g.mcp.flow)}</p>
${"sandbox" in g ? `<h2>Sandbox</h2><p>${esc(g.sandbox)}</p>` : ""}
</body></html>`;
}
