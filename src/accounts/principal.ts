/** Who is calling, after authentication. Every service verb takes one and scopes every query by accountId. */
export type AuthMethod = "api_key" | "oauth" | "topup_code" | "session";
export type Scope = "mcp" | "wallet";

export interface Principal {
  accountId: string;
  authMethod: AuthMethod;
  /** API keys and dashboard sessions hold every scope; OAuth tokens hold what was granted. */
  scopes: ReadonlySet<Scope>;
  credentialId: string | null;
}

export const ALL_SCOPES: ReadonlySet<Scope> = new Set<Scope>(["mcp", "wallet"]);
