/**
 * Solana JSON-RPC methods over the sandbox ledger, in the shapes Agave answers with (checked against
 * unmodified @solana/kit and @solana/web3.js clients in test/chains/solana/sandbox.test.ts).
 *
 * "Contextual" methods answer `{context: {apiVersion, slot}, value}`; getGenesisHash, getSlot,
 * getBlockHeight, getMinimumBalanceForRentExemption, sendTransaction and requestAirdrop answer bare values.
 * The `sandbox_*` methods exist only here (fault injection and time travel for tests).
 */
import { getBase58Encoder, type Address } from "@solana/kit";
import { decodeMintAccount, decodeTokenAccount, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, type MintState } from "../spl";
import { encodeAccount, tokenAmountJson, type AccountEncoding } from "./account-json";
import type { HoldMode, SvmLedger } from "./ledger";
import { SendRefused, type SimulationResult } from "./simulation";
import { base58FromBytes, compiledMessage, decodeWire, estimateFee } from "./wire";
import { errorMessage } from "./errors";

export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const API_VERSION = "2.2.0";
const b58 = getBase58Encoder();

type Params = unknown[];
type Handler = (ledger: SvmLedger, params: Params) => unknown;

const invalidParams = (m: string) => new RpcFailure(-32602, `Invalid params: ${m}`);

function str(params: Params, i: number, what: string): string {
  const v = params[i];
  if (typeof v !== "string" || !v) throw invalidParams(`${what} must be a string`);
  return v;
}

function address(params: Params, i: number): Address {
  const v = str(params, i, "address");
  let bytes: Uint8Array;
  try {
    bytes = b58.encode(v) as Uint8Array;
  } catch {
    throw invalidParams("Invalid param: WrongSize");
  }
  if (bytes.length !== 32) throw invalidParams("Invalid param: WrongSize");
  return v as Address;
}

