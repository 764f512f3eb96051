/**
 * Where an MCP request carries a STRK20 proof, for the body limit (src/http/body-limit.ts holdToLimit): the
 * `starknetProof.data` of an escrow_execute call and the `proof` of a strk20_relay_private_action call, summed
 * over a batch. Anything else in the body, and every other tool's arguments, is held to the ordinary limit.
 */
import { proofDataChars } from "../http/body";

function messageProofChars(m: unknown): number {
  const msg = m as { method?: unknown; params?: { name?: unknown; arguments?: Record<string, unknown> } } | null;
  if (msg === null || typeof msg !== "object" || msg.method !== "tools/call") return 0;
  const args = msg.params?.arguments;
  if (args === null || typeof args !== "object") return 0;
  if (msg.params?.name === "escrow_execute") return proofDataChars(args.starknetProof);
  if (msg.params?.name === "strk20_relay_private_action") return typeof args.proof === "string" ? args.proof.length : 0;
  return 0;
}

export const mcpProofChars = (parsed: unknown): number => (Array.isArray(parsed) ? parsed.reduce((n: number, m) => n + messageProofChars(m), 0) : messageProofChars(parsed));
