import { describe, expect, it } from "vitest";
import { generateApiArtifacts, staleFiles } from "../../scripts/api-docs";

describe("generated API reference and client types", () => {
  it("docs/api.md, clients/typescript/openapi.json and schema.d.ts match what the code generates (npm run api:docs)", async () => {
    const files = await generateApiArtifacts();
    expect(Object.keys(files).sort()).toEqual(["clients/typescript/openapi.json", "clients/typescript/schema.d.ts", "docs/api.md"]);
    // Sanity: the reference covers every operation and every MCP tool the runtime registered.
    const doc = JSON.parse(files["clients/typescript/openapi.json"]);
    for (const [p, item] of Object.entries<Record<string, { operationId: string }>>(doc.paths))
      for (const m of Object.keys(item)) expect(files["docs/api.md"], `${m} ${p}`).toContain(`#### \`${m.toUpperCase()} ${p}\``);
    for (const tool of ["verify_intent", "topup_credits", "escrow_transfer"]) expect(files["docs/api.md"]).toContain(`### \`${tool}\``);
    expect(files["clients/typescript/schema.d.ts"]).toContain('"/api/v1/intent"');
    expect(staleFiles(files), "out of date: run `npm run api:docs` and commit the result").toEqual([]);
  }, 180_000);
});
