import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLES, toVerifyRequest } from "../../src/dashboard/pages/playground";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime();
});
afterAll(async () => {
  await t.close();
});

describe("playground examples", () => {
  it("include at least one ALLOW and one BLOCK", () => {
    const shown = new Set(Object.values(EXAMPLES).map((e) => e.shows));
    expect(shown).toContain("ALLOW");
    expect(shown).toContain("BLOCK");
  });

  for (const [key, example] of Object.entries(EXAMPLES)) {
    it(`"${example.label}" gives the verdict it is there to show (${example.shows})`, async () => {
      const acct = await t.createAccount(1);
      const parsed = toVerifyRequest(example.values);
      if (!parsed.ok) throw new Error(`${key}: ${parsed.error}`);
      const res = await t.request("POST", "/api/v1/intent", { key: acct.apiKey, body: parsed.req });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body.verdict, body.reasoning).toBe(example.shows);
    });
  }
});
