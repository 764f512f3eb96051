import { describe, expect, it } from "vitest";
import { safeNext } from "../../src/dashboard/pages/auth";
import { describeEntry } from "../../src/dashboard/pages/credits";
import { toVerifyRequest } from "../../src/dashboard/pages/playground";
import { changeInWords } from "../../src/dashboard/pages/escrow-widgets";
import { patchFromForm, previewLoosening, type Wallet } from "../../src/dashboard/escrow";
import { mergeLimits } from "../../src/wallets/limits";
import { offlineChain } from "../../src/chains/codecs";

const merge = (cur: Parameters<typeof mergeLimits>[0], p: Parameters<typeof mergeLimits>[1]) => mergeLimits(cur, p, offlineChain("base")!);
import { qrMatrix } from "../../src/dashboard/qr";
import { hashPassword, verifyPassword } from "../../src/dashboard/auth/password";
import { describeUserAgent } from "../../src/dashboard/views/user-agent";
import { verificationTitle } from "../../src/dashboard/views/format";

describe("dashboard helpers", () => {
  it("shows a user agent as browser and system", () => {
    expect(describeUserAgent("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36")).toBe("Chrome 120 on macOS");
    expect(describeUserAgent("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0")).toBe("Firefox 121 on Windows");
    expect(describeUserAgent("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1")).toBe("Safari 17 on iOS");
    expect(describeUserAgent("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91")).toBe("Edge 120 on Windows");
    expect(describeUserAgent("Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0 Mobile Safari/537.36")).toBe("Chrome 119 on Android");
    expect(describeUserAgent(null)).toBe("unknown device");
  });

  it("titles a wallet proposal's verification by its action and any other by its intent", () => {
    expect(verificationTitle({ source: "proposal", intent: "mandate", action: { summary: "transfer 5 USDC to 0xab…cd" } })).toBe("Wallet proposal: transfer 5 USDC to 0xab…cd");
    expect(verificationTitle({ source: "api", intent: "Only pay Bob.", action: { summary: "ignored outside proposals" } })).toBe("Only pay Bob.");
    expect(verificationTitle({ source: "proposal", intent: "mandate", action: "a string action" })).toBe("mandate");
    expect(verificationTitle({ source: "proposal", intent: "x".repeat(200), action: {} }, 10)).toBe(`${"x".repeat(10)}…`);
  });

  it("redirects after sign-in only to dashboard paths", () => {
    expect(safeNext("/dashboard/proposals/prop_1")).toBe("/dashboard/proposals/prop_1");
    expect(safeNext("/dashboard?x=1")).toBe("/dashboard?x=1");
    for (const bad of ["//evil.example", "https://evil.example/dashboard", "/dashboardx", "/dashboard\\evil", "/api/v1/credits", "", undefined]) expect(safeNext(bad)).toBe("/dashboard");
  });

  it("describes ledger entries with links to what caused them", () => {
    const id = "0f8fad5b-d9cb-469f-a165-70867728950e";
    expect(describeEntry("verification", id)).toEqual({ label: "Verification", href: `/dashboard/verifications/${id}` });
    expect(describeEntry("refund:judge_failed", id)).toEqual({ label: "Refund (judge failed)", href: `/dashboard/verifications/${id}` });
    expect(describeEntry("proposal:prop_abc", id).href).toBe("/dashboard/proposals/prop_abc");
    expect(describeEntry("admin:promo", null)).toEqual({ label: "Operator adjustment: promo" });
  });

  it("turns the playground form into the API's request", () => {
    expect(toVerifyRequest({ intent: "i", action: "a", format: "text", venue: "", preset: "generic", context: "" })).toEqual({ ok: true, req: { intent: "i", action: "a", preset: "generic" } });
    const json = toVerifyRequest({ intent: "i", action: '{"type":"order"}', format: "json", venue: "hyperliquid", preset: "trading", context: '{"price":1}' });
    expect(json).toEqual({ ok: true, req: { intent: "i", action: { type: "order" }, venue: "hyperliquid", preset: "trading", context: { price: 1 } } });
    expect(toVerifyRequest({ intent: "i", action: "42", format: "json", venue: "", preset: "generic", context: "" }).ok).toBe(false);
    expect(toVerifyRequest({ intent: "i", action: "a", format: "text", venue: "", preset: "generic", context: "[1]" }).ok).toBe(false);
  });

  it("says what a simulated change does in plain words, with the full counterparty", () => {
    const base = { assetType: "erc20", symbol: "USDC", name: "USD Coin", contractAddress: "0x", rawAmount: "1", decimals: 6, logoUrl: null } as const;
    expect(changeInWords({ ...base, direction: "out", changeType: "transfer", amount: "20", usdValue: 20, counterparty: "0xabc" })).toEqual({ verb: "Sends", what: "20 USDC ($20.00)", prep: "to" });
    expect(changeInWords({ ...base, direction: "in", changeType: "transfer", amount: "1", usdValue: null, counterparty: "0xabc" }).what).toBe("1 USDC (no USD price)");
    expect(changeInWords({ ...base, direction: "out", changeType: "approval", amount: "5", usdValue: 5, counterparty: "0xabc", unlimited: true }).what).toBe("any amount of USDC be spent");
  });

  it("previews what a rule change loosens, and nothing when it tightens", () => {
    const w = { name: "w", mandate: "pay vendors", limits: { maxPerTxUsd: 100, recipientAllowlist: ["0x1111111111111111111111111111111111111111"] } } as unknown as Wallet;
    const form = { name: "w", mandate: "pay vendors", maxPerTxUsd: "50", dailyCapUsd: "", tokenAllowlist: "", recipientAllowlist: "0x1111111111111111111111111111111111111111" };
    const tighter = patchFromForm(w, form);
    expect(tighter).toEqual({ limits: { maxPerTxUsd: 50 } });
    expect(previewLoosening(w, tighter, merge).loosened).toEqual([]);
    const looser = patchFromForm(w, { ...form, maxPerTxUsd: "", recipientAllowlist: "", mandate: "anything goes" });
    expect(looser).toEqual({ mandate: "anything goes", limits: { maxPerTxUsd: null, recipientAllowlist: null } });
    const l = previewLoosening(w, looser, merge).loosened.join("\n");
    expect(l).toContain("mandate replaced");
    expect(l).toContain("maxPerTxUsd removed");
    expect(l).toContain("recipientAllowlist removed");
  });

  it("encodes QR codes of the right size with fixed finder patterns", () => {
    const m = qrMatrix("0x1111111111111111111111111111111111111111");
    expect(m.length).toBe(29); // version 3 at level M holds exactly 42 bytes
    const finder = [0, 1, 2, 3, 4, 5, 6].map((y) => [0, 1, 2, 3, 4, 5, 6].map((x) => (m[y][x] ? 1 : 0)).join("")).join("/");
    expect(finder).toBe("1111111/1000001/1011101/1011101/1011101/1000001/1111111");
    expect(qrMatrix("0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d").length).toBe(37);
    expect(() => qrMatrix("x".repeat(300))).toThrow();
  });

  it("hashes passwords with scrypt and a per-password salt", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterY", a)).toBe(false);
    expect(await verifyPassword("x", "garbage")).toBe(false);
  });
});
