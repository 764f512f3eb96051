import type { Child } from "hono/jsx";
import type { Session } from "../auth/service";
import { CsrfField } from "./components";

export type NavKey = "overview" | "proposals" | "wallets" | "verifications" | "playground" | "credits" | "keys" | "connected" | "traders" | "webhooks" | "account";

const NAV: { key: NavKey; href: string; label: string }[] = [
  { key: "overview", href: "/dashboard", label: "Overview" },
  { key: "proposals", href: "/dashboard/proposals", label: "Proposals" },
  { key: "wallets", href: "/dashboard/wallets", label: "Wallets" },
  { key: "verifications", href: "/dashboard/verifications", label: "Verifications" },
  { key: "playground", href: "/dashboard/playground", label: "Playground" },
  { key: "credits", href: "/dashboard/credits", label: "Credits" },
  { key: "keys", href: "/dashboard/keys", label: "API keys" },
  { key: "connected", href: "/dashboard/connected-clients", label: "Connected apps" },
  { key: "traders", href: "/dashboard/traders", label: "Traders" },
  { key: "webhooks", href: "/dashboard/webhooks", label: "Webhooks" },
  { key: "account", href: "/dashboard/account", label: "Account" },
];

export interface PageProps {
  title: string;
  /** Absent on the signed-out pages (sign-in, sign-up, claim). */
  session?: Session;
  active?: NavKey;
  /** Held proposals, shown as a badge in the navigation. */
  pending?: number;
  children: Child;
}

export function Page(p: PageProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        {p.session && <meta name="csrf-token" content={p.session.csrfToken} />}
        <title>{`${p.title} · Arbiter`}</title>
        <link rel="stylesheet" href="/dashboard/assets/app.css" />
        <link rel="icon" href="/dashboard/assets/favicon.svg" type="image/svg+xml" />
        <script type="module" src="/dashboard/assets/app.js"></script>
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <a class="brand" href="/dashboard">
            Arbiter
          </a>
          {p.session && (
            <form method="post" action="/dashboard/logout" class="signout">
              <span class="who" title={p.session.email}>
                {p.session.email}
              </span>
              <CsrfField token={p.session.csrfToken} />
              <button type="submit" class="link">
                Sign out
              </button>
            </form>
          )}
        </header>
        {p.session && (
          <nav aria-label="Dashboard" class="nav">
            <ul>
              {NAV.map((n) => (
                <li>
                  <a href={n.href} aria-current={p.active === n.key ? "page" : undefined}>
                    {n.label}
                    {n.key === "proposals" && p.pending ? (
                      <span class="badge" aria-label={`${p.pending} held`}>
                        {p.pending}
                      </span>
                    ) : null}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <main id="main" tabindex={-1}>
          <h1>{p.title}</h1>
          {p.children}
        </main>
      </body>
    </html>
  );
}
