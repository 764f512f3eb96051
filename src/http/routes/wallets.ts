/**
 * Wallet and proposal routes under /api/v1 (SPEC 4.6-4.9, 4.11) and the operator routes under /admin/v1.
 * Thin: validate, resolve the principal, call one verb, map the typed error once. Authentication is
 * attached per path here (not with a catch-all), so it cannot leak onto other capabilities' routes.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { Services } from "../../services";
import { requireApiKey } from "../auth";
import { proofDataChars, readJson, readProofJson, validate } from "../body";
import { errorResponse } from "../errors";
import { ServiceError } from "../../lib/errors";
import { CHAIN_MESSAGE, CreateWalletRequest, resolveChain } from "../../wallets/schemas";
import { ListProposalsQuery, parseProposeBody, WithdrawRequest } from "../../proposals/schemas";
import type { AppEnv, RouteDeps } from "../types";
import type { ExplorerView } from "../../chains/port";
import "./wallets-openapi";

/** SPEC 7: `name is required`, a chain or mode message; anything else about the body is create_failed. */
const createIssue = (issue: z.core.$ZodIssue) => {
  const field = issue.path[0];
  if (field === "name") return { error: issue.message === "name is required" ? "name is required" : "create_failed", message: issue.message === "name is required" ? undefined : `name: ${issue.message}` };
  if (field === "chain" || field === "chainType" || field === "mode") return { error: issue.message };
  return { error: "create_failed", message: `${issue.path.join(".") || "body"}: ${issue.message}` };
};

function unconfigured(services: Services) {
  if (!services.wallets.configured()) throw new ServiceError("unavailable", "escrow_unconfigured", "escrow wallets are not configured on this deployment");
}

/** Where a propose body carries a STRK20 proof: `input.proof` of a starknet_calls input. */
const proposeProofChars = (body: unknown): number => {
  const input = (body as { input?: { kind?: unknown; proof?: unknown } } | null)?.input;
  return input?.kind === "starknet_calls" ? proofDataChars(input.proof) : 0;
};

export function walletRoutes({ services, logger, bodyLimitBytes }: RouteDeps) {
  const app = new Hono<AppEnv>();
  const auth = requireApiKey(services.accounts);
  for (const p of ["/wallets", "/wallets/*", "/escrow-transactions", "/escrow-transactions/*"]) app.use(p, auth);

  app.get("/wallets", async (c) => {
    const includeArchived = c.req.query("includeArchived") === "true";
    const wallets = await services.wallets.list(c.get("principal"), { includeArchived });
    return c.json({ wallets: wallets.map(({ provider: _p, rules: _r, explorerAddressUrl: _e, gas: _g, ...w }) => w) }, 200);
  });

  app.post("/wallets", async (c) => {
    const raw = await readJson(c);
    const body = validate(CreateWalletRequest, raw, createIssue, "invalid JSON body");
    const chain = resolveChain(body);
    if (!chain) throw new ServiceError("invalid_input", body.chain && body.chainType ? "chain and chainType disagree" : CHAIN_MESSAGE);
    unconfigured(services);
    const { notes, ...wallet } = await services.wallets.create(c.get("principal"), { name: body.name, chain, mode: body.mode, mandate: body.mandate, limits: body.limits });
    return c.json({ ...wallet, ...(notes.length ? { warnings: notes } : {}) }, 201);
  });

  app.get("/wallets/:id", async (c) => c.json(await services.wallets.get(c.get("principal"), c.req.param("id")), 200));

  app.get("/wallets/:id/balances", async (c) => {
    const { warnings, ...b } = await services.wallets.balances(c.get("principal"), c.req.param("id"));
    return c.json({ ...b, ...(warnings ? { warnings } : {}) }, 200);
  });

  app.post("/wallets/:id/propose", async (c) => {
    const req = parseProposeBody(validate(z.record(z.string(), z.unknown()), await readProofJson(c, bodyLimitBytes, proposeProofChars), undefined, "input is required"));
    try {
      return c.json(await services.proposals.propose(c.get("principal"), c.req.param("id"), req, "api"), 200);
    } catch (err) {
      return errorResponse(c, err, logger, "propose_failed");
    }
  });

  app.get("/escrow-transactions", async (c) => {
    const q = validate(ListProposalsQuery, c.req.query());
    return c.json({ transactions: await services.proposals.list(c.get("principal"), q) }, 200);
  });

  app.get("/escrow-transactions/:txId", async (c) => c.json(await services.proposals.status(c.get("principal"), c.req.param("txId")), 200));

  return app;
}

/**
 * Operator routes (admin token). Operators act for an account by naming globally unique ids: a wallet
 * by its `wal_` id (names are unique only per account, so they are not accepted here), a proposal by its
 * `prop_` id. The owner's dashboard calls the same verbs scoped to the signed-in account.
 */
export function walletAdminMount(services: Services) {
  return (app: Hono<AppEnv>) => {
    app.post("/wallets/:id/archive", async (c) => c.json(await services.wallets.archive(c.req.param("id")), 200));
    app.post("/wallets/:id/unarchive", async (c) => c.json(await services.wallets.unarchive(c.req.param("id")), 200));
    app.post("/wallets/:id/withdraw", async (c) => {
      const body = validate(WithdrawRequest, await readJson(c));
      return c.json(await services.proposals.withdraw({ accountId: null }, c.req.param("id"), body), 200);
    });
    app.post("/proposals/:txId/confirm", async (c) => c.json(await services.proposals.confirm({ accountId: null }, c.req.param("txId")), 200));
    app.post("/proposals/:txId/reject", async (c) => c.json(await services.proposals.reject({ accountId: null }, c.req.param("txId")), 200));
  };
}

/**
 * A minimal read-only explorer for the sandbox chain, so the `explorerUrl` / `explorerAddressUrl` links
 * of a sandbox deployment resolve (production links point at Basescan, Voyager). One route for every family
 * whose explorer view has this shape (Base at /sandbox/explorer, Starknet at /sandbox/explorer/starknet). Public like any block explorer:
 * everything it shows is on the (local) chain for anyone to read.
 */
export function sandboxExplorerRoutes(view: ExplorerView, chainName = "the sandbox chain") {
  const app = new Hono<AppEnv>();
  app.get("/tx/:hash", async (c) => {
    const tx = await view.transaction(c.req.param("hash"));
    if (!tx) return c.json({ error: "not_found", message: `no such transaction on ${chainName}` }, 404);
    return c.json(tx, 200);
  });
  app.get("/address/:address", async (c) => {
    const account = await view.account(c.req.param("address"));
    if (!account) return c.json({ error: "not_found" }, 404);
    return c.json(account, 200);
  });
  return app;
}