function config(params: Params, i: number): Record<string, unknown> {
  const v = params[i];
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function decodeTxParam(params: Params): Uint8Array {
  const raw = str(params, 0, "transaction");
  const enc = config(params, 1).encoding ?? "base58";
  try {
    const bytes = enc === "base64" ? Buffer.from(raw, "base64") : (b58.encode(raw) as Uint8Array);
    decodeWire(bytes); // validates
    return new Uint8Array(bytes);
  } catch {
    throw invalidParams(`failed to deserialize the transaction (${String(enc)})`);
  }
}

const ctx = (ledger: SvmLedger, value: unknown) => ({ context: { apiVersion: API_VERSION, slot: ledger.slot() }, value });

function mintLookup(ledger: SvmLedger) {
  const cache = new Map<string, MintState | null>();
  return (mint: string) => {
    if (!cache.has(mint)) {
      const a = ledger.getAccount(mint as Address);
      cache.set(mint, a.exists ? decodeMintAccount(String(a.programAddress), a.data) : null);
    }
    return cache.get(mint)!;
  };
}

function accountJson(ledger: SvmLedger, addr: Address, encoding: AccountEncoding, mintOf = mintLookup(ledger)) {
  const a = ledger.getAccount(addr);
  return a.exists ? encodeAccount(a, encoding, mintOf) : null;
}

function simulationJson(ledger: SvmLedger, sim: SimulationResult, o: { addresses?: string[]; encoding: AccountEncoding; innerInstructions: boolean; replacement?: unknown }) {
  const mintOf = mintLookup(ledger);
  return {
    err: sim.err,
    logs: sim.logs,
    accounts:
      sim.err || !o.addresses
        ? null
        : o.addresses.map((addr) => {
            const post = sim.postAccounts.get(addr);
            return post ? encodeAccount(post, o.encoding, mintOf) : accountJson(ledger, addr as Address, o.encoding, mintOf);
          }),
    unitsConsumed: sim.unitsConsumed,
    returnData: sim.returnData ? { programId: sim.returnData.programId, data: [Buffer.from(sim.returnData.data).toString("base64"), "base64"] } : null,
    innerInstructions: o.innerInstructions
      ? sim.innerInstructions.map((g) => ({ index: g.index, instructions: g.instructions.map((i) => ({ programIdIndex: i.programIdIndex, accounts: i.accounts, data: base58FromBytes.decode(i.data), stackHeight: i.stackHeight })) }))
      : null,
    replacementBlockhash: o.replacement ?? null,
    loadedAccountsDataSize: 0,
  };
}

function tokenAccountsOf(ledger: SvmLedger, owner: string, filter: { mint?: string; programId?: string }) {
  const programs = filter.programId ? [filter.programId] : [TOKEN_PROGRAM, TOKEN_2022_PROGRAM];
  if (filter.programId && filter.programId !== TOKEN_PROGRAM && filter.programId !== TOKEN_2022_PROGRAM) throw invalidParams("Invalid param: unrecognized Token program id");
  const out: { address: Address; account: ReturnType<SvmLedger["programAccounts"]>[number] }[] = [];
  for (const p of programs) {
    for (const a of ledger.programAccounts(p as Address)) {
      const t = decodeTokenAccount(p, a.data as Uint8Array);
      if (t && t.owner === owner && (!filter.mint || t.mint === filter.mint)) out.push({ address: a.address, account: a });
    }
  }
  return out;
}

const HANDLERS: Record<string, Handler> = {
  getHealth: () => "ok",
  getVersion: () => ({ "solana-core": API_VERSION, "feature-set": 0 }),
  getGenesisHash: (l) => l.genesisHash,
  getIdentity: () => ({ identity: "ArbiterSandbox1111111111111111111111111111" }),
  getSlot: (l) => l.slot(),
  getBlockHeight: (l) => l.slot(),
  getEpochInfo: (l) => ({ absoluteSlot: l.slot(), blockHeight: l.slot(), epoch: l.slot() / 432_000n, slotIndex: l.slot() % 432_000n, slotsInEpoch: 432_000n, transactionCount: null }),
  getLatestBlockhash: (l) => {
    const { blockhash, lastValidBlockHeight } = l.latestBlockhash();
    return ctx(l, { blockhash, lastValidBlockHeight });
  },
  isBlockhashValid: (l, p) => ctx(l, l.isBlockhashValid(str(p, 0, "blockhash"))),
  getBalance: (l, p) => ctx(l, l.getBalance(address(p, 0))),
  getAccountInfo: (l, p) => ctx(l, accountJson(l, address(p, 0), (config(p, 1).encoding as AccountEncoding) ?? "base58")),
  getMultipleAccounts: (l, p) => {
    const list = p[0];
    if (!Array.isArray(list) || list.length > 100) throw invalidParams("expected up to 100 addresses");
    const enc = (config(p, 1).encoding as AccountEncoding) ?? "base58";
    const mintOf = mintLookup(l);
    return ctx(l, list.map((_, i) => accountJson(l, address(list, i), enc, mintOf)));
  },
  getProgramAccounts: (l, p) => {
    const program = address(p, 0);
    const c = config(p, 1);
    const enc = (c.encoding as AccountEncoding) ?? "base58";
    const filters = Array.isArray(c.filters) ? (c.filters as { dataSize?: number; memcmp?: { offset: number; bytes: string } }[]) : [];
    const mintOf = mintLookup(l);
    const rows = l
      .programAccounts(program)
      .filter((a) =>
        filters.every((f) => {
          if (f.dataSize !== undefined) return a.data.length === Number(f.dataSize);
          if (f.memcmp) {
            const want = b58.encode(f.memcmp.bytes);
            const off = Number(f.memcmp.offset);
            return want.every((b, i) => a.data[off + i] === b);
          }
          return true;
        }),
      )
      .map((a) => ({ pubkey: a.address, account: encodeAccount(a, enc, mintOf) }));
    return c.withContext ? ctx(l, rows) : rows;
  },
  getTokenAccountsByOwner: (l, p) => {
    const owner = address(p, 0);
    const filter = config(p, 1) as { mint?: string; programId?: string };
    if (!filter.mint && !filter.programId) throw invalidParams("Invalid params: expected mint or programId");
    const enc = (config(p, 2).encoding as AccountEncoding) ?? "base58";
    const mintOf = mintLookup(l);
    return ctx(l, tokenAccountsOf(l, owner, filter).map((r) => ({ pubkey: r.address, account: encodeAccount(r.account, enc, mintOf) })));
  },
  getTokenAccountBalance: (l, p) => {
    const a = l.getAccount(address(p, 0));
    const t = a.exists ? decodeTokenAccount(String(a.programAddress), a.data) : null;
    if (!t) throw invalidParams("Invalid param: not a Token account");
    return ctx(l, tokenAmountJson(t.amount, mintLookup(l)(t.mint)?.decimals ?? 0));
  },
  getTokenSupply: (l, p) => {
    const a = l.getAccount(address(p, 0));
    const m = a.exists ? decodeMintAccount(String(a.programAddress), a.data) : null;
    if (!m) throw invalidParams("Invalid param: not a Token mint");
    return ctx(l, tokenAmountJson(m.supply, m.decimals));
  },
  getMinimumBalanceForRentExemption: (l, p) => l.minimumBalanceForRentExemption(BigInt(Number(p[0] ?? 0))),
  getFeeForMessage: (l, p) => {
    const raw = Buffer.from(str(p, 0, "message"), "base64");
    // A message alone: wrap it as an unsigned transaction so the shared decoder reads it.
    const numSigs = raw[0]! & 0x80 ? raw[1]! : raw[0]!;
    const wire = Buffer.concat([Buffer.from([numSigs]), Buffer.alloc(64 * numSigs), raw]);
    try {
      return ctx(l, estimateFee(decodeWire(wire)));
    } catch {
      throw invalidParams("failed to deserialize the message");
    }
  },
  getRecentPrioritizationFees: () => [],
  getBlockTime: () => Math.floor(Date.now() / 1000),
  simulateTransaction: (l, p) => {
    const wire = decodeTxParam(p);
    const c = config(p, 1);
    const replace = c.replaceRecentBlockhash === true;
    const accounts = c.accounts as { addresses?: string[]; encoding?: AccountEncoding } | undefined;
    const sim = l.simulate(decodeWire(wire), { sigVerify: c.sigVerify === true, checkLifetime: !replace });
    const latest = l.latestBlockhash();
    return ctx(
      l,
      simulationJson(l, sim, {
        addresses: accounts?.addresses,
        encoding: accounts?.encoding ?? "base64",
        innerInstructions: c.innerInstructions === true,
        replacement: replace ? { blockhash: latest.blockhash, lastValidBlockHeight: latest.lastValidBlockHeight } : undefined,
      }),
    );
  },
  sendTransaction: async (l, p) => {
    const wire = decodeTxParam(p);
    try {
      return await l.send(wire, { skipPreflight: config(p, 1).skipPreflight === true });
    } catch (err) {
      if (!(err instanceof SendRefused)) throw err;
      const sim = err.simulation;
      throw new RpcFailure(-32002, `Transaction simulation failed: ${errorMessage(err.err)}`, {
        err: err.err,
        logs: sim?.logs ?? [],
        accounts: null,
        unitsConsumed: sim?.unitsConsumed ?? 0n,
        returnData: null,
        innerInstructions: null,
      });
    }
  },
  getSignatureStatuses: (l, p) => {
    const sigs = p[0];
    if (!Array.isArray(sigs) || sigs.length > 256) throw invalidParams("expected up to 256 signatures");
    return ctx(
      l,
      sigs.map((s) => {
        const st = l.status(String(s));
        return st ? { slot: st.slot, confirmations: null, err: st.err, status: st.err ? { Err: st.err } : { Ok: null }, confirmationStatus: "finalized" } : null;
      }),
    );
  },
  getTransaction: (l, p) => {
    const t = l.transaction(str(p, 0, "signature"));
    if (!t || !t.wire) return null;
    const enc = config(p, 1).encoding ?? "json";
    const tx = decodeWire(Buffer.from(t.wire, "base64"));
    const msg = compiledMessage(tx);
    const version = (msg as unknown as { version: number | "legacy" }).version;
    const transaction =
      enc === "base64"
        ? [t.wire, "base64"]
        : {
            signatures: Object.values(tx.signatures).map((s) => (s ? base58FromBytes.decode(s) : null)),
            message: {
              accountKeys: msg.staticAccounts,
              header: msg.header,
              recentBlockhash: msg.lifetimeToken,
              instructions: msg.instructions.map((i) => ({ programIdIndex: i.programAddressIndex, accounts: i.accountIndices ?? [], data: base58FromBytes.decode(i.data ?? new Uint8Array()), stackHeight: null })),
              ...(version === 0 ? { addressTableLookups: msg.addressTableLookups ?? [] } : {}),
            },
          };
    return {
      slot: t.slot,
      blockTime: t.blockTime,
      version: version === "legacy" ? "legacy" : version,
      transaction,
      meta: {
        err: t.err,
        status: t.err ? { Err: t.err } : { Ok: null },
        fee: t.fee,
        preBalances: t.preBalances,
        postBalances: t.postBalances,
        logMessages: t.logs,
        innerInstructions: [],
        preTokenBalances: [],
        postTokenBalances: [],
        rewards: [],
        loadedAddresses: { writable: [], readonly: [] },
        computeUnitsConsumed: t.unitsConsumed,
      },
    };
  },
  getSignaturesForAddress: (l, p) => {
    const addr = address(p, 0);
    const limit = Math.min(1000, Math.max(1, Number(config(p, 1).limit ?? 1000)));
    return l.recent(limit, addr).map((t) => ({ signature: t.signature, slot: t.slot, err: t.err, memo: null, blockTime: t.blockTime, confirmationStatus: "finalized" }));
  },
  requestAirdrop: (l, p) => {
    const to = address(p, 0);
    const amount = BigInt(Number(p[1] ?? 0));
    if (amount <= 0n || amount > 1_000n * 10n ** 9n) throw invalidParams("airdrop amount must be between 1 lamport and 1000 SOL");
    return l.airdrop(to, amount);
  },
  sandbox_warpSlots: (l, p) => l.warpSlots(BigInt(Number(p[0] ?? 1))),
  sandbox_holdSends: (l, p) => {
    const mode = p[0] ?? null;
    if (mode !== null && mode !== "land" && mode !== "drop") throw invalidParams('mode must be "land", "drop" or null');
    l.hold = mode as HoldMode;
    return l.hold;
  },
  sandbox_heldSends: (l) => l.heldSends,
};

export async function dispatch(ledger: SvmLedger, method: string, params: unknown): Promise<unknown> {
  const h = HANDLERS[method];
  if (!h) throw new RpcFailure(-32601, "Method not found");
  return h(ledger, Array.isArray(params) ? params : params === undefined ? [] : [params]);
}
