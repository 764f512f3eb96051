/**
 * The judge signing key. Order of precedence:
 *  1. `envKey` (e.g. JUDGE_PRIVATE_KEY): 0x + 32 bytes hex; an invalid value is an error (never silently replaced).
 *  2. `DATA_DIR/judge-key`: read if present, else generated once and written with mode 0600
 *     (exclusive create, so two processes starting together end up with the same key).
 *  3. No dataDir (tests): a fresh in-memory key.
 * The key is never logged; errors mention the file path, never its content.
 */
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import type { Hex, LocalAccount } from "viem";
import { keyReceiptSigner, type ReceiptSigner } from "./signer";

/** The judge key as the service uses it: its address, a viem account, and the fast receipt signer. */
/** The judge's signing account (viem's LocalAccount), named here so the composition root needs no chain SDK. */
export type JudgeAccount = LocalAccount;

export interface JudgeKey {
  address: Hex;
  account: PrivateKeyAccount;
  signer: ReceiptSigner;
}

function judgeKey(privateKey: Hex): JudgeKey {
  const account = privateKeyToAccount(privateKey);
  return { address: account.address, account, signer: keyReceiptSigner(privateKey) };
}

const KEY_RE = /^0x[0-9a-fA-F]{64}$/;
export const JUDGE_KEY_FILE = "judge-key";

function parseKey(raw: string, where: string): Hex {
  const k = raw.trim();
  const withPrefix = /^[0-9a-fA-F]{64}$/.test(k) ? `0x${k}` : k;
  if (!KEY_RE.test(withPrefix)) throw new Error(`judge key from ${where} is not 0x + 32 bytes hex`);
  if (/^0x0{64}$/.test(withPrefix)) throw new Error(`judge key from ${where} is zero`);
  return withPrefix as Hex;
}

export function loadJudgeKey(opts: { envKey?: string | null; dataDir?: string | null } = {}): JudgeKey {
  if (opts.envKey && opts.envKey.trim() !== "") {
    return judgeKey(parseKey(opts.envKey, "the environment"));
  }
  if (!opts.dataDir) return judgeKey(generatePrivateKey());

  mkdirSync(opts.dataDir, { recursive: true });
  const file = join(opts.dataDir, JUDGE_KEY_FILE);
  try {
    const st = statSync(file);
    if ((st.mode & 0o077) !== 0) {
      try {
        chmodSync(file, 0o600);
      } catch {
        /* best effort */
      }
    }
    return judgeKey(parseKey(readFileSync(file, "utf8"), file));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  const key = generatePrivateKey();
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
  } catch (e) {
    // Another process created it first: use theirs.
    if ((e as NodeJS.ErrnoException).code === "EEXIST") {
      return judgeKey(parseKey(readFileSync(file, "utf8"), file));
    }
    throw e;
  }
  return judgeKey(key);
}
