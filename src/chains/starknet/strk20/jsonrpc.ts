/**
 * JSON-RPC 2.0 over HTTP POST for the STRK20 services, with the proving SDK's transport rules
 * (research/starknet.md §1.5): a deadline per attempt (30 s by default), and retries only where the
 * server says "busy" (JSON-RPC -32005 or HTTP 503), at most 3, waiting 1 s * 2^n capped at 30 s. Every
 * other failure is final at once: a refused proof or relay is not retried blindly (retrying means
 * re-proving, and a relayed proof sent twice is "Tx already sent").
 */
import { Strk20Error } from "./errors";

export interface JsonRpcOptions {
  url: string;
  /** Extra headers (the paymaster's API key); never logged. */
  headers?: Record<string, string>;
  timeoutMs?: number;
  retries?: number;
  /** First backoff; doubles per retry, capped at maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Which service, for messages ("proving service", "paymaster"). */
  name: string;
  /** Remote error code -> sentence. */
  codes: Record<number, string>;
}

export interface JsonRpcCaller {
  call<T>(method: string, params: unknown): Promise<T>;
}

const BUSY = -32005;

export function jsonRpc(o: JsonRpcOptions): JsonRpcCaller {
  const timeoutMs = o.timeoutMs ?? 30_000;
  const retries = o.retries ?? 3;
  const backoff = (n: number) => Math.min((o.backoffMs ?? 1_000) * 2 ** n, o.maxBackoffMs ?? 30_000);
  let id = 0;
  const once = async <T>(method: string, params: unknown): Promise<{ busy: true } | { value: T }> => {
    let res: Response;
    try {
      res = await fetch(o.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(o.headers ?? {}) },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "error",
      });
    } catch (e) {
      const timedOut = (e as Error).name === "TimeoutError";
      throw new Strk20Error("unavailable", `the ${o.name} did not answer ${method}${timedOut ? ` within ${timeoutMs} ms` : ""}`);
    }
    if (res.status === 503) return { busy: true };
    const text = await res.text().catch(() => "");
    let body: { result?: T; error?: { code?: unknown; message?: unknown; data?: unknown } } | undefined;
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      body = undefined;
    }
    if (body?.error && typeof body.error.code === "number") {
      const code = body.error.code;
      if (code === BUSY) return { busy: true };
      const data = body.error.data;
      const remote = [body.error.message, data].filter((x): x is string => typeof x === "string" && x.length > 0).join(": ").slice(0, 300);
      const known = o.codes[code];
      const kind = code === -32603 ? "unavailable" : "rejected";
      throw new Strk20Error(kind, `the ${o.name} refused ${method}: ${code}${known ? ` ${known}` : ""}${remote && remote !== known ? ` (${remote})` : ""}`, code);
    }
    if (!res.ok) throw new Strk20Error(res.status >= 500 ? "unavailable" : "rejected", `the ${o.name} answered HTTP ${res.status} to ${method}`);
    if (!body || !("result" in body)) throw new Strk20Error("unavailable", `the ${o.name} answered ${method} with no JSON-RPC result`);
    return { value: body.result as T };
  };
  return {
    async call<T>(method: string, params: unknown): Promise<T> {
      for (let attempt = 0; ; attempt++) {
        const r = await once<T>(method, params);
        if (!("busy" in r)) return r.value;
        if (attempt >= retries) throw new Strk20Error("unavailable", `the ${o.name} stayed busy for ${method} after ${retries} retries`, BUSY);
        await new Promise((ok) => setTimeout(ok, backoff(attempt)));
      }
    },
  };
}
