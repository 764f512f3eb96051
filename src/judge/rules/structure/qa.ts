/**
 * Rules written as questions and answers ("Q: Can it withdraw? A: No."). The question says what the rule is
 * about and the answer says the rule; read apart, the question "Can it withdraw, or send USDC to another
 * address" had read as a *permission* to withdraw and the answer "No" as nothing. Each pair becomes one line:
 * - a yes/no question answered "no" ("No.", "Nope, never") forbids what it asks about: "Never withdraw, or
 *   send USDC to another address." (what follows the "no" stays, as its own sentence);
 * - answered "yes", it permits it ("It may ...") and what follows the "yes" stays as its own sentence, so a
 *   condition there still binds (or is not understood);
 * - any other answer is the value of the question as a key: "Biggest single order: $2.5k notional",
 *   "Go short: only by reducing a long" (read, or left not understood: never a bare permission).
 */

const Q_LINE = /^[ \t]*(?:[-*•][ \t]+)?(?:Q|Question)\s*[:.)-]\s*(.+?)\s*$/i;
const A_LINE = /^[ \t]*(?:[-*•][ \t]+)?(?:A|Answer)\s*[:.)-]\s*(.*?)\s*$/i;

/** "Can it", "May the bot", "Is it allowed to", "Should the agent", "Does it get to". */
const YES_NO =
  /^(?:can|could|may|might|should|will|would|is|are|does|do|must)\s+(?:it|the\s+(?:bot|agent|wallet|account|assistant)|you|we|they|this\s+(?:bot|agent|wallet))\s+(?:(?:be\s+)?(?:allowed|permitted|able)\s+to\s+|get\s+to\s+|ever\s+)?/i;

const NO_ANSWER = /^(?:no|nope|nah|never|not\s+(?:at\s+all|allowed|permitted|ever))\b[\s,.!;:-]*/i;
const YES_ANSWER = /^(?:yes|yep|yeah|sure|ok|okay|allowed|permitted)\b[\s,.!;:-]*/i;

/** "Biggest single order" -> a cap key the readers know ("max single order"). */
function asKey(q: string): string {
  return q
    .replace(/^(?:which|what)\s+(?:is\s+the\s+|are\s+the\s+)?/i, "")
    .replace(/^(?:biggest|largest|highest|most)\b/i, "max")
    .replace(/^./, (c) => c.toUpperCase());
}

function pair(q: string, a: string): string {
  const question = q.replace(/\?+\s*$/, "").trim();
  const yn = YES_NO.exec(question);
  if (yn) {
    const ask = question.slice(yn[0].length);
    const no = NO_ANSWER.exec(a);
    // "No, never.", "Nope. Not ever": the rest only repeats the no.
    const rest = a.slice(no?.[0].length ?? 0).replace(/^(?:(?:never|not\s+ever|no|none|nope|not\s+at\s+all)\b[\s,.!]*)+$/i, "");
    if (no) return `Never ${ask}.${rest ? ` ${rest}` : ""}`;
    const yes = YES_ANSWER.exec(a);
    if (yes) return `It may ${ask}.${a.slice(yes[0].length) ? ` ${a.slice(yes[0].length)}` : ""}`;
    return `${ask.replace(/^./, (c) => c.toUpperCase())}: ${a}`;
  }
  return `${asKey(question)}: ${a}`;
}

/** "ETH perps only. Q: Can it withdraw? A: No.": pairs inside a line, after a sentence. */
const INLINE = /(^|[.!?][ \t]+)(?:Q|Question)[ \t]*:[ \t]*([^?\n]{3,200}\?)[ \t]*(?:A|Answer)[ \t]*:[ \t]*(.*?)(?=[ \t]+(?:Q|Question)[ \t]*:|\n|$)/gim;

export function readQuestions(raw: string): string {
  if (!/(?:^|[\s.!?])(?:Q|Question)\s*[:.)-]/im.test(raw)) return raw;
  const lines = raw.replace(INLINE, (_m, pre: string, q: string, a: string) => `${pre}${pair(q, a.trim())}`).split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const q = Q_LINE.exec(lines[i]);
    // "Q: Can it send anywhere else? A: No" on one line.
    const inline = q ? /^(.*?\?)\s*(?:A|Answer)\s*[:.)-]\s*(.*)$/i.exec(q[1]) : null;
    if (inline) {
      out.push(pair(inline[1], inline[2]));
      continue;
    }
    // The answer is on the next non-blank line; a question without one stays as it was (and is read as such).
    let j = i + 1;
    while (j < lines.length && lines[j].trim() === "") j++;
    const a = q && j < lines.length ? A_LINE.exec(lines[j]) : null;
    if (!q || !a) {
      out.push(lines[i]);
      continue;
    }
    out.push(pair(q[1], a[1]));
    i = j;
  }
  return out.join("\n");
}
