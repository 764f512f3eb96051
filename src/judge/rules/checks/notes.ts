/**
 * Cautions the context attaches to a counterparty: an entry keyed by the address the action pays, approves or
 * delegates to ({"vendor_notes": {"0xabc..": "payments on hold over a disputed invoice"}}) whose text says to hold,
 * stop or distrust it. The owner's own records say a human should look: ESCALATE, never BLOCK (the note is a fact to
 * weigh, not a rule), and never a grant (a note cannot allow anything).
 */
import type { ActionView, Finding } from "../types";
import { normAddr } from "../context";

type Ctx = Record<string, unknown> | null;

const CAUTION =
  /\b(?:on hold|hold (?:all |any )?(?:payments?|transfers?|sends?)|hold off|paused?|disputed?|dispute|frozen|freeze|suspended|do not (?:pay|send|use|approve|delegate)|don['’]t (?:pay|send|use|approve|delegate)|stop (?:paying|payments|sending)|blocked|compromised|hacked|phishing|scam\w*|sanction\w*|revoked|under review|under investigation|investigat\w*|fraud\w*|drained|exploit\w*|blacklist\w*|denylist\w*)\b/i;

function counterparties(view: ActionView): Set<string> {
  const out = new Set<string>();
  const put = (a: string | null | undefined) => {
    if (a) out.add(normAddr(a).toLowerCase());
  };
  view.recipients.forEach(put);
  view.beneficiaries.forEach(put);
  for (const m of view.moves) {
    put(m.to);
    put(m.own);
  }
  for (const a of view.approvals) put(a.spender);
  put(view.swap?.recipient);
  return out;
}

/** Every string under a value (a note, or an object of notes), at most a few levels down. */
function texts(v: unknown, depth = 0): string[] {
  if (typeof v === "string") return [v];
  if (depth > 2 || !v || typeof v !== "object") return [];
  return Object.values(v as Record<string, unknown>).flatMap((x) => texts(x, depth + 1));
}

export function checkCounterpartyNotes(view: ActionView, ctx: Ctx): Finding[] {
  if (!ctx) return [];
  const who = counterparties(view);
  if (who.size === 0) return [];
  const out: Finding[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 4 || !v || typeof v !== "object" || Array.isArray(v)) return;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (k === "reference") continue; // untrusted third-party text is screened elsewhere
      if (who.has(normAddr(k).toLowerCase())) {
        const note = texts(x).find((t) => CAUTION.test(t));
        if (note) out.push({ type: "unknown", message: `The context notes about ${k}: "${note.slice(0, 160)}", so a human should look before this runs.` });
      } else walk(x, depth + 1);
    }
  };
  walk(ctx, 0);
  return out;
}
