/**
 * A prohibition that points back with a pronoun: "Token approvals have burned us twice. Don't do them.", "Vault
 * deposits are a different matter; don't do them", "Builder fee, never approve them", "builder codes eat our edge,
 * never approve fees for them". The pronoun is resolved to the activity the previous clause names, and the sentence is
 * rewritten to name it ("Don't do token approvals").
 *
 * Invariants (fail closed): only prohibitions are rewritten (a permission by pronoun, "go ahead and approve it", stays
 * unread); the previous sentence must name exactly one kind of activity, otherwise (two candidates, or none) the
 * sentence is left as written and stays not understood.
 */
import { activityPhrases } from "./polarity";

const NEG = String.raw`(?:never|don't|do not|dont|please don't|please do not|no)`;
const VERB = String.raw`(?:do|approve|sign|grant|make|use|allow|touch|pay|send|place|open)`;
const ALONE = new RegExp(String.raw`^\s*(?:and\s+|so\s+)?(${NEG})\s+(?:ever\s+)?(${VERB})\s+(?:any\s+(?:of\s+)?)?(?:them|it|those|these|that)(?:\s+(?:again|ever|either|at all|for now|yet|anymore))?\s*[.!]?\s*$`, "i");
const TOPIC_FIRST = new RegExp(String.raw`^\s*((?:[A-Za-z][\w-]*\s+){0,3}[A-Za-z][\w-]*)\s*,\s*(${NEG})\s+(?:ever\s+)?(${VERB})\s+(?:them|it|those|these)\s*[.!]?\s*$`, "i");
const FOR_THEM = new RegExp(String.raw`^\s*([^,;]+),\s*(${NEG})\s+(?:ever\s+)?(${VERB})\s+([a-z]+)\s+for\s+(?:them|it)\s*[.!]?\s*$`, "i");

/** The one activity phrase a clause names, or null (none, or two kinds: ambiguous). */
function soleActivity(text: string): string | null {
  const found = activityPhrases(text);
  const labels = new Set(found.map((f) => f.label));
  return labels.size === 1 ? found[0].text : null;
}

/** "Go ahead and approve it": a permission by pronoun, never resolved (which one is for the owner to say). */
const GRANT_BY_PRONOUN = new RegExp(String.raw`^\s*(?:(?:go ahead|feel free|you can|you may|it's fine|ok)\s+(?:and\s+|to\s+)?)?(?:approve|grant|sign|allow|do|enable)\s+(?:it|them|those|these|that)(?:\s+(?:too|as well|also|now))?\s*[.!]?\s*$`, "i");

export function unresolvedGrant(s: string): boolean {
  return GRANT_BY_PRONOUN.test(s);
}

export function resolvePronouns(sentences: string[]): string[] {
  return sentences.map((s, i) => {
    const t = TOPIC_FIRST.exec(s);
    if (t && soleActivity(t[1])) return `${t[2]} ${t[3]} ${t[1]}`;
    const f = FOR_THEM.exec(s);
    if (f) {
      // "builder codes ..., never approve fees for them": the fees those builders charge.
      if (/^fees?$/i.test(f[4]) && /\bbuilder(?:\s+codes?|s)?\b/i.test(f[1]) && !/\bagents?\b/i.test(f[1])) return `${f[2]} ${f[3]} builder fees`;
      const ref = soleActivity(f[1]);
      if (ref) return `${f[2]} ${f[3]} ${f[4]} for ${ref}`;
    }
    const a = ALONE.exec(s);
    if (a && i > 0) {
      const ref = soleActivity(sentences[i - 1]);
      if (ref) return `${a[1]} ${a[2]} ${ref}`;
    }
    return s;
  });
}
