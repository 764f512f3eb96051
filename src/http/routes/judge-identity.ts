import type { Hono } from "hono";
import { cors } from "hono/cors";
import type { JudgeDocument } from "../../receipts/judge-identity";
import type { AppEnv } from "../types";

export const JUDGE_DOCUMENT_PATH = "/.well-known/arbiter-judge.json";

/**
 * The judge keys and their validity periods, with signed rotations (src/receipts/judge-identity.ts). Public,
 * no credential, readable from any origin: verifiers fetch it once and pin it (`npm run cli -- judge pin`).
 */
export function judgeIdentityMount(document: () => JudgeDocument) {
  return (app: Hono<AppEnv>) => {
    app.use(JUDGE_DOCUMENT_PATH, cors({ origin: "*", allowMethods: ["GET"], maxAge: 600 }));
    app.get(JUDGE_DOCUMENT_PATH, (c) => {
      c.header("cache-control", "public, max-age=300");
      return c.json(document());
    });
  };
}
