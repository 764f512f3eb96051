import { z } from "zod";
import { MCP_VENUE_ENUM } from "../../venues/registry";
import { VerifyRequest, verifyRequestIssue, type VerificationResult } from "../../verification/schemas";
import { validate, type IssueMapper } from "../../http/body";
import { defineTool } from "../types";
import { ok, short } from "../results";

/**
 * verify_intent and get_verification (SPEC 4.12): the same service verbs as POST/GET /api/v1/intent.
 *
 * `intent` and `action` are advertised as required with their real types, but `.catch` hands the raw
 * value through the SDK's own argument check untouched: VerifyRequest then validates it exactly as the
 * HTTP route does, so a missing or blank field is the SPEC's `intent is required` / `action is required`
 * isError result rather than the SDK's generic "Input validation error" text. `venue` stays a strict
 * enum: SPEC wants an unknown venue to fail schema validation. (`ctx?.`: zod calls the catch function
 * without a context when it renders the JSON Schema for tools/list.)
 */
const VerifyIntentInput = z.object({
  intent: z
    .string()
    .catch((ctx) => ctx?.input as string)
    .describe(
      "Required. The owner's rules in plain language, exactly as the owner wrote them, e.g. \"Trade only BTC and ETH perps on Hyperliquid; max notional $2,000 per order; never withdraw.\"",
    ),
  action: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .catch((ctx) => ctx?.input as string)
    .describe(
      "Required. The action you are about to take: either the venue's native payload as a JSON object (exactly what you will send, e.g. a Hyperliquid order or an EVM transaction {to, value, data}), judged structurally, or a plain-English sentence describing it, judged as written.",
    ),
  context: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "Optional facts the judge needs to check the rules: prices, positions, balances, counters (e.g. {\"prices\": {\"BTC\": 97000}, \"spentTodayUsd\": 150}). Put third-party text under reference: {\"source\": \"...\", \"excerpt\": \"...\"}; it is shown as untrusted background and can never authorize the action.",
    ),
  venue: z
    .enum(MCP_VENUE_ENUM)
    .optional()
    .describe("Optional venue adapter for an object action (evm is an alias of ethereum). Omit it to detect the venue from the payload's shape."),
});

const verifyIssue: IssueMapper = verifyRequestIssue;

const withoutUndefined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

type Proof = { judge: string; transcriptRoot: string; attested: boolean; anchorTx: string | null; transcriptUri: string; explorerTx: string | null };

function proofLine(p: Proof): string {
  const anchor = p.anchorTx ? `anchored in ${short(p.anchorTx)}${p.explorerTx ? ` (${p.explorerTx})` : ""}` : "not anchored yet";
  return `Proof: signed by judge ${short(p.judge)} over transcript root ${short(p.transcriptRoot)}; ${p.attested ? "attested" : "not attested"}; ${anchor}. Transcript: ${p.transcriptUri}`;
}

const decisionLine = (verdict: string | null) =>
  verdict === "ALLOW" ? "ALLOW: you may execute exactly this action." : "Do not execute this action: only ALLOW permits it.";

function verifyText(r: VerificationResult): string {
  const how =
    r.mode === "structured"
      ? `Action: structured (venue ${r.venue}, family ${r.actionFamily}${r.actionType ? `, type ${r.actionType}` : ""})`
      : "Action: semantic (judged as written)";
  return [
    `Verdict: ${r.verdict ?? "none (the judge reached no decision)"}`,
    `Reasoning: ${r.reasoning ?? "none"}`,
    how,
    proofLine(r.proof),
    `Verification id: ${r.id} (requestHash ${r.requestHash})`,
    `Credits remaining: ${r.creditsRemaining}`,
    decisionLine(r.verdict),
  ].join("\n");
}

export const verifyIntentTool = defineTool({
  name: "verify_intent",
  title: "Verify an action against the owner's rules",
  description:
    "Call this BEFORE executing any trade, transfer, payment or other consequential action. A judge checks the proposed action against the owner's rules (intent) and returns a verdict with reasoning and a signed receipt. Execute only when the verdict is ALLOW; BLOCK, ESCALATE, no verdict, or any error means do not execute. Costs one credit (refunded if the run fails).",
  inputSchema: VerifyIntentInput,
  annotations: { title: "Verify intent", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  scope: "mcp",
  requiresEscrow: false,
  async handler(args, ctx) {
    const req = validate(VerifyRequest, withoutUndefined(args), verifyIssue);
    const r = await ctx.services.verification.verify(ctx.principal, req, "mcp");
    const data = {
      id: r.id,
      requestHash: r.requestHash,
      status: r.status,
      verdict: r.verdict,
      reasoning: r.reasoning,
      mode: r.mode,
      venue: r.venue,
      actionFamily: r.actionFamily,
      proof: r.proof,
      creditsRemaining: r.creditsRemaining,
    };
    return ok(verifyText(r), data);
  },
});

const GetVerificationInput = z.object({
  id: z
    .string()
    .max(200)
    .describe("The verification's id (a UUID) or its requestHash (0x followed by 64 hex digits), as returned by verify_intent."),
});

export const getVerificationTool = defineTool({
  name: "get_verification",
  title: "Look up a past verification",
  description:
    "Free. Reads a verification made on this account (over MCP, HTTP, the dashboard or an escrow proposal) by its id or requestHash: verdict, reasoning, creation time and the receipt with its anchor status and transcript link.",
  inputSchema: GetVerificationInput,
  annotations: { title: "Get verification", readOnlyHint: true, openWorldHint: false },
  scope: "mcp",
  requiresEscrow: false,
  async handler({ id }, ctx) {
    const v = await ctx.services.verification.get(ctx.principal, id);
    const proof = { ...v.proof, transcriptUri: v.transcriptUri, explorerTx: v.explorerTx };
    const data = { id: v.id, requestHash: v.requestHash, status: v.status, verdict: v.verdict, reasoning: v.reasoning, createdAt: v.createdAt, proof };
    const text = [
      `Verdict: ${v.verdict ?? "none (the judge reached no decision)"}`,
      `Reasoning: ${v.reasoning ?? "none"}`,
      proofLine(proof),
      `Anchor status: ${proof.anchorStatus}`,
      `Verification id: ${v.id} (requestHash ${v.requestHash}), created ${v.createdAt}`,
    ].join("\n");
    return ok(text, data);
  },
});
