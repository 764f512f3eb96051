/**
 * Which IP addresses an outbound request on behalf of an agent may connect to (SSRF guard). Pure.
 *
 * Refused: unspecified, loopback, private (RFC 1918), CGNAT (100.64/10), link-local (169.254/16, which holds
 * the cloud metadata address 169.254.169.254), IETF/documentation/benchmark ranges, multicast, reserved and
 * broadcast; IPv6 unspecified and loopback, ULA (fc00::/7, which holds AWS's fd00:ec2::254), link-local,
 * site-local, multicast, discard, documentation, Teredo/ORCHID, and the deprecated IPv4-compatible ::/96.
 * IPv6 forms that carry an IPv4 address (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16)
 * are judged by the IPv4 address inside them.
 *
 * `allowLoopback` (tests and the sandbox only; configuration refuses it in production) admits 127.0.0.0/8
 * and ::1, nothing else.
 */
import { isIP } from "node:net";

export type AddressVerdict = { ok: true } | { ok: false; reason: string };

export interface AddressPolicy {
  allowLoopback?: boolean;
}

interface V4Range {
  base: number;
  bits: number;
  reason: string;
}

const v4 = (cidr: string, reason: string): V4Range => {
  const [ip, bits] = cidr.split("/");
  return { base: parseV4(ip)!, bits: Number(bits), reason };
};

/** Checked in order: the more specific names come first. */
const V4_FORBIDDEN: readonly V4Range[] = [
  v4("169.254.169.254/32", "a cloud metadata address"),
  v4("0.0.0.0/8", "an unspecified address (0.0.0.0/8)"),
  v4("10.0.0.0/8", "a private address (10.0.0.0/8)"),
  v4("100.64.0.0/10", "a carrier-grade NAT address (100.64.0.0/10)"),
  v4("127.0.0.0/8", "a loopback address"),
  v4("169.254.0.0/16", "a link-local address (169.254.0.0/16)"),
  v4("172.16.0.0/12", "a private address (172.16.0.0/12)"),
  v4("192.0.0.0/24", "an IETF protocol address (192.0.0.0/24)"),
  v4("192.0.2.0/24", "a documentation address"),
  v4("192.88.99.0/24", "a 6to4 relay address"),
  v4("192.168.0.0/16", "a private address (192.168.0.0/16)"),
  v4("198.18.0.0/15", "a benchmarking address"),
  v4("198.51.100.0/24", "a documentation address"),
  v4("203.0.113.0/24", "a documentation address"),
  v4("224.0.0.0/4", "a multicast address"),
  v4("240.0.0.0/4", "a reserved or broadcast address"),
];

export function parseV4(ip: string): number | null {
  const parts = ip.split(".");
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const x = Number(p);
    if (x > 255) return null;
    n = n * 256 + x;
  }
  return n;
}

const inV4 = (n: number, r: V4Range) => r.bits === 0 || Math.floor(n / 2 ** (32 - r.bits)) === Math.floor(r.base / 2 ** (32 - r.bits));

function checkV4(n: number, policy: AddressPolicy): AddressVerdict {
  for (const r of V4_FORBIDDEN) {
    if (!inV4(n, r)) continue;
    if (policy.allowLoopback && r.reason === "a loopback address") return { ok: true };
    return { ok: false, reason: r.reason };
  }
  return { ok: true };
}

/** Eight 16-bit groups, or null. Accepts `::` compression and a dotted IPv4 tail; refuses zone ids. */
export function parseV6(ip: string): number[] | null {
  if (ip.includes("%")) return null;
  let s = ip.toLowerCase();
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(":");
  if (s.slice(lastColon + 1).includes(".")) {
    const n = parseV4(s.slice(lastColon + 1));
    if (n === null) return null;
    tail = [Math.floor(n / 65536), n % 65536];
    s = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === "" ? [] : h.split(":"));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return null;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  if (all.length !== 8 || all.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  const out = all.map((g) => parseInt(g, 16));
  if (tail.length) [out[6], out[7]] = tail;
  return out;
}

const embeddedV4 = (hi: number, lo: number) => hi * 65536 + lo;

function checkV6(g: number[], policy: AddressPolicy): AddressVerdict {
  const zeroUpTo = (k: number) => g.slice(0, k).every((x) => x === 0);
  const no = (reason: string): AddressVerdict => ({ ok: false, reason });
  if (zeroUpTo(8)) return no("an unspecified address (::)");
  if (zeroUpTo(7) && g[7] === 1) return policy.allowLoopback ? { ok: true } : no("a loopback address");
  // IPv4-mapped ::ffff:a.b.c.d: the IPv4 address decides.
  if (zeroUpTo(5) && g[5] === 0xffff) return within(checkV4(embeddedV4(g[6], g[7]), policy), "an IPv4-mapped IPv6 form of");
  if (zeroUpTo(6)) return no("an IPv4-compatible IPv6 address (deprecated ::/96)");
  // NAT64 well-known prefix 64:ff9b::/96 reaches the IPv4 address inside; 64:ff9b:1::/48 is local-use.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return within(checkV4(embeddedV4(g[6], g[7]), policy), "a NAT64 form of");
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return no("a local-use NAT64 address (64:ff9b:1::/48)");
  if (g[0] === 0x2002) return within(checkV4(embeddedV4(g[1], g[2]), policy), "a 6to4 form of");
  if (g[0] === 0x100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return no("a discard-only address (100::/64)");
  if (g[0] === 0x2001 && g[1] < 0x200) return no("an IETF protocol address (2001::/23: Teredo, ORCHID, ...)");
  if (g[0] === 0x2001 && g[1] === 0xdb8) return no("a documentation address (2001:db8::/32)");
  if ((g[0] & 0xfe00) === 0xfc00) {
    const metadata = g[0] === 0xfd00 && g[1] === 0xec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254;
    return no(metadata ? "a cloud metadata address" : "a unique local address (fc00::/7)");
  }
  if ((g[0] & 0xffc0) === 0xfe80) return no("a link-local address (fe80::/10)");
  if ((g[0] & 0xffc0) === 0xfec0) return no("a site-local address (fec0::/10)");
  if ((g[0] & 0xff00) === 0xff00) return no("a multicast address (ff00::/8)");
  return { ok: true };
}

const within = (v: AddressVerdict, prefix: string): AddressVerdict => (v.ok ? v : { ok: false, reason: `${prefix} ${v.reason}` });

/** The verdict for one literal address. Anything that is not a plain IPv4 or IPv6 literal is refused. */
export function checkAddress(ip: string, policy: AddressPolicy = {}): AddressVerdict {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const family = isIP(bare);
  if (family === 4) return checkV4(parseV4(bare)!, policy);
  if (family === 6) {
    const g = parseV6(bare);
    return g ? checkV6(g, policy) : { ok: false, reason: "an IPv6 address with a zone id or in an unusual form" };
  }
  return { ok: false, reason: "not an IP address" };
}
