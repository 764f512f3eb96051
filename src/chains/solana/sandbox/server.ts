/**
 * The sandbox Solana cluster: the litesvm ledger behind a Solana JSON-RPC endpoint on loopback (HTTP on
 * `port`, WebSocket subscriptions on the same port and on `port + 1`, where web3.js's `Connection` looks
 * for them), persisted under `dataDir`, with USDC at the mainnet mint address and a faucet.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { address, type Address } from "@solana/kit";
import { getMintEncoder, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { loadOrCreateSecretFile } from "../../../lib/secret-file";
import { stringifyJson } from "./account-json";
import { SvmLedger } from "./ledger";
import { base58FromBytes } from "./wire";
import { dispatch, RpcFailure } from "./rpc-methods";
import { createSubscriptionHub } from "./subscriptions";
import { acceptWebSocket } from "./websocket";
import { createSolanaFaucet, type SolanaFaucet } from "./faucet";
import { MINT_SIZE } from "../spl";
import { USDC_MINT } from "../tokens";

export interface SolanaSandbox {
  readonly rpcUrl: string;
  readonly wsUrl: string;
  readonly genesisHash: string;
  /** `solana:` + the first 32 characters of the genesis hash. */
  readonly caip2: string;
  readonly usdcMint: string;
  readonly ledger: SvmLedger;
  readonly faucet: SolanaFaucet;
  stop(): Promise<void>;
}

export interface StartSolanaSandboxOptions {
  /** Holds `sandbox/solana/ledger.bin` and the seed; absent = in memory (tests). */
  dataDir?: string;
  /** HTTP port (the WebSocket also listens on port + 1); 0 or absent = a free pair. */
  port?: number;
  host?: string;
  /** See OpenLedgerOptions.compactMinBytes (tests compact often). */
  compactMinBytes?: number;
  logger?: { info(o: object, m: string): void; warn(o: object, m: string): void };
}

const MAX_BODY = 2 * 1024 * 1024;
/** One billion SOL: the faucet never runs dry in practice (it is topped up again below 1,000 SOL). */
export const FAUCET_FLOAT = 10n ** 18n;

export async function startSolanaSandbox(o: StartSolanaSandboxOptions = {}): Promise<SolanaSandbox> {
  const seed = o.dataDir
    ? Buffer.from(loadOrCreateSecretFile(join(o.dataDir, "sandbox", "solana"), "seed", () => randomBytes(32).toString("hex")), "hex")
    : randomBytes(32);
  const derive = (label: string) => createHash("sha256").update(seed).update(`arbiter.sandbox.solana.${label}`).digest();
  const genesisHash = base58FromBytes.decode(derive("genesis"));
  const faucetSeed = derive("faucet");
  const faucetAddress = await faucetAddressOf(faucetSeed);

  const ledger = SvmLedger.open({
    file: o.dataDir ? join(o.dataDir, "sandbox", "solana", "ledger.bin") : undefined,
    genesisHash,
    compactMinBytes: o.compactMinBytes,
    init: (l) => {
      // USDC at its mainnet mint, the faucet as mint authority; the faucet holds SOL to pay for grants.
      const data = Uint8Array.from(getMintEncoder().encode({ mintAuthority: faucetAddress, supply: 0n, decimals: 6, isInitialized: true, freezeAuthority: null }));
      l.writeAccounts([
        {
          address: address(USDC_MINT),
          programAddress: TOKEN_PROGRAM_ADDRESS,
          executable: false,
          lamports: l.minimumBalanceForRentExemption(BigInt(MINT_SIZE)) as never,
          data,
          space: BigInt(MINT_SIZE),
        } as never,
      ]);
      l.setLamports(faucetAddress, FAUCET_FLOAT);
    },
  });
  const faucet = await createSolanaFaucet({ ledger, faucetSeed });

  const hub = createSubscriptionHub(ledger);
  const handle = (req: IncomingMessage, res: ServerResponse) => void handleHttp(ledger, req, res);
  const upgrade = (req: IncomingMessage, socket: import("node:stream").Duplex, head: Buffer) => void acceptWebSocket(req, socket, head, hub);
  const host = o.host ?? "127.0.0.1";
  const { http, ws, port } = await listenPair(host, o.port ?? 0, handle, upgrade);
  const rpcUrl = `http://${host}:${port}`;
  const wsUrl = `ws://${host}:${port + 1}`;
  o.logger?.info({ rpcUrl, wsUrl, genesisHash }, "solana sandbox listening");

  return {
    rpcUrl,
    wsUrl,
    genesisHash: ledger.genesisHash,
    caip2: `solana:${ledger.genesisHash.slice(0, 32)}`,
    usdcMint: USDC_MINT,
    ledger,
    faucet,
    async stop() {
      hub.close();
      await Promise.all([http, ws].map((s) => new Promise<void>((r) => { s.close(() => r()); s.closeAllConnections(); })));
      ledger.close();
    },
  };
}

