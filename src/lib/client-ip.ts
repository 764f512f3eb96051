/**
 * The client address used by per-IP throttles (OAuth client registration, dashboard sign-up, sign-in and
 * claim). By default it is the socket's peer: a forwarded-for header is a claim anyone can send. Behind a
 * reverse proxy or load balancer every request would then come from the proxy, and one client's throttle
 * would become everyone's; `TRUSTED_PROXIES` (CIDRs) names the proxies whose `X-Forwarded-For` is believed.
 *
 * Resolution (the usual right-to-left walk): if the peer is not a trusted proxy, the peer is the client.
 * Otherwise the `X-Forwarded-For` entries are read from the right (the entry the nearest proxy appended)
 * skipping trusted proxies; the first untrusted entry is the client. A malformed entry stops the walk and
 * the last trusted hop is used, so garbage cannot pick an arbitrary bucket.
 *
 * It lives outside the transports because both the API (src/http) and the dashboard throttle per client:
 * the HTTP app mounts `clientAddress` once, and either side reads the result with `clientIp(c)`.
 */
import { BlockList, isIP } from "node:net";
import type { Context, MiddlewareHandler } from "hono";

export type TrustedProxies = BlockList | null;

/** Parses `10.0.0.0/8, 192.168.1.7, fd00::/8`; throws with the offending entry on a bad value. */
export function parseTrustedProxies(spec: string | undefined): TrustedProxies {
  const entries = (spec ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  if (!entries.length) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [addr, bitsText, extra] = entry.split("/");
    const family = isIP(addr);
    const max = family === 4 ? 32 : 128;
    const bits = bitsText === undefined ? max : Number(bitsText);
    if (!family || extra !== undefined || !/^\d{1,3}$/.test(bitsText ?? String(max)) || bits > max) {
      throw new Error(`"${entry}" is not an IP address or CIDR (e.g. 10.0.0.0/8, 127.0.0.1, fd00::/8)`);
    }
    list.addSubnet(addr, bits, family === 4 ? "ipv4" : "ipv6");
  }
  return list;
}

/** An IPv4-mapped IPv6 peer (`::ffff:10.0.0.1`, as dual-stack sockets report it) is its IPv4 address. */
function normalize(ip: string): string {
  const s = ip.trim();
  const bare = s.startsWith("[") && s.endsWith("]") ? s.slice(1, -1) : s;
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  return m ? m[1] : bare;
}

function trusted(list: BlockList, ip: string): boolean {
  const family = isIP(ip);
  return family !== 0 && list.check(ip, family === 4 ? "ipv4" : "ipv6");
}

export function resolveClientIp(peer: string | undefined, forwardedFor: string | undefined, proxies: TrustedProxies): string {
  if (!peer) return "unknown";
  let client = normalize(peer);
  if (!proxies || !forwardedFor || !trusted(proxies, client)) return client;
  const hops = forwardedFor.split(",");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalize(hops[i]);
    if (!isIP(hop)) break;
    client = hop;
    if (!trusted(proxies, hop)) break;
  }
  return client;
}

const resolved = new WeakMap<Request, string>();

function peerOf(c: Context): string | undefined {
  return (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
}

/** Resolves the client address once per request (app.ts mounts it first); read it with clientIp(c). */
export function clientAddress(proxies: TrustedProxies): MiddlewareHandler {
  return async (c, next) => {
    if (proxies) resolved.set(c.req.raw, resolveClientIp(peerOf(c), c.req.header("x-forwarded-for"), proxies));
    await next();
  };
}

/** The client address for per-IP throttles: see the module comment. */
export function clientIp(c: Context): string {
  return resolved.get(c.req.raw) ?? (peerOf(c) ? normalize(peerOf(c)!) : "unknown");
}
