/** Reading an MCP tool result as the service writes it: a text block whose last part is a ```json block. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export const toolText = (r: CallToolResult): string => (r.content[0] as { text: string }).text;

/** The JSON block at the end of a tool result's text; throws naming the text when there is none. */
export function toolData(r: CallToolResult) {
  const m = /```json\n([\s\S]*)\n```$/.exec(toolText(r));
  if (!m) throw new Error(`no JSON block in: ${toolText(r)}`);
  return JSON.parse(m[1]!);
}
