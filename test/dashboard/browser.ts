import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import type { Kysely } from "kysely";
import type { DB } from "../../src/db/schema";
import { ROOT } from "../helpers/process";

/** Debian's Chromium (installed by `.ci/run`); browser tests skip when it is absent. */
export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);

const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** A fresh browser profile (its own cookies), headless. */
export async function launchBrowser(opts: { viewport?: { width: number; height: number } } = {}): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), "arbiter-chromium-"));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: opts.viewport ?? { width: 1280, height: 860 },
    locale: "en-US",
    timezoneId: "UTC",
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Screenshots are refreshed in docs/screenshots only with UPDATE_SCREENSHOTS=1 (so `npm test` leaves the
 * tracked images alone); otherwise they go to a temporary folder, still taken so every page renders.
 */
export const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === "1" ? path.join(ROOT, "docs", "screenshots") : path.join(tmpdir(), "arbiter-screenshots");

export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Decodes a QR code in a PNG with zbarimg when it is installed (optional), else null. */
export function decodeQr(file: string): string | null {
  try {
    return execFileSync("zbarimg", ["-q", "--raw", file], { stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
  } catch {
    return null;
  }
}

/** Signs up on the dashboard's sign-up page and creates an API key there; returns the key (shown once). */
export async function signUpWithKey(page: Page, baseUrl: string, email: string, password: string): Promise<string> {
  await page.goto(`${baseUrl}/dashboard/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(/\/dashboard\/keys/);
  await page.getByRole("button", { name: "Create API key" }).click();
  return (await page.locator("[data-copy^='svc_sk_live_']").getAttribute("data-copy"))!;
}

/**
 * An owner in Chromium on a running service: a browser and a page (dialogs accepted), signed up with an API key,
 * and `credits` granted by the admin API. For the end-to-end escrow tests of each chain.
 */
export async function ownerInBrowser(
  svc: { url: string; runtime: { database: { db: Kysely<DB> } }; admin: (method: string, route: string, body?: unknown) => Response | Promise<Response> },
  o: { email: string; password: string; credits: number },
) {
  const browser = await launchBrowser();
  const page = await browser.context.newPage();
  page.on("dialog", (d) => void d.accept());
  const apiKey = await signUpWithKey(page, svc.url, o.email, o.password);
  const user = await svc.runtime.database.db.selectFrom("users").select("account_id").where("email", "=", o.email).executeTakeFirstOrThrow();
  await svc.admin("POST", `/admin/v1/accounts/${user.account_id}/credits`, { credits: o.credits, reason: "e2e" });
  return { browser, page, apiKey };
}
