/**
 * Outbound HTTP(S) on behalf of an agent (x402 resources), guarded against SSRF.
 *
 * - The URL: http or https only (http only when `allowHttp`: the sandbox), no credentials in it, at most
 *   2,048 characters. An IP literal host is checked directly (Node does not resolve literals).
 * - DNS: we resolve the name ourselves and refuse it when *any* address it resolves to is forbidden
 *   (ssrf.ts). The same check runs again inside the `lookup` hook Node calls for every connection, and the
 *   socket connects to the address that hook returned. So a name that answers a public address to a first
 *   lookup and a private one when the connection is made (DNS rebinding) is refused at connect time:
 *   there is no gap between the check and the connect. No connection pooling (`agent: false`).
 * - No redirects: a 3xx is returned as-is with `redirectTo` set; callers refuse it.
 * - One deadline for the whole exchange (connect, headers, body) and a byte cap on the body: past the cap
 *   the request is either refused (`onOversize: "error"`) or cut (`"truncate"`, `truncated: true`).
 * - Identity encoding only (no decompression bombs); nothing of ours is sent but the headers given.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { checkAddress, type AddressPolicy } from "./ssrf";

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface GuardedFetchOptions extends AddressPolicy {
  /** Plain http (the sandbox). Production requires https. */
  allowHttp?: boolean;
  /** DNS resolution (tests inject one); default: the system resolver, every address. */
  resolve?: Resolver;
  /** Whole exchange, default 15 s. */
  timeoutMs?: number;
  /** Body bytes kept, default 1 MiB. */
  maxBytes?: number;
  onOversize?: "error" | "truncate";
}

export interface GuardedRequest {
  method: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

export interface GuardedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  /** Location of a 3xx (never followed). */
  redirectTo: string | null;
  /** The address the socket actually connected to. */
  remoteAddress: string | null;
}

/** The request was refused before or while connecting (policy), or its answer broke a limit. */
export class FetchRefused extends Error {
  constructor(
    readonly reason: "url" | "scheme" | "address" | "oversize",
    message: string,
  ) {
    super(message);
    this.name = "FetchRefused";
  }
}

/** The other side could not be reached or did not answer in time (no policy involved). */
export class FetchFailed extends Error {
  constructor(message: string, opts?: { cause?: unknown }) {
    super(message, opts);
    this.name = "FetchFailed";
  }
}

export const MAX_URL_LENGTH = 2048;

const systemResolve: Resolver = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family }));

/** Parses and vets a URL (scheme, credentials, length); returns it with its bare host. */
export function vetUrl(raw: string, opts: { allowHttp?: boolean }): URL {
  if (raw.length > MAX_URL_LENGTH) throw new FetchRefused("url", `the URL is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchRefused("url", "not a valid absolute URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && opts.allowHttp)) {
    throw new FetchRefused("scheme", opts.allowHttp ? "only http and https URLs can be requested" : "only https URLs can be requested");
  }
  if (url.username || url.password) throw new FetchRefused("url", "URLs with credentials are refused");
  if (!url.hostname) throw new FetchRefused("url", "the URL has no host");
  return url;
}

const bareHost = (url: URL) => (url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname);

async function resolveChecked(hostname: string, resolve: Resolver, policy: AddressPolicy): Promise<{ address: string; family: number }[]> {
  let addrs: { address: string; family: number }[];
  try {
    addrs = await resolve(hostname);
  } catch (err) {
    throw new FetchFailed(`could not resolve ${hostname}: ${(err as Error).message}`, { cause: err });
  }
  if (!addrs.length) throw new FetchFailed(`${hostname} has no address`);
  for (const a of addrs) {
    const v = checkAddress(a.address, policy);
    if (!v.ok) throw new FetchRefused("address", `${hostname} resolves to ${a.address}, ${v.reason}: refused`);
  }
  return addrs;
}

export async function guardedFetch(rawUrl: string, req: GuardedRequest, opts: GuardedFetchOptions = {}): Promise<GuardedResponse> {
  const url = vetUrl(rawUrl, opts);
  const policy: AddressPolicy = { allowLoopback: opts.allowLoopback };
  const resolve = opts.resolve ?? systemResolve;
  const host = bareHost(url);
  if (isIP(host)) {
    const v = checkAddress(host, policy);
    if (!v.ok) throw new FetchRefused("address", `${host} is ${v.reason}: refused`);
  } else {
    // Fails fast with a clear reason; the connect-time lookup below is what actually protects.
    await resolveChecked(host, resolve, policy);
  }

  // Node calls this for every connection it opens (not for IP literals, checked above).
  const lookup = (hostname: string, options: { all?: boolean; family?: number }, cb: (err: Error | null, address?: string | LookupAddress[], family?: number) => void) => {
    resolveChecked(hostname, resolve, policy).then(
      (addrs) => {
        const usable = options.family ? addrs.filter((a) => a.family === options.family) : addrs;
        if (!usable.length) return cb(new FetchFailed(`${hostname} has no IPv${options.family} address`));
        if (options.all) cb(null, usable.map((a) => ({ address: a.address, family: a.family })));
        else cb(null, usable[0].address, usable[0].family);
      },
      (err: Error) => cb(err),
    );
  };

  const timeoutMs = opts.timeoutMs ?? 15_000;
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  const body = req.body ?? (req.method === "POST" ? "" : undefined);
  const headers: Record<string, string> = {
    "user-agent": "Arbiter-x402/1.0",
    accept: "application/json, text/plain;q=0.9, */*;q=0.5",
    "accept-encoding": "identity",
    ...(body !== undefined ? { "content-length": String(Buffer.byteLength(body)) } : {}),
    ...req.headers,
  };
  const mod = url.protocol === "https:" ? https : http;

  return new Promise<GuardedResponse>((resolvePromise, reject) => {
    let settled = false;
    const done = (err: Error | null, value?: GuardedResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolvePromise(value!);
    };
    const request = mod.request(url, { method: req.method, headers, agent: false, lookup: lookup as never }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (truncated: boolean) =>
        done(null, {
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")])),
          body: Buffer.concat(chunks),
          truncated,
          redirectTo: res.statusCode && res.statusCode >= 300 && res.statusCode < 400 ? (res.headers.location ?? "") : null,
          remoteAddress: request.socket?.remoteAddress ?? null,
        });
      const declared = Number(res.headers["content-length"]);
      if (opts.onOversize !== "truncate" && Number.isFinite(declared) && declared > maxBytes) {
        request.destroy();
        return done(new FetchRefused("oversize", `the response is ${declared} bytes, above the ${maxBytes}-byte limit`));
      }
      res.on("data", (chunk: Buffer) => {
        if (settled) return;
        if (size + chunk.length > maxBytes) {
          if (opts.onOversize === "truncate") {
            chunks.push(chunk.subarray(0, maxBytes - size));
            size = maxBytes;
            finish(true);
          } else {
            done(new FetchRefused("oversize", `the response is larger than the ${maxBytes}-byte limit`));
          }
          request.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on("end", () => finish(false));
      res.on("error", (err) => done(new FetchFailed(`the response broke off: ${err.message}`, { cause: err })));
    });
    const timer = setTimeout(() => {
      done(new FetchFailed(`no complete answer within ${timeoutMs} ms`));
      request.destroy();
    }, timeoutMs);
    request.on("error", (err) => done(err instanceof FetchRefused || err instanceof FetchFailed ? err : new FetchFailed(`${url.host}: ${err.message}`, { cause: err })));
    if (body !== undefined) request.write(body);
    request.end();
  });
}
