import { Hono } from "hono";
import { UUID_RE } from "../../lib/ids";
import type { DashboardDeps, DashboardEnv } from "../context";
import { Copy, Empty, ExternalLink, Field, Notice, Time } from "../views/components";
import { credits, signed, usd } from "../views/format";
import { noticeFrom, render } from "../views/render";
import { SandboxBanner, SandboxBuyCredits } from "./sandbox";

/** The top-up terms of SPEC 2.3 (`topup`), as far as the page uses them. */
export interface TopupTerms {
  available?: boolean;
  protocol?: string;
  method?: string;
  url?: string;
  accountCode?: string;
  network?: string;
  asset?: string;
  payTo?: string;
  minCredits?: number;
  maxCredits?: number;
  guideUrl?: string;
  note?: string;
}

/** A ledger line in words, with a link to what caused it when the page has one. */
export function describeEntry(reason: string, ref: string | null): { label: string; href?: string } {
  const verification = ref && UUID_RE.test(ref) ? `/dashboard/verifications/${ref}` : undefined;
  const proposalRef = /^proposal:(.+)$/.exec(reason)?.[1] ?? (ref?.startsWith("prop_") ? ref : undefined);
  if (reason === "verification") return { label: "Verification", href: verification };
  if (proposalRef) return { label: "Proposal judged", href: `/dashboard/proposals/${encodeURIComponent(proposalRef)}` };
  if (reason.startsWith("refund:")) return { label: `Refund (${reason.slice(7).replace(/_/g, " ")})`, href: verification };
  if (reason === "grant:opening") return { label: "Opening credits" };
  if (reason.startsWith("admin:")) return { label: `Operator adjustment: ${reason.slice(6)}` };
  if (reason.startsWith("topup")) return { label: "Top-up (USDC over x402)" };
  return { label: reason, href: verification };
}

type Entry = Awaited<ReturnType<DashboardDeps["services"]["credits"]["ledger"]>>[number];

function Terms(p: { t: TopupTerms; price: number }) {
  const t = p.t;
  return (
    <>
      <dl class="kvs">
        <Field label="Account code">{t.accountCode ? <Copy value={t.accountCode} label="account code" /> : "n/a"}</Field>
        <Field label="Pay to">{t.payTo ? <Copy value={t.payTo} label="recipient address" /> : <span class="muted">set by the payment terms of each request</span>}</Field>
        <Field label="Network">
          <code>{t.network ?? "eip155:8453"}</code> (Base)
        </Field>
        <Field label="Asset">{t.asset ? <Copy value={t.asset} label="USDC contract address" /> : "USDC"}</Field>
        <Field label="Price">
          {usd(p.price)} per credit; {t.minCredits ?? 20} to {(t.maxCredits ?? 10000).toLocaleString("en-US")} credits per payment
        </Field>
        <Field label="Endpoint">
          <code>
            {t.method ?? "POST"} {t.url ?? "/api/v1/credits/topup?credits=N"}
          </code>
        </Field>
      </dl>
      {t.note && <p class="help">{t.note}</p>}
      <h3>How to top up</h3>
      <ol class="steps">
        <li>
          Call the endpoint with an API key, or with <code>?account=</code> and the account code above (anyone can pay for this account with the
          code; it cannot spend anything).
        </li>
        <li>
          The first answer is <code>402</code> with x402 v2 terms in the <code>PAYMENT-REQUIRED</code> header. An x402 client (for example{" "}
          <code>@x402/fetch</code>) signs a USDC authorization for exactly that amount and retries with <code>PAYMENT-SIGNATURE</code>.
        </li>
        <li>Credits are added once the payment settles on Base. A plain USDC transfer to the address credits nothing.</li>
      </ol>
      {t.guideUrl && (
        <p>
          <ExternalLink href={t.guideUrl}>The full top-up guide</ExternalLink>
        </p>
      )}
    </>
  );
}

function Ledger(p: { entries: Entry[] }) {
  if (p.entries.length === 0) return <Empty title="No credit movements yet." />;
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">What</th>
            <th scope="col" class="num">
              Change
            </th>
            <th scope="col" class="num">
              Balance
            </th>
          </tr>
        </thead>
        <tbody>
          {p.entries.map((e) => {
            const d = describeEntry(e.reason, e.ref);
            return (
              <tr>
                <td>
                  <Time d={e.created_at} />
                </td>
                <td>{d.href ? <a href={d.href}>{d.label}</a> : d.label}</td>
                <td class={`num ${e.delta < 0 ? "neg" : "pos"}`}>{signed(e.delta)}</td>
                <td class="num">{e.balance_after.toLocaleString("en-US")}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function creditRoutes(deps: DashboardDeps) {
  const app = new Hono<DashboardEnv>();
  app.get("/credits", async (c) => {
    const principal = c.get("principal");
    const [info, entries] = await Promise.all([deps.services.credits.get(principal), deps.services.credits.ledger(principal, 200)]);
    const topup = (info as { topup?: TopupTerms }).topup;
    return render(
      c,
      { title: "Credits", active: "credits" },
      <>
        {noticeFrom(c) && <Notice kind={noticeFrom(c)!.kind}>{noticeFrom(c)!.text}</Notice>}
        {deps.services.sandbox && <SandboxBanner />}
        <section class="card stat-row">
          <div class="stat">
            <span class="stat-label">Balance</span>
            <span class="stat-value">{credits(info.creditsRemaining)}</span>
            <span class="help">worth {usd(info.creditsRemaining * info.priceUsdPerCredit)} at {usd(info.priceUsdPerCredit)} each</span>
          </div>
          <p class="help">A verification costs one credit (refunded when the run fails). A proposal costs one credit when the judge runs.</p>
        </section>
        <section class="card">
          <h2>Top up with USDC</h2>
          {deps.services.sandbox && <SandboxBuyCredits csrf={c.get("session").csrfToken} sandbox={deps.services.sandbox} />}
          {topup && topup.available !== false ? (
            <Terms t={topup} price={info.priceUsdPerCredit} />
          ) : (
            <Notice kind="info">
              Top-ups are not enabled on this deployment. Ask the operator to add credits, or to configure x402 top-ups.
            </Notice>
          )}
        </section>
        <section>
          <h2>Ledger</h2>
          <p class="help">Every change to the balance, newest first (the last 200).</p>
          <Ledger entries={entries} />
        </section>
      </>,
    );
  });
  return app;
}
