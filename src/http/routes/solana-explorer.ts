/**
 * The sandbox explorer for the Solana sandbox cluster (mounted at /sandbox/explorer/solana only when the
 * Solana sandbox runs): GET /tx/:signature and GET /address/:address as JSON.
 */
import { Hono } from "hono";
import type { AppEnv } from "../types";

export interface SolanaExplorerViewPort {
  tx(signature: string): Promise<Record<string, unknown> | null>;
  address(address: string): Promise<Record<string, unknown> | null>;
}

export function solanaExplorerRoutes(view: SolanaExplorerViewPort) {
  const app = new Hono<AppEnv>();
  app.get("/tx/:signature", async (c) => {
    const t = await view.tx(c.req.param("signature"));
    return t ? c.json(t, 200) : c.json({ error: "not_found", message: "no such transaction on the Solana sandbox cluster" }, 404);
  });
  app.get("/address/:address", async (c) => {
    const a = await view.address(c.req.param("address"));
    return a ? c.json(a, 200) : c.json({ error: "not_found", message: "not a base58 Solana address" }, 404);
  });
  return app;
}
