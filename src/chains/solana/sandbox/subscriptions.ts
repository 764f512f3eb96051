/**
 * Solana's PubSub methods over the sandbox ledger, for the clients that confirm over WebSocket:
 * web3.js `confirmTransaction` only polls after `signatureSubscribe` succeeds; kit's
 * `sendAndConfirmTransactionFactory` also opens `slotSubscribe` (blockhash expiry) and, for durable
 * nonces, `accountSubscribe`. Every other `*Subscribe` is acknowledged and never notifies.
 *
 * A signature subscription notifies once (at once if the signature has already landed) and ends, as on
 * Agave.
 */
import type { Address } from "@solana/kit";
import { stringifyJson, encodeAccount, type AccountEncoding } from "./account-json";
import type { LandedTx, SvmLedger } from "./ledger";
import type { WsConnection, WsHandlers } from "./websocket";
import { decodeMintAccount } from "../spl";

type Sub =
  | { kind: "signature"; conn: WsConnection; signature: string }
  | { kind: "slot"; conn: WsConnection }
  | { kind: "account"; conn: WsConnection; address: string; encoding: AccountEncoding; last: string }
  | { kind: "other"; conn: WsConnection };

export function createSubscriptionHub(ledger: SvmLedger): WsHandlers & { close(): void } {
  const subs = new Map<number, Sub>();
  let nextId = 1;
  const notify = (conn: WsConnection, method: string, id: number, result: unknown) =>
    conn.send(stringifyJson({ jsonrpc: "2.0", method, params: { result, subscription: id } }));
  const context = () => ({ slot: ledger.slot() });
  const mintOf = (mint: string) => {
    const a = ledger.getAccount(mint as Address);
    return a.exists ? decodeMintAccount(String(a.programAddress), a.data) : null;
  };
  const accountState = (address: string, encoding: AccountEncoding) => {
    const a = ledger.getAccount(address as Address);
    return a.exists ? encodeAccount(a, encoding, mintOf) : null;
  };

  const offLanded = ledger.onLanded((tx: LandedTx) => {
    for (const [id, s] of subs) {
      if (s.kind === "signature" && s.signature === tx.signature) {
        notify(s.conn, "signatureNotification", id, { context: { slot: tx.slot }, value: { err: tx.err } });
        subs.delete(id);
      } else if (s.kind === "account") {
        const now = accountState(s.address, s.encoding);
        const text = stringifyJson(now);
        if (text !== s.last) {
          s.last = text;
          notify(s.conn, "accountNotification", id, { context: context(), value: now });
        }
      }
    }
  });
  const offSlot = ledger.onSlot((slot) => {
    for (const [id, s] of subs) if (s.kind === "slot") notify(s.conn, "slotNotification", id, { parent: slot - 1n, root: slot, slot });
  });

  const reply = (conn: WsConnection, id: unknown, result: unknown) => conn.send(stringifyJson({ jsonrpc: "2.0", id, result }));
  const error = (conn: WsConnection, id: unknown, code: number, message: string) => conn.send(stringifyJson({ jsonrpc: "2.0", id: id ?? null, error: { code, message } }));

  return {
    onMessage(conn, text) {
      let req: { id?: unknown; method?: unknown; params?: unknown };
      try {
        req = JSON.parse(text) as typeof req;
      } catch {
        return error(conn, null, -32700, "Parse error");
      }
      // Notifications (no id), such as kit's keep-alive ping, get no answer.
      if (req.id === undefined || typeof req.method !== "string") return;
      const params = Array.isArray(req.params) ? req.params : [];
      const method = req.method;
      if (method.endsWith("Unsubscribe")) return reply(conn, req.id, subs.delete(Number(params[0])));
      if (!method.endsWith("Subscribe")) return error(conn, req.id, -32601, "Method not found");
      const id = nextId++;
      if (method === "signatureSubscribe") {
        const signature = String(params[0] ?? "");
        const landed = ledger.status(signature);
        reply(conn, req.id, id);
        if (landed) notify(conn, "signatureNotification", id, { context: { slot: landed.slot }, value: { err: landed.err } });
        else subs.set(id, { kind: "signature", conn, signature });
        return;
      }
      if (method === "slotSubscribe") subs.set(id, { kind: "slot", conn });
      else if (method === "accountSubscribe") {
        const address = String(params[0] ?? "");
        const encoding = ((params[1] as { encoding?: AccountEncoding } | undefined)?.encoding ?? "base64") as AccountEncoding;
        subs.set(id, { kind: "account", conn, address, encoding, last: stringifyJson(accountState(address, encoding)) });
      } else subs.set(id, { kind: "other", conn });
      reply(conn, req.id, id);
    },
    onClose(conn) {
      for (const [id, s] of subs) if (s.conn === conn) subs.delete(id);
    },
    close() {
      offLanded();
      offSlot();
      subs.clear();
    },
  };
}
