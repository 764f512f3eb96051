/**
 * TRUSTED_PROXIES (src/lib/client-ip.ts): X-Forwarded-For decides the client address of per-IP throttles
 * only when the socket's peer is a trusted proxy. Through a real listening server (the peer is 127.0.0.1):
 * with the proxy trusted, 21 OAuth registrations from 21 forwarded clients all succeed while one client is
 * still throttled at 20; without it, the header is ignored (a client cannot dodge its throttle by sending one).
 */
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import { parseTrustedProxies, resolveClientIp } from "../../src/lib/client-ip";
import { REGISTRATIONS_PER_IP } from "../../src/oauth/clients";
import { listen } from "../../src/server";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

describe("client address resolution", () => {
  const proxies = parseTrustedProxies("127.0.0.1, 10.0.0.0/8, fd00::/8");
  it("believes X-Forwarded-For only from a trusted peer, walking from the right past trusted hops", () => {
    expect(resolveClientIp("203.0.113.9", "1.2.3.4", proxies)).toBe("203.0.113.9");
    expect(resolveClientIp("127.0.0.1", "1.2.3.4", proxies)).toBe("1.2.3.4");
    expect(resolveClientIp("::ffff:127.0.0.1", "1.2.3.4", proxies)).toBe("1.2.3.4");
    expect(resolveClientIp("127.0.0.1", "6.6.6.6, 1.2.3.4, 10.1.2.3", proxies)).toBe("1.2.3.4"); // a spoofed left entry is ignored
    expect(resolveClientIp("127.0.0.1", "10.0.0.1, 10.0.0.2", proxies)).toBe("10.0.0.1");
    expect(resolveClientIp("127.0.0.1", "not-an-ip", proxies)).toBe("127.0.0.1");
    expect(resolveClientIp("127.0.0.1", "2001:db8::1", proxies)).toBe("2001:db8::1");
    expect(resolveClientIp("fd00::5", "2001:db8::1", proxies)).toBe("2001:db8::1");
    expect(resolveClientIp("127.0.0.1", undefined, proxies)).toBe("127.0.0.1");
    expect(resolveClientIp("127.0.0.1", "1.2.3.4", null)).toBe("127.0.0.1");
  });
  it("refuses a malformed TRUSTED_PROXIES at start-up, naming the entry", () => {
    expect(() => loadConfig({ TRUSTED_PROXIES: "10.0.0.0/8, 10.0.0.0/33" })).toThrow(/TRUSTED_PROXIES: "10.0.0.0\/33"/);
    expect(() => loadConfig({ TRUSTED_PROXIES: "proxy.internal" })).toThrow(/TRUSTED_PROXIES/);
    expect(parseTrustedProxies(" ")).toBeNull();
  });
});

describe("per-IP throttles behind a proxy", () => {
  let t: TestRuntime | undefined;
  let server: { port: number; stop: () => Promise<void> } | undefined;
  afterEach(async () => {
    await server?.stop();
    await t?.close();
    server = undefined;
    t = undefined;
  });
  const start = async (env: Record<string, string>) => {
    t = await startTestRuntime({ env });
    server = await listen(t.runtime, { host: "127.0.0.1", port: 0 });
    return `http://127.0.0.1:${server.port}`;
  };
  const register = (url: string, forwardedFor: string) =>
    fetch(`${url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
      body: JSON.stringify({ client_name: "agent", redirect_uris: ["https://agent.example/cb"] }),
    }).then((r) => r.status);

  it("trusted proxy: each forwarded client has its own throttle", async () => {
    const url = await start({ TRUSTED_PROXIES: "127.0.0.1/32,::1" });
    const many = [];
    for (let i = 0; i <= REGISTRATIONS_PER_IP; i++) many.push(await register(url, `198.51.100.${i + 1}`));
    expect(many.every((s) => s === 201)).toBe(true);
    const one = [];
    for (let i = 0; i <= REGISTRATIONS_PER_IP; i++) one.push(await register(url, `203.0.113.7, 127.0.0.1`));
    expect(one.slice(0, REGISTRATIONS_PER_IP - 1).every((s) => s === 201)).toBe(true); // 203.0.113.7 had none yet
    expect(one.at(-1)).toBe(429);
  });

  it("no trusted proxy: X-Forwarded-For is ignored", async () => {
    const url = await start({});
    const statuses = [];
    for (let i = 0; i <= REGISTRATIONS_PER_IP; i++) statuses.push(await register(url, `198.51.100.${i + 1}`));
    expect(statuses.slice(0, REGISTRATIONS_PER_IP).every((s) => s === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
