/**
 * Local HTTP servers speaking the OpenAI chat-completions and Anthropic messages wire formats, for driving the
 * official SDK clients in tests. Each test sets `server.reply` to decide the next answers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

export type Reply =
  | { kind: "text"; text: string; delayMs?: number }
  | { kind: "status"; status: number; body?: unknown }
  | { kind: "raw"; status: number; body: string; contentType?: string }
  | { kind: "hang" };

export interface FakeServer {
  url: string;
  port: number;
  received: Received[];
  reply: Reply;
  close(): Promise<void>;
}

function openaiBody(text: string, model: string) {
  return {
    id: "chatcmpl-test123",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content: text, refusal: null, annotations: [] }, logprobs: null, finish_reason: "stop" }],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    system_fingerprint: "fp_test",
  };
}

function anthropicBody(text: string, model: string) {
  return {
    id: "msg_test123",
    type: "message",
    role: "assistant",
    model,
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 20 },
  };
}

function errorBody(flavor: "openai" | "anthropic", status: number) {
  return flavor === "openai"
    ? { error: { message: `test error ${status}`, type: status >= 500 ? "server_error" : "invalid_request_error", param: null, code: null } }
    : { type: "error", error: { type: status >= 500 ? "api_error" : "invalid_request_error", message: `test error ${status}` } };
}

export async function startFakeServer(flavor: "openai" | "anthropic"): Promise<FakeServer> {
  const path = flavor === "openai" ? "/v1/chat/completions" : "/v1/messages";
  const state: FakeServer = { url: "", port: 0, received: [], reply: { kind: "text", text: "{}" }, close: async () => {} };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      /* keep empty */
    }
    state.received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
    const send = (status: number, payload: string, type = "application/json") => {
      if (res.writableEnded || res.destroyed) return;
      res.writeHead(status, { "content-type": type, "x-request-id": "req_test" });
      res.end(payload);
    };
    if (req.method !== "POST" || !req.url?.startsWith(path)) return send(404, JSON.stringify(errorBody(flavor, 404)));
    const r = state.reply;
    switch (r.kind) {
      case "hang":
        return; // never answer; the client times out
      case "status":
        return send(r.status, JSON.stringify(r.body ?? errorBody(flavor, r.status)));
      case "raw":
        return send(r.status, r.body, r.contentType);
      case "text": {
        if (r.delayMs) await new Promise((ok) => setTimeout(ok, r.delayMs));
        const model = typeof body.model === "string" ? body.model : "test-model";
        return send(200, JSON.stringify(flavor === "openai" ? openaiBody(r.text, model) : anthropicBody(r.text, model)));
      }
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => send500(res));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as AddressInfo).port;
  state.port = port;
  state.url = flavor === "openai" ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  return state;
}

function send500(res: ServerResponse) {
  if (!res.headersSent) res.writeHead(500);
  res.end();
}

/** A port on 127.0.0.1 with nothing listening (bound then released). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
}
