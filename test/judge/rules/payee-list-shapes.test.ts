/**
 * Recipients taken from lists in context, in the shapes callers send them: a Solana list of wallets paid into their
 * associated token accounts, a table pairing x402 hosts with payees (as a map or as entries), and the words owners
 * use for "the address that host registered". Each unsafe side is beside the case that passes.
 */
import { describe, expect, it } from "vitest";
import { address, createNoopSigner, type Address, type Instruction } from "@solana/kit";
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { detectAction, resolveVenue } from "../../../src/venues/registry";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { labelled, solanaWire } from "../fixtures/gen/common";
import { isAssociatedAccount } from "../../../src/venues/lib/solana-ata";

const L = labelled("payee-list-shapes-test");
const USDC = address("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const ata = async (owner: string) => (await findAssociatedTokenPda({ owner: owner as Address, mint: USDC, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];

function judge(intent: string, action: unknown, venue: string, context: Record<string, unknown>): string {
  const facts = detectAction(action, resolveVenue(venue), context);
  return evaluateRules({ intent, action, facts, context, reference: null, note: null, preset: "generic" }).verdict;
}

describe("the offline associated-account test agrees with the Associated Token program's derivation", () => {
  it("for 60 wallets: their own account matches, a neighbour's and another mint's do not", async () => {
    const BONK = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
    for (let i = 0; i < 60; i++) {
      const [w, next] = [L.sol(`w${i}`), L.sol(`w${i + 1}`)];
      const mine = await ata(w);
      expect(isAssociatedAccount(mine, w, USDC, TOKEN_PROGRAM_ADDRESS)).toBe(true);
      expect(isAssociatedAccount(mine, next, USDC, TOKEN_PROGRAM_ADDRESS)).toBe(false);
      expect(isAssociatedAccount(mine, w, BONK, TOKEN_PROGRAM_ADDRESS)).toBe(false);
    }
  });
});

describe("Solana: a list of wallets, paid into their USDC token accounts", () => {
  const SHOP = L.sol("shop");
  const ALICE = L.sol("illustrator-a");
  const BORIS = L.sol("illustrator-b");
  const NOBODY = L.sol("someone-else");
  const I = "This shop wallet pays the illustrators whose wallets are in context.artists, in USDC, 300 USDC at most per payment.";
  const ctx = { wallet: SHOP, artists: [ALICE, BORIS] };
  const pay = async (owner: string, base: bigint, create: boolean) => {
    const ixs: Instruction[] = [];
    if (create) ixs.push(getCreateAssociatedTokenIdempotentInstruction({ payer: createNoopSigner(SHOP), ata: await ata(owner), owner: owner as Address, mint: USDC }));
    ixs.push(getTransferCheckedInstruction({ source: await ata(SHOP), mint: USDC, destination: await ata(owner), authority: createNoopSigner(SHOP), amount: base, decimals: 6 }));
    return solanaWire(SHOP, ixs, { blockhash: L.sol("bh"), lastValidBlockHeight: 1000n });
  };

  it("a payment into a listed wallet's associated account is a payment to that wallet", async () => {
    expect(judge(I, await pay(BORIS, 120_000_000n, false), "solana", ctx)).toBe("ALLOW");
    expect(judge(I, await pay(ALICE, 300_000_000n, true), "solana", ctx)).toBe("ALLOW");
  });

  it("the associated account of a wallet nobody listed is refused, whether or not the transaction creates it", async () => {
    expect(judge(I, await pay(NOBODY, 50_000_000n, true), "solana", ctx)).toBe("BLOCK");
    expect(judge(I, await pay(NOBODY, 50_000_000n, false), "solana", ctx)).toBe("BLOCK");
  });

  it("a listed wallet's account still meets the cap", async () => {
    expect(judge(I, await pay(ALICE, 301_000_000n, false), "solana", ctx)).toBe("BLOCK");
  });

  it("without the list the owner of the account is not known: never allowed", async () => {
    expect(judge(I, await pay(ALICE, 100_000_000n, false), "solana", { wallet: SHOP })).not.toBe("ALLOW");
  });
});

const USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
function x402(url: string, payTo: string, value = "50000") {
  return {
    x402Version: 2,
    resource: { url, description: "data", mimeType: "application/json" },
    accepted: { scheme: "exact", network: "eip155:8453", amount: value, asset: USDC_BASE, payTo, maxTimeoutSeconds: 60, extra: { name: "USD Coin", version: "2" } },
    payload: { signature: L.sig65(url + payTo), authorization: { from: L.evm("buyer"), to: payTo, value, validAfter: "1800000000", validBefore: "1800000060", nonce: L.hex32(url + payTo) } },
  };
}

describe("x402: a recipient list that pairs hosts with payees", () => {
  const P1 = L.evm("payee-glacier");
  const P2 = L.evm("payee-orchard");
  const I = "Research bot, x402 in USDC on Base. It pays only the sellers in context.sellers (host name -> payout address). 10 cents max per request.";
  const ctx = { sellers: { "glacier.example": P1.toLowerCase(), "api.orchard.example": P2 } };

  it("a listed host paid at its own payee passes (address case aside)", () => {
    expect(judge(I, x402("https://glacier.example/v1/ice", P1), "x402", ctx)).toBe("ALLOW");
    expect(judge(I, x402("https://api.orchard.example/v2/yield", P2), "x402", ctx)).toBe("ALLOW");
  });

  it("a listed host asking to be paid at another listed host's payee is refused", () => {
    expect(judge(I, x402("https://glacier.example/v1/ice", P2), "x402", ctx)).toBe("BLOCK");
  });

  it("an unlisted host is refused even when its payee is on the table for another host", () => {
    expect(judge(I, x402("https://glacier.example.cheapdata.io/v1/ice", P1), "x402", ctx)).toBe("BLOCK");
  });

  it("without the table nothing can be checked", () => {
    expect(judge(I, x402("https://glacier.example/v1/ice", P1), "x402", {})).not.toBe("ALLOW");
  });
});

describe("x402: hosts listed as entries, paid at the address each registered", () => {
  const P1 = L.evm("payee-kiln");
  const P2 = L.evm("payee-ledgerline");
  const ctx = { buying: { vendors: [{ host: "kiln.example", payout: P1 }, { host: "ledgerline.example", payout: P2 }] } };

  for (const I of [
    "x402 purchases only from hosts in context.buying.vendors, paid to the address they registered there. Under $0.50 each.",
    "Only hosts in context.buying.vendors may be paid over x402, and the payTo has to be exactly the wallet registered there for that host. Under $0.50 each.",
  ]) {
    it(`reads "${I.slice(0, 60)}..."`, () => {
      expect(judge(I, x402("https://kiln.example/fire", P1), "x402", ctx)).toBe("ALLOW");
      expect(judge(I, x402("https://kiln.example/fire", P2), "x402", ctx)).toBe("BLOCK");
      expect(judge(I, x402("https://kiln-example.net/fire", P1), "x402", ctx)).toBe("BLOCK");
    });
  }

  it("'the address they registered' with no list anywhere is not understood", () => {
    expect(judge("x402 purchases, paid to the address they registered there. Under $0.50 each.", x402("https://kiln.example/fire", P1), "x402", ctx)).toBe("ESCALATE");
  });
});
