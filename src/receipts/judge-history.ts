/**
 * The judge document the service publishes, kept in `DATA_DIR/judge-keys.json` (public data: addresses,
 * periods, rotation signatures; never a private key).
 *
 * - First start: the file is created with the current key, valid from now.
 * - `rotateJudgeKey` (the CLI's `judge rotate`, run while the service is stopped): the current key signs the
 *   next key's entry (src/receipts/judge-identity.ts), the file gets the new entry and, when the key lives in
 *   `DATA_DIR/judge-key`, that file gets the new key (the old one is kept as `judge-key.retired-<address>`).
 * - A start with a key that is not the document's last (JUDGE_SIGNING_KEY changed by hand): the new key is
 *   appended WITHOUT a rotation signature and a warning is logged. Verifiers following signed links stop
 *   there, so receipts of the new key are refused until it is pinned afresh: nothing breaks silently.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isAddressEqual, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { isoSeconds, JudgeDocument, signRotation } from "./judge-identity";
import { JUDGE_KEY_FILE, loadJudgeKey } from "./judge-key";

export const JUDGE_KEYS_FILE = "judge-keys.json";

function writeDoc(file: string, doc: JudgeDocument): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o644 });
  renameSync(tmp, file);
}

function readDoc(file: string): JudgeDocument {
  const parsed = JudgeDocument.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file} is not a judge document: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

export function loadJudgeDocument(opts: { dataDir: string | null; current: Hex; now: Date; warn?: (msg: string) => void }): JudgeDocument {
  const fresh: JudgeDocument = { version: 1, keys: [{ address: opts.current, validFrom: isoSeconds(opts.now), validUntil: null }] };
  if (!opts.dataDir) return fresh;
  const file = join(opts.dataDir, JUDGE_KEYS_FILE);
  if (!existsSync(file)) {
    writeDoc(file, fresh);
    return fresh;
  }
  const doc = readDoc(file);
  const last = doc.keys[doc.keys.length - 1];
  if (isAddressEqual(last.address as Hex, opts.current)) return { version: 1, keys: doc.keys };
  opts.warn?.(`the judge key changed to ${opts.current} without a signed rotation (npm run cli -- judge rotate); verifiers that pinned ${last.address} will refuse its receipts until they pin the new key`);
  const at = isoSeconds(opts.now);
  const keys = [...doc.keys.slice(0, -1), { ...last, validUntil: last.validUntil ?? at }, { address: opts.current, validFrom: at, validUntil: null, rotation: null }];
  const next = { version: 1 as const, keys };
  writeDoc(file, next);
  return next;
}

/**
 * Rotates the judge key in `dataDir`: the current key (JUDGE_SIGNING_KEY when `envKey` is set, else
 * DATA_DIR/judge-key) signs `newKey` (generated when absent). With a key file, the file is replaced; with an
 * environment key the operator sets JUDGE_SIGNING_KEY to the new key before restarting.
 */
export async function rotateJudgeKey(opts: { dataDir: string; envKey?: string | null; newKey?: Hex | null; now: Date }): Promise<{ previous: Hex; next: Hex; validFrom: string; keyFileReplaced: boolean }> {
  const old = loadJudgeKey({ envKey: opts.envKey, dataDir: opts.dataDir });
  const doc = loadJudgeDocument({ dataDir: opts.dataDir, current: old.address, now: opts.now });
  const newKey = opts.newKey ?? generatePrivateKey();
  const next = privateKeyToAccount(newKey).address;
  if (isAddressEqual(next, old.address)) throw new Error("the new judge key is the current one");
  const { closedPrevious, entry } = await signRotation(old.account, doc.keys[doc.keys.length - 1], next, opts.now);
  writeDoc(join(opts.dataDir, JUDGE_KEYS_FILE), { version: 1, keys: [...doc.keys.slice(0, -1), closedPrevious, entry] });
  const usesFile = !(opts.envKey && opts.envKey.trim() !== "");
  if (usesFile) {
    const keyFile = join(opts.dataDir, JUDGE_KEY_FILE);
    renameSync(keyFile, `${keyFile}.retired-${old.address}`);
    writeFileSync(keyFile, `${newKey}\n`, { mode: 0o600, flag: "wx" });
  }
  return { previous: old.address, next, validFrom: entry.validFrom, keyFileReplaced: usesFile };
}
