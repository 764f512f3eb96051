import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  id: string;
  type: string;
  data: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Record<string, string>;
  raw: string;
  /** The signature checked out against the receiver's secret (Standard Webhooks' own verifier). */
  verified: boolean;
  status: number;
}

/**
 * A webhook receiver on loopback, as an owner's system would run one: it verifies every request with the
 * maintained Standard Webhooks library and answers what `respond` says (default 204). `accepted` lists the
 * events it took (2xx), de-duplicated by webhook-id as docs/webhooks.md tells receivers to.
 */
export async function startReceiver() {
  const all: Received[] = [];
  let secret: string | null = null;
  let respond: (r: Received) => number = () => 204;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let verified = false;
      try {
        if (secret) {
          new Webhook(secret).verify(body, headers);
          verified = true;
        }
      } catch {
        verified = false;
      }
      const parsed = JSON.parse(body) as { type: string; data: Record<string, unknown> };
      const r: Received = { id: headers["webhook-id"], type: parsed.type, data: parsed.data, headers, raw: body, verified, status: 0 };
      r.status = respond(r);
      all.push(r);
      res.writeHead(r.status).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    all,
    setSecret: (s: string) => void (secret = s),
    respondWith: (f: (r: Received) => number) => void (respond = f),
    accepted(): Received[] {
      const seen = new Set<string>();
      return all.filter((r) => r.status >= 200 && r.status < 300 && !seen.has(r.id) && seen.add(r.id));
    },
    async waitFor(pred: (accepted: Received[]) => boolean, ms = 15_000): Promise<Received[]> {
      const until = Date.now() + ms;
      for (;;) {
        const a = this.accepted();
        if (pred(a)) return a;
        if (Date.now() > until) throw new Error(`receiver: condition not met in ${ms} ms; got ${JSON.stringify(all.map((r) => [r.type, r.status]))}`);
        await new Promise((ok) => setTimeout(ok, 50));
      }
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