async function faucetAddressOf(seed: Buffer): Promise<Address> {
  const { createKeyPairSignerFromPrivateKeyBytes } = await import("@solana/kit");
  return (await createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(seed))).address;
}

async function handleHttp(ledger: SvmLedger, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json", "access-control-allow-origin": "*" });
    res.end(typeof body === "string" ? body : stringifyJson(body));
  };
  if (req.method === "OPTIONS") {
    res.writeHead(204, { "access-control-allow-origin": "*", "access-control-allow-methods": "POST", "access-control-allow-headers": "content-type, solana-client" });
    return void res.end();
  }
  if (req.method === "GET" && (req.url === "/health" || req.url === "/")) return send(200, "ok");
  if (req.method !== "POST") return send(405, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "POST JSON-RPC requests" } });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) return send(413, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "request too large" } });
    chunks.push(c as Buffer);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return send(200, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  }
  const one = async (r: unknown) => {
    const call = r as { id?: unknown; method?: unknown; params?: unknown };
    if (!call || typeof call.method !== "string") return { jsonrpc: "2.0", id: call?.id ?? null, error: { code: -32600, message: "Invalid request" } };
    try {
      return { jsonrpc: "2.0", id: call.id ?? null, result: await dispatch(ledger, call.method, call.params) };
    } catch (err) {
      if (err instanceof RpcFailure) return { jsonrpc: "2.0", id: call.id ?? null, error: { code: err.code, message: err.message, ...(err.data !== undefined ? { data: err.data } : {}) } };
      return { jsonrpc: "2.0", id: call.id ?? null, error: { code: -32603, message: `Internal error: ${(err as Error).message}` } };
    }
  };
  send(200, Array.isArray(body) ? await Promise.all(body.map(one)) : await one(body));
}

type UpgradeHandler = (req: IncomingMessage, socket: import("node:stream").Duplex, head: Buffer) => void;

/** HTTP on `port` and a second listener on `port + 1` (WebSocket for web3.js); port 0 finds a free pair. */
async function listenPair(host: string, port: number, handle: (req: IncomingMessage, res: ServerResponse) => void, upgrade: UpgradeHandler): Promise<{ http: Server; ws: Server; port: number }> {
  for (let attempt = 0; attempt < 30; attempt++) {
    const http = createServer(handle);
    http.on("upgrade", upgrade);
    await listen(http, host, port);
    const p = (http.address() as AddressInfo).port;
    const ws = createServer((_req, res) => {
      res.writeHead(426, { "content-type": "text/plain" });
      res.end("WebSocket only");
    });
    ws.on("upgrade", upgrade);
    try {
      await listen(ws, host, p + 1);
      return { http, ws, port: p };
    } catch (err) {
      await new Promise<void>((r) => http.close(() => r()));
      if (port !== 0) throw err;
    }
  }
  throw new Error("no free pair of ports for the Solana sandbox");
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}
