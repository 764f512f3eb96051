/**
 * The STRK20 proof limit is for the proof alone: /api/mcp and the propose route read bodies up to 5 MB (a
 * proof is known only once parsed), then hold everything but the proof to BODY_LIMIT_BYTES. Over the real
 * HTTP server with a 4 KB limit: a proof well past the limit reaches the tool or route; the same bytes in any
 * other tool, field or route are 413 `payload_too_large`, as is a proof-bearing request padded beside its
 * proof. (Before, any request to those two paths could be 5 MB.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "../../src/server";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

let t: TestRuntime;
let server: { port: number; stop: () => Promise<void> };
let key: string;
const LIMIT = 4096;
const PROOF = "A".repeat(64 * 1024); // base64, sixteen times the ordinary limit
const POOL = "0x" + "1".repeat(63);

beforeAll(async () => {
  t = await startTestRuntime({ env: { BODY_LIMIT_BYTES: String(LIMIT), SHUTDOWN_GRACE_MS: "500" } });
  server = await listen(t.runtime, { host: "127.0.0.1", port: 0 });
  key = (await t.createAccount(10)).apiKey;
});
afterAll(async () => {
  await server?.stop();
  await t?.close();
});

const post = (path: string, body: string) =>
  fetch(`http://127.0.0.1:${server.port}${path}`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json", accept: "application/json, text/event-stream" }, body });
const toolCall = (name: string, args: Record<string, unknown>, id = 1) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
const relay = (extra: Record<string, unknown> = {}) => toolCall("strk20_relay_private_action", { call: { contractAddress: POOL, entrypoint: "apply_actions", calldata: ["0x1"] }, proof: PROOF, proofFacts: ["0x1"], ...extra });

async function expect413(res: Response) {
  expect(res.status).toBe(413);
  const body = (await res.json()) as { error: string; message: string };
  expect(body.error).toBe("payload_too_large");
  expect(body.message).toMatch(new RegExp(`^request bodies are limited to ${LIMIT} bytes; only a STRK20 proof may take a body past that`));
}

describe("the STRK20 proof body limit applies to the proof only", () => {
  it("MCP: a relay call with a 64 KB proof reaches the tool; a batch of two does too", async () => {
    const one = await post("/api/mcp", JSON.stringify(relay()));
    expect(one.status).toBe(200);
    // The tool answered (this deployment has no Starknet: the tool is not offered), not the body limit.
    expect(await one.text()).toMatch(/strk20_relay_private_action/);
    const two = await post("/api/mcp", JSON.stringify([relay(), { ...relay(), id: 2 }]));
    expect(two.status).toBe(200);
  });

  it("MCP: the same bytes anywhere else are 413: another tool's argument, padding beside a proof, a proof under another tool's name, text that is not JSON", async () => {
    await expect413(await post("/api/mcp", JSON.stringify(toolCall("verify_intent", { intent: "x".repeat(PROOF.length), action: "buy" }))));
    await expect413(await post("/api/mcp", JSON.stringify(relay({ feeToken: "x".repeat(LIMIT) }))));
    await expect413(await post("/api/mcp", JSON.stringify(toolCall("escrow_transfer", { wallet: "w", proof: PROOF }))));
    await expect413(await post("/api/mcp", JSON.stringify(toolCall("escrow_execute", { wallet: "w", starknetProof: PROOF }))));
    await expect413(await post("/api/mcp", `{${"x".repeat(2 * LIMIT)}`));
    // Under the ordinary limit nothing changes: a small call is served.
    const small = await post("/api/mcp", JSON.stringify(toolCall("verify_intent", { intent: "x", action: "y" })));
    expect(small.status).toBe(200);
  });

  it("MCP: escrow_execute's starknetProof.data is the proof", async () => {
    const res = await post("/api/mcp", JSON.stringify(toolCall("escrow_execute", { wallet: "w", starknetCalls: [], starknetProof: { facts: ["0x1"], data: PROOF } })));
    expect(res.status).toBe(200);
  });

  it("propose: a starknet_calls proof reaches the route; a note, another kind's proof or bad JSON of that size is 413", async () => {
    const propose = (body: unknown) => post("/api/v1/wallets/wal_missing/propose", typeof body === "string" ? body : JSON.stringify(body));
    const proved = await propose({ input: { kind: "starknet_calls", chain: "starknet", calls: [], proof: { facts: ["0x1"], data: PROOF } } });
    expect(proved.status).not.toBe(413);
    expect(((await proved.json()) as { error: string }).error).toBe("not_found");
    await expect413(await propose({ input: { kind: "starknet_calls", chain: "starknet", calls: [], proof: { facts: ["0x1"], data: "A" } }, note: "n".repeat(PROOF.length) }));
    await expect413(await propose({ input: { kind: "transfer", chain: "base", proof: { data: PROOF } } }));
    await expect413(await propose({ input: { kind: "starknet_calls", chain: "starknet", calls: [], proof: { facts: ["0x1"], data: "A" }, padding: "p".repeat(2 * LIMIT) } }));
    await expect413(await propose(`{"input": ${"[".repeat(LIMIT + 1)}`));
    const badSmall = await propose(`{"input": [`);
    expect(badSmall.status).toBe(400);
  });

  it("other routes keep the ordinary limit as before", async () => {
    const res = await post("/api/v1/intent", JSON.stringify({ intent: "x", action: "y", proof: { data: PROOF } }));
    expect(res.status).toBe(413);
  });
});

describe("admission control counts a chunked body at its path's limit", () => {
  it("a chunked body on a proof path reserves the proof limit (5 MB), elsewhere the ordinary limit", async () => {
    // A budget of 1 MB: room for chunked bodies of 4 KB, none for one that may grow to 5 MB.
    const small = await startTestRuntime({ env: { BODY_LIMIT_BYTES: String(LIMIT), INFLIGHT_BODY_BYTES: String(1024 * 1024), SHUTDOWN_GRACE_MS: "500" } });
    const srv = await listen(small.runtime, { host: "127.0.0.1", port: 0 });
    try {
      const k = (await small.createAccount(10)).apiKey;
      const chunked = (path: string, text: string) =>
        fetch(`http://127.0.0.1:${srv.port}${path}`, {
          method: "POST",
          headers: { "x-api-key": k, "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: new ReadableStream({
            start(ctrl) {
              ctrl.enqueue(new TextEncoder().encode(text));
              ctrl.close();
            },
          }),
          duplex: "half",
        } as RequestInit);
      const mcp = await chunked("/api/mcp", JSON.stringify(toolCall("verify_intent", { intent: "x", action: "y" })));
      expect(mcp.status).toBe(503);
      expect(((await mcp.json()) as { error: string }).error).toBe("overloaded");
      const credits = await chunked("/api/v1/intent", JSON.stringify({ intent: "x" }));
      expect(credits.status).not.toBe(503);
    } finally {
      await srv.stop();
      await small.close();
    }
  });
});
