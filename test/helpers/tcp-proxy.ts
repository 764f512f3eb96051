/**
 * A TCP proxy on loopback that can be frozen: while frozen it forwards nothing in either direction and
 * answers nothing on new connections, but keeps every socket open. That is what a stalled NAT entry or a
 * hung middlebox looks like to both ends: no reset, no FIN, just silence.
 */
import net from "node:net";

export interface FreezableProxy {
  port: number;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startFreezableProxy(target: { host: string; port: number }): Promise<FreezableProxy> {
  let frozen = false;
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(target.port, target.host);
    const pair: [net.Socket, net.Socket] = [inbound, outbound];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on("error", end).on("close", end);
    outbound.on("error", end).on("close", end);
    for (const [from, to] of [pair, [outbound, inbound] as const]) {
      from.on("data", (chunk) => {
        // Frozen: the data is swallowed, as a dead path would.
        if (!frozen) to.write(chunk);
      });
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze: () => void (frozen = true),
    thaw: () => void (frozen = false),
    close: () =>
      new Promise<void>((r) => {
        for (const [a, b] of pairs) {
          a.destroy();
          b.destroy();
        }
        server.close(() => r());
      }),
  };
}

/** A postgres URL with its host and port replaced by the proxy's. */
export function viaProxy(url: string, proxy: FreezableProxy): string {
  const u = new URL(url);
  u.hostname = "127.0.0.1";
  u.port = String(proxy.port);
  return u.toString();
}
