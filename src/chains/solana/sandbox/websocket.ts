/**
 * A minimal RFC 6455 WebSocket server side: the opening handshake, unfragmented or fragmented text
 * frames from the client (masked, as the RFC requires), ping/pong and close. No extensions are negotiated,
 * so clients that offer permessage-deflate send plain frames. Enough for Solana's JSON-RPC subscriptions;
 * no WebSocket server package is a dependency of the service.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
/** Subscriptions are small JSON requests; anything bigger is a misbehaving client. */
const MAX_MESSAGE = 1 << 20;

export interface WsConnection {
  send(text: string): void;
  close(code?: number): void;
  readonly closed: boolean;
}

export interface WsHandlers {
  onMessage(conn: WsConnection, text: string): void;
  onClose(conn: WsConnection): void;
}

export function acceptWebSocket(req: IncomingMessage, socket: Duplex, head: Buffer, handlers: WsHandlers): WsConnection | null {
  const key = req.headers["sec-websocket-key"];
  if (req.headers.upgrade?.toLowerCase() !== "websocket" || typeof key !== "string" || req.headers["sec-websocket-version"] !== "13") {
    socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    return null;
  }
  const accept = createHash("sha1").update(key + GUID).digest("base64");
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  const s = socket as Duplex & { setNoDelay?: (v: boolean) => void };
  s.setNoDelay?.(true);

  let buf: Buffer = head.length ? Buffer.from(head) : Buffer.alloc(0);
  let fragments: Buffer[] = [];
  let fragmentBytes = 0;
  let closed = false;

  const writeFrame = (opcode: number, payload: Buffer) => {
    if (closed && opcode !== 0x8) return;
    const len = payload.length;
    const header = len < 126 ? Buffer.from([0x80 | opcode, len]) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
    if (len >= 126 && len < 65536) {
      header[0] = 0x80 | opcode;
      header[1] = 126;
      header.writeUInt16BE(len, 2);
    } else if (len >= 65536) {
      header[0] = 0x80 | opcode;
      header[1] = 127;
      header.writeBigUInt64BE(BigInt(len), 2);
    }
    socket.write(Buffer.concat([header, payload]));
  };

  const conn: WsConnection = {
    send: (text) => writeFrame(0x1, Buffer.from(text, "utf8")),
    close(code = 1000) {
      if (closed) return;
      const p = Buffer.alloc(2);
      p.writeUInt16BE(code);
      writeFrame(0x8, p);
      closed = true;
      socket.end();
    },
    get closed() {
      return closed;
    },
  };

  const fail = (code: number) => {
    conn.close(code);
    socket.destroy();
  };

  const parse = () => {
    while (buf.length >= 2) {
      const fin = (buf[0]! & 0x80) !== 0;
      const opcode = buf[0]! & 0x0f;
      const masked = (buf[1]! & 0x80) !== 0;
      let len = buf[1]! & 0x7f;
      let off = 2;
      if (len === 126) {
        if (buf.length < 4) return;
        len = buf.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (buf.length < 10) return;
        const big = buf.readBigUInt64BE(2);
        if (big > BigInt(MAX_MESSAGE)) return fail(1009);
        len = Number(big);
        off = 10;
      }
      if (!masked) return fail(1002); // client frames must be masked
      if (len > MAX_MESSAGE) return fail(1009);
      if (buf.length < off + 4 + len) return;
      const mask = buf.subarray(off, off + 4);
      const payload = Buffer.from(buf.subarray(off + 4, off + 4 + len));
      for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i & 3]!;
      buf = buf.subarray(off + 4 + len);

      if (opcode === 0x8) {
        conn.close(1000);
        return;
      }
      if (opcode === 0x9) {
        writeFrame(0xa, payload);
        continue;
      }
      if (opcode === 0xa) continue;
      if (opcode === 0x1 || opcode === 0x2 || opcode === 0x0) {
        fragments.push(payload);
        fragmentBytes += payload.length;
        if (fragmentBytes > MAX_MESSAGE) return fail(1009);
        if (fin) {
          const text = Buffer.concat(fragments).toString("utf8");
          fragments = [];
          fragmentBytes = 0;
          handlers.onMessage(conn, text);
        }
        continue;
      }
      return fail(1002);
    }
  };

  socket.on("data", (chunk: Buffer) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    parse();
  });
  const finish = () => {
    if (!closed) closed = true;
    handlers.onClose(conn);
  };
  socket.once("close", finish);
  socket.on("error", () => socket.destroy());
  if (buf.length) queueMicrotask(parse);
  return conn;
}
