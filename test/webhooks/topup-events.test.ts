import { afterAll, beforeAll, expect, it } from "vitest";
import { ALL_SCOPES } from "../../src/accounts/principal";
import { startTopupRuntime, type TopupRuntime } from "../topup/helpers";
import { startReceiver, type Receiver } from "./receiver";

let t: TopupRuntime;
let rx: Receiver;
beforeAll(async () => {
  t = await startTopupRuntime({ env: { ALLOW_LOOPBACK_FETCH: "true", WEBHOOK_POLL_MS: "50" } });
  rx = await startReceiver();
});
afterAll(async () => {
  await rx?.close();
  await t?.close();
});

it("sends credits.topped_up once per settled x402 top-up, not for a replayed authorization", async () => {
  const a = await t.createAccount(0);
  const { secret } = await t.runtime.services.webhooks.create({ accountId: a.accountId, authMethod: "session", scopes: ALL_SCOPES, credentialId: null }, { url: rx.url, events: ["credits.topped_up", "credits.low"] });
  rx.setSecret(secret);
  const payer = await t.payer("5");
  const signed = await t.sign(payer, "?credits=20", { "x-api-key": a.apiKey });
  const first = await t.post("?credits=20", { "x-api-key": a.apiKey, "payment-signature": signed.header });
  expect(first.status).toBe(200);
  const replay = await t.post("?credits=20", { "x-api-key": a.apiKey, "payment-signature": signed.header });
  expect(replay.body).toMatchObject({ replayed: true });
  const got = await rx.waitFor((x) => x.length >= 1);
  await new Promise((ok) => setTimeout(ok, 300));
  expect(rx.accepted()).toHaveLength(1);
  expect(got[0]).toMatchObject({ type: "credits.topped_up", verified: true });
  expect(got[0].data).toMatchObject({ credited: 20, creditsRemaining: 20, reason: "topup:x402" });
});
