/**
 * Which of the order types / times-in-force a clause names it refuses. Owners write the allowed and the refused ones
 * in one line: "Only GTC or GTD orders, FOK and FAK are forbidden", "tif allowed: Gtc, Alo # Ioc banned", "limit
 * orders only, none of that FOK/FAK market stuff", "order types: GTC, GTD; FOK, FAK forbidden". Reading the refusal
 * as covering every type in the line blocked the very GTC order the owner allows; reading it as covering none let a
 * FOK through. So the refusal is given to the types of its own stretch only.
 *
 * A clause is cut into stretches at hard marks (";", ":", "#", brackets, "but") and, inside those, at commas. A
 * stretch refuses its types when a negation stands before them ("no IOC", "none of that FOK") or a ban word after
 * them ("FAK forbidden", "IOC orders are prohibited"). A stretch made of nothing but type names ("FOK, FAK
 * forbidden", "no IOC, FOK") is one item of the list beside it and takes that list's refusal.
 */
import { ESCALATE_RE } from "./amounts";

const NEG = String.raw`(?:no|none|never|not|nothing|avoid|without|except|don't|do\s+not|must\s+not|mustn't|cannot|can't|should\s+not|may\s+not)`;
const BAN = String.raw`(?:(?:is|are)\s+)?(?:(?:strictly|completely|also)\s+)?(?:banned|forbidden|prohibited|disallowed|excluded|off[- ]limits|a\s+no[- ]go|not\s+(?:allowed|permitted|ok|okay|fine|to\s+be\s+used))\b`;
const NEG_BEFORE = new RegExp(String.raw`\b${NEG}\b`, "i");
const BAN_AFTER = new RegExp(String.raw`^[\s\w/-]*?\b${BAN}`, "i");
/** What may stand between type names in a list of them. */
const LIST_ONLY = /^[\s,/&*-]*(?:(?:and|or|nor|orders?|types?|the|both|all|either|any|tifs?)\b[\s,/&*-]*)*$/i;

export interface FoundType {
  index: number;
  end: number;
}

interface Stretch {
  from: number;
  to: number;
  types: number[];
}

/** Cut [from, to) at `marks` (a global regex). */
function cut(text: string, from: number, to: number, marks: RegExp): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let at = from;
  marks.lastIndex = 0;
  const part = text.slice(from, to);
  let m: RegExpExecArray | null;
  while ((m = marks.exec(part)) !== null) {
    out.push([at, from + m.index]);
    at = from + m.index + m[0].length;
  }
  out.push([at, to]);
  return out;
}

/** Per found type (sorted by index): whether the clause refuses it; and the stretches that refuse. */
export function refusedTypes(text: string, found: FoundType[]): { refused: boolean[]; spans: Array<[number, number]> } {
  const refused = found.map(() => false);
  const spans: Array<[number, number]> = [];
  for (const [hFrom, hTo] of cut(text, 0, text.length, /[;:#()]|\s-\s|\b(?:but|while|whereas)\b/gi)) {
    const stretches: Stretch[] = cut(text, hFrom, hTo, /,/g)
      .map(([from, to]) => ({ from, to, types: found.flatMap((f, i) => (f.index >= from && f.end <= to ? [i] : [])) }))
      .filter((s) => s.types.length > 0);
    const blank = (s: Stretch): string => {
      let t = text.slice(s.from, s.to);
      for (const i of [...s.types].reverse()) t = t.slice(0, found[i].index - s.from) + " " + t.slice(found[i].end - s.from);
      return t;
    };
    const listOnly = stretches.map((s) => LIST_ONLY.test(blank(s)));
    const negated = stretches.map((s) => NEG_BEFORE.test(text.slice(s.from, found[s.types[0]].index)));
    const banned = stretches.map((s) => BAN_AFTER.test(text.slice(found[s.types[s.types.length - 1]].end, s.to)));
    // A list item takes the refusal of the stretch after it ("FOK, FAK forbidden") or before it ("no IOC, FOK").
    const banChain = (k: number): boolean => k < stretches.length && (banned[k] || (listOnly[k] && banChain(k + 1)));
    const negChain = (k: number): boolean => k >= 0 && ((negated[k] && !banned[k]) || (listOnly[k] && negChain(k - 1)));
    stretches.forEach((s, k) => {
      const whole = negated[k] || banned[k] || (listOnly[k] && (banChain(k + 1) || negChain(k - 1)));
      if (whole) spans.push([s.from, s.to]);
      s.types.forEach((i, j) => {
        // Inside one stretch, "limit orders only no market orders": a negation between two types refuses the later.
        const gap = j > 0 ? text.slice(found[s.types[j - 1]].end, found[i].index) : "";
        refused[i] = whole || (j > 0 && (refused[s.types[j - 1]] ? /^[\s,/]*(?:(?:orders?|or|and|nor)[\s,/]+)*$/i.test(gap) : NEG_BEFORE.test(gap)));
      });
    });
  }
  return { refused, spans };
}

/** "anything FOK or FAK", "any IOC orders": with the type names taken out, nothing but these words is left. */
const ONLY_TYPES = /^\s*(?:and\s+)?(?:anything|any|all|every)?\s*(?:[\s,/]|\b(?:or|and|orders?|types?)\b)*$/i;

/**
 * "anything FOK or FAK - run it by me first": the clause only names types and the part of the sentence after the
 * dash sends them to a human. That part, alone, reads as nothing (it has no object), so the types carry it; read
 * as nothing, a FOK order would pass under a rule that wants it seen first.
 */
export function typesReferred(withoutTypes: string, clause: string, sentence: string): boolean {
  if (!ONLY_TYPES.test(withoutTypes)) return false;
  const at = sentence.indexOf(clause.trim());
  return at >= 0 && new RegExp(String.raw`^[^.;]*?\s-\s+[^.;]*?(?:${ESCALATE_RE.source})`, "i").test(sentence.slice(at));
}
