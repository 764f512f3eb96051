import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/**
 * Tool results as SPEC 4.12 wants them: text a person can read, most ending with a fenced JSON block
 * holding the same data, and the same data as `structuredContent` for clients that read it.
 */

const fenced = (data: unknown) => "```json\n" + JSON.stringify(data, null, 2) + "\n```";

/** A successful result: `text`, then the JSON block (unless `json: false`), and structuredContent. */
export function ok(text: string, data: Record<string, unknown>, opts: { json?: boolean } = {}): CallToolResult {
  const body = opts.json === false ? text : `${text}\n\n${fenced(data)}`;
  return { content: [{ type: "text", text: body }], structuredContent: data };
}

/** A failure result. The text starts with `message` so agents can branch on its first words. */
export function failure(message: string, data: Record<string, unknown>, opts: { json?: boolean } = {}): CallToolResult {
  const body = opts.json ? `${message}\n\n${fenced(data)}` : message;
  return { isError: true, content: [{ type: "text", text: body }], structuredContent: data };
}

/** "0x1234abcd…ef01": enough of a hash to recognise it in text; the JSON block has it whole. */
export const short = (hex: string | null | undefined): string => (hex && hex.length > 18 ? `${hex.slice(0, 10)}…${hex.slice(-6)}` : (hex ?? "none"));
