/** Pure rules of the authorization server: redirect URIs (RFC 8252), PKCE S256 (RFC 7636), scopes. */
import { describe, expect, it } from "vitest";
import { matchRedirectUri, redirectUriProblem } from "../../src/oauth/redirect";
import { parseScope, pkceMatches } from "../../src/oauth/model";
import { pkcePair } from "./helpers";

describe("redirect URIs", () => {
  it("registers https anywhere and http only on loopback hosts", () => {
    for (const ok of ["https://a.example/cb", "https://a.example/cb?x=1", "http://127.0.0.1/cb", "http://127.0.0.1:8976/cb", "http://[::1]:3000/cb", "http://localhost:5/cb"]) {
      expect(redirectUriProblem(ok), ok).toBeNull();
    }
    for (const bad of ["http://a.example/cb", "http://127.0.0.2/cb", "https://a.example/cb#x", "https://user:pw@a.example/cb", "myapp:/cb", "file:///etc/passwd", "/relative", ""]) {
      expect(redirectUriProblem(bad), bad).not.toBeNull();
    }
    expect(redirectUriProblem(`https://a.example/${"x".repeat(2000)}`)).toMatch(/2000/);
  });

  it("matches exactly, letting only a loopback URI's port vary", () => {
    const reg = ["http://127.0.0.1/callback", "https://a.example/cb"];
    expect(matchRedirectUri(reg, "http://127.0.0.1/callback")).toBe("http://127.0.0.1/callback");
    expect(matchRedirectUri(reg, "http://127.0.0.1:61234/callback")).toBe("http://127.0.0.1:61234/callback");
    expect(matchRedirectUri(reg, "https://a.example/cb")).toBe("https://a.example/cb");
    for (const bad of ["https://a.example:444/cb", "https://a.example/cb/", "https://a.example/CB", "http://localhost:61234/callback", "http://127.0.0.1:1/callback?x=1", "http://127.0.0.1:1/callback#f", "https://127.0.0.1/callback"]) {
      expect(matchRedirectUri(reg, bad), bad).toBeNull();
    }
  });
});

describe("PKCE and scopes", () => {
  it("accepts only the verifier that hashes to the challenge", () => {
    const { verifier, challenge } = pkcePair();
    expect(pkceMatches(verifier, challenge)).toBe(true);
    expect(pkceMatches(pkcePair().verifier, challenge)).toBe(false);
    expect(pkceMatches(challenge, challenge)).toBe(false);
    expect(pkceMatches("short", challenge)).toBe(false);
    expect(pkceMatches(`${verifier}!`, challenge)).toBe(false);
  });

  it("implies mcp in every grant and refuses unknown scopes", () => {
    expect(parseScope(undefined)).toEqual(["mcp"]);
    expect(parseScope("wallet")).toEqual(["mcp", "wallet"]);
    expect(parseScope("mcp  wallet")).toEqual(["mcp", "wallet"]);
    expect(() => parseScope("mcp admin")).toThrow(/unknown scope/);
  });
});
