/**
 * "always on behalf of our vault (context.vault)" and later "Only back to the vault itself": a definite noun the
 * owner tied to a context path once is that path wherever it is used again. Without it the later "the vault" is a
 * recipient nobody resolved (not understood). Only when the noun was tied to exactly one path; a noun tied to two
 * paths, or never, is left as written.
 */

const NOUN = "vault|treasury|safe|multisig|cold wallet|hot wallet|ops wallet|main wallet|treasury wallet|treasury safe";
const TIED = new RegExp(`\\b(${NOUN})\\s*\\(\\s*(context\\.[A-Za-z_][\\w.]*[A-Za-z0-9_])\\s*\\)`, "gi");

export function readNouns(raw: string): string {
  if (!raw.includes("context.")) return raw;
  const paths = new Map<string, Set<string>>();
  for (const m of raw.matchAll(TIED)) {
    const k = m[1].toLowerCase();
    if (!paths.has(k)) paths.set(k, new Set());
    paths.get(k)?.add(m[2]);
  }
  let s = raw;
  for (const [noun, set] of paths) {
    if (set.size !== 1) continue;
    const path = [...set][0];
    const re = new RegExp(`\\b(the|our)\\s+(${noun.replace(/ /g, "\\s+")})(?:\\s+itself)?\\b(?!\\s*\\()(?!['’]s)`, "gi");
    s = s.replace(re, (_m, det: string, n: string) => `${det} ${n} (${path})`);
  }
  return s;
}
