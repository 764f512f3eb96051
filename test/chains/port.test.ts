import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { createChainRegistry, type ChainAdapter } from "../../src/chains/port";
import { holdsForOwner } from "../../src/chains/types";
import { MasterKey } from "../../src/wallets/custody/envelope";
import { envelopeVault } from "../../src/wallets/custody/vault";

const adapter = (key: "base" | "solana", caip2: string) => ({ info: { key, family: key === "base" ? "evm" : "solana", caip2, names: [key], name: key, sandbox: true } }) as unknown as ChainAdapter;

describe("chain registry", () => {
  it("picks the adapter by wallet chain and by CAIP-2, and nothing for an unserved chain", () => {
    const base = adapter("base", "eip155:8453");
    const sol = adapter("solana", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp");
    const r = createChainRegistry([base, sol]);
    expect(r.forWallet("base")).toBe(base);
    expect(r.forWallet("solana")).toBe(sol);
    expect(r.forWallet("ethereum")).toBeNull();
    expect(r.byCaip2(" solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp ")).toBe(sol);
    expect(r.byCaip2("eip155:1")).toBeNull();
    expect(r.all()).toEqual([base, sol]);
  });

  it("refuses two adapters for one wallet chain", () => {
    expect(() => createChainRegistry([adapter("base", "eip155:8453"), adapter("base", "eip155:84532")])).toThrow(/two chain adapters/);
  });
});

describe("warning severities", () => {
  it("holds on block and on any severity it does not know", () => {
    expect(holdsForOwner({ severity: "info" })).toBe(false);
    expect(holdsForOwner({ severity: "warn" })).toBe(false);
    expect(holdsForOwner({ severity: "block" })).toBe(true);
    expect(holdsForOwner({ severity: "critical" })).toBe(true);
  });
});

describe("key vault over the envelope encryption", () => {
  const mk = new MasterKey(randomBytes(32).toString("hex"));
  const vault = envelopeVault(mk);

  it("opens what it sealed under the same binding, zeroes the secret after use, and refuses another binding", async () => {
    const secret = new Uint8Array(randomBytes(32));
    const keyRef = vault.seal(secret, "arbiter.wallet-key.v1|wal_1|addr");
    expect(keyRef).not.toContain(Buffer.from(secret).toString("base64"));
    let seen: Uint8Array | null = null;
    const copy = await vault.open(keyRef, "arbiter.wallet-key.v1|wal_1|addr", async (s) => {
      seen = s;
      return Buffer.from(s).toString("hex");
    });
    expect(copy).toBe(Buffer.from(secret).toString("hex"));
    expect([...(seen as unknown as Uint8Array)].every((b) => b === 0)).toBe(true);
    await expect(vault.open(keyRef, "arbiter.wallet-key.v1|wal_2|addr", async () => 1)).rejects.toThrow();
    expect(vault.canOpen(keyRef)).toBe(true);
    expect(envelopeVault(new MasterKey(randomBytes(32).toString("hex"))).canOpen(keyRef)).toBe(false);
    expect(vault.canOpen("not json")).toBe(false);
  });
});
