import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { DashboardClient } from "../dashboard/client";

let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime({ env: { PUBLIC_URL: "http://localhost", WEBHOOK_POLL_MS: "60000" } });
});
afterAll(async () => t?.close());

it("the owner adds an endpoint (secret shown once), rotates, pauses, sets the low-credit threshold; another owner cannot see it", async () => {
  const owner = new DashboardClient(t);
  await owner.signUp("hooks@example.com");
  await owner.get("/dashboard/webhooks");
  const bad = await owner.post("/dashboard/webhooks", { url: "https://10.1.2.3/x", events: "credits.low" });
  expect(bad.status).toBe(200);
  expect(await bad.text()).toMatch(/url: .*not allowed/);
  const res = await owner.post("/dashboard/webhooks", { url: "https://hooks.example.com/arbiter", events: "proposal.awaiting_user" });
  const html = await res.text();
  const secret = /data-copy="(whsec_[^"]+)"/.exec(html)?.[1];
  expect(secret).toBeTruthy();
  const id = /href="\/dashboard\/webhooks\/(whep_[a-z0-9]+)"/.exec(html)?.[1];
  expect(id).toBeTruthy();
  // Shown once: the endpoint page never carries it again.
  const page = await (await owner.get(`/dashboard/webhooks/${id}`)).text();
  expect(page).not.toContain(secret!);
  expect(page).toContain("proposal.awaiting_user");
  // Stored sealed: the plain secret is nowhere in the database row.
  const row = await t.runtime.database.db.selectFrom("webhook_endpoints").selectAll().where("id", "=", id!).executeTakeFirstOrThrow();
  expect(JSON.stringify(row)).not.toContain(secret!.slice(6));

  const rotated = await (await owner.post(`/dashboard/webhooks/${id}/rotate`, {})).text();
  const secret2 = /data-copy="(whsec_[^"]+)"/.exec(rotated)?.[1];
  expect(secret2).toBeTruthy();
  expect(secret2).not.toBe(secret);
  await owner.get(`/dashboard/webhooks/${id}`);
  expect((await owner.post(`/dashboard/webhooks/${id}/pause`, {})).status).toBe(303);
  expect(await (await owner.get(`/dashboard/webhooks/${id}`)).text()).toMatch(/s-muted">paused/);

  await owner.get("/dashboard/webhooks");
  expect((await owner.post("/dashboard/webhooks/credits-low", { threshold: "25" })).status).toBe(303);
  expect(await (await owner.get("/dashboard/webhooks")).text()).toMatch(/name="threshold"[^>]*value="25"/);

  const stranger = new DashboardClient(t);
  await stranger.signUp("other@example.com");
  expect((await stranger.get(`/dashboard/webhooks/${id}`)).status).toBe(404);
  await stranger.get("/dashboard/webhooks");
  expect((await stranger.post(`/dashboard/webhooks/${id}/delete`, {})).status).toBe(404);
  expect(await (await stranger.get("/dashboard/webhooks")).text()).not.toContain("hooks.example.com");
});
