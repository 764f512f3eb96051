/**
 * The SSRF guard of outbound x402 requests: address classification, and the guarded fetch against real
 * local servers (loopback admitted only where a test says so) with injected resolvers for DNS cases.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkAddress } from "../../src/net/ssrf";
import { FetchFailed, FetchRefused, guardedFetch, type Resolver } from "../../src/net/ssrf-fetch";

describe("checkAddress", () => {
  const refused: [string, RegExp][] = [
    ["10.0.0.1", /private/],
    ["172.16.5.4", /private/],
    ["192.168.1.1", /private/],
    ["127.0.0.1", /loopback/],
    ["127.8.9.10", /loopback/],
    ["0.0.0.0", /unspecified/],
    ["169.254.169.254", /cloud metadata/],
    ["169.254.10.10", /link-local/],
    ["100.64.0.1", /carrier-grade NAT/],
    ["100.127.255.254", /carrier-grade NAT/],
    ["224.0.0.1", /multicast/],
    ["255.255.255.255", /reserved or broadcast/],
    ["198.18.0.1", /benchmarking/],
    ["::", /unspecified/],
    ["::1", /loopback/],
    ["[::1]", /loopback/],
    ["fe80::1", /link-local/],
    ["fc00::1", /unique local/],
    ["fd12:3456::1", /unique local/],
    ["fd00:ec2::254", /cloud metadata/],
    ["ff02::1", /multicast/],
    ["::ffff:127.0.0.1", /IPv4-mapped IPv6 form of a loopback/],
    ["::ffff:7f00:1", /IPv4-mapped IPv6 form of a loopback/],
    ["::ffff:10.1.2.3", /IPv4-mapped IPv6 form of a private/],
    ["::ffff:a9fe:a9fe", /IPv4-mapped IPv6 form of a cloud metadata/],
    ["::ffff:100.64.0.1", /IPv4-mapped IPv6 form of a carrier-grade NAT/],
    ["64:ff9b::7f00:1", /NAT64 form of a loopback/],
    ["2002:c0a8:0101::1", /6to4 form of a private/],
    ["::127.0.0.1", /IPv4-compatible/],
    ["2001:db8::1", /documentation/],
    ["fe80::1%eth0", /zone id/],
    ["example.com", /not an IP/],
  ];
  it.each(refused)("refuses %s", (ip, reason) => {
    const v = checkAddress(ip);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.reason).toMatch(reason);
  });

  it.each(["1.1.1.1", "8.8.8.8", "93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:0808:0808::1"])("admits the public address %s", (ip) => {
    expect(checkAddress(ip)).toEqual({ ok: true });
  });

  it("admits loopback only with allowLoopback, and nothing else private with it", () => {
    expect(checkAddress("127.0.0.1", { allowLoopback: true }).ok).toBe(true);
    expect(checkAddress("::1", { allowLoopback: true }).ok).toBe(true);
    expect(checkAddress("::ffff:127.0.0.1", { allowLoopback: true }).ok).toBe(true);
    for (const ip of ["10.0.0.1", "169.254.169.254", "0.0.0.0", "fd00:ec2::254", "192.168.0.1"]) expect(checkAddress(ip, { allowLoopback: true }).ok, ip).toBe(false);
  });
});

let server: http.Server;
let port: number;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/redirect") {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" });
      return res.end();
    }
    if (req.url === "/big") {
      res.writeHead(402, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 32 && res.write(chunk)) sent++;
        if (sent >= 32) res.end();
        else res.once("drain", pump);
      };
      return pump();
    }
    if (req.url === "/slow") return void setTimeout(() => res.end("late"), 2000);
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(`hello from ${req.socket.localAddress}`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const refusedWith = async (p: Promise<unknown>, reason: FetchRefused["reason"], message: RegExp) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchRefused);
  expect((err as FetchRefused).reason).toBe(reason);
  expect((err as Error).message).toMatch(message);
};

describe("guardedFetch", () => {
  it("refuses private, metadata and loopback literals before connecting", async () => {
    await refusedWith(guardedFetch("https://10.0.0.1/paid", { method: "GET" }), "address", /private/);
    await refusedWith(guardedFetch("https://169.254.169.254/latest/meta-data", { method: "GET" }), "address", /cloud metadata/);
    await refusedWith(guardedFetch(`http://[::1]:${port}/`, { method: "GET" }, { allowHttp: true }), "address", /loopback/);
    await refusedWith(guardedFetch(`http://127.0.0.1:${port}/`, { method: "GET" }, { allowHttp: true }), "address", /loopback/);
    await refusedWith(guardedFetch("https://[::ffff:169.254.169.254]/", { method: "GET" }), "address", /cloud metadata/);
    // WHATWG URL parsing turns the integer form into 127.0.0.1, which is then refused.
    await refusedWith(guardedFetch(`http://2130706433:${port}/`, { method: "GET" }, { allowHttp: true }), "address", /loopback/);
  });

  it("refuses a hostname that resolves to a loopback or private address", async () => {
    await refusedWith(guardedFetch(`http://localhost:${port}/`, { method: "GET" }, { allowHttp: true }), "address", /localhost resolves to .*loopback/);
    const mixed: Resolver = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.1.1.1", family: 4 },
    ];
    await refusedWith(guardedFetch("https://mixed.example/", { method: "GET" }, { resolve: mixed }), "address", /10\.1\.1\.1, a private address/);
  });

  it("refuses DNS rebinding at connect time: public at the first lookup, loopback when connecting", async () => {
    let calls = 0;
    const rebinding: Resolver = async () => (++calls === 1 ? [{ address: "93.184.216.34", family: 4 }] : [{ address: "127.0.0.1", family: 4 }]);
    await refusedWith(guardedFetch(`http://rebind.example:${port}/`, { method: "GET" }, { allowHttp: true, resolve: rebinding }), "address", /rebind\.example resolves to 127\.0\.0\.1, a loopback address/);
    expect(calls).toBe(2); // the second lookup is the one Node made for the connection
  });

  it("connects to the address the checked lookup returned (loopback allowed in this test)", async () => {
    const resolve: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];
    const res = await guardedFetch(`http://resource.example:${port}/`, { method: "GET" }, { allowHttp: true, allowLoopback: true, resolve });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe("hello from 127.0.0.1");
    expect(res.remoteAddress).toBe("127.0.0.1");
  });

  it("never follows a redirect", async () => {
    const res = await guardedFetch(`http://127.0.0.1:${port}/redirect`, { method: "GET" }, { allowHttp: true, allowLoopback: true });
    expect(res.status).toBe(302);
    expect(res.redirectTo).toBe("http://169.254.169.254/latest/meta-data");
  });

  it("refuses an oversized answer, or cuts it when asked to", async () => {
    await refusedWith(guardedFetch(`http://127.0.0.1:${port}/big`, { method: "GET" }, { allowHttp: true, allowLoopback: true, maxBytes: 64 * 1024 }), "oversize", /larger than the 65536-byte limit/);
    const cut = await guardedFetch(`http://127.0.0.1:${port}/big`, { method: "GET" }, { allowHttp: true, allowLoopback: true, maxBytes: 1000, onOversize: "truncate" });
    expect(cut.truncated).toBe(true);
    expect(cut.body.length).toBe(1000);
  });

  it("gives up after its deadline", async () => {
    const err = await guardedFetch(`http://127.0.0.1:${port}/slow`, { method: "GET" }, { allowHttp: true, allowLoopback: true, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchFailed);
    expect((err as Error).message).toMatch(/within 300 ms/);
  });

  it("refuses plain http in production, credentials in the URL, and non-http schemes", async () => {
    await refusedWith(guardedFetch("http://example.com/", { method: "GET" }), "scheme", /only https/);
    await refusedWith(guardedFetch("https://user:pw@example.com/", { method: "GET" }), "url", /credentials/);
    await refusedWith(guardedFetch("file:///etc/passwd", { method: "GET" }, { allowHttp: true }), "scheme", /only http and https/);
    await refusedWith(guardedFetch("not a url", { method: "GET" }), "url", /not a valid/);
  });
});
