/**
 * Rules given as structure rather than sentences: titled sections, question-and-answer pairs, ticked or crossed
 * lines, blob switches, and tables whose rows are the permissions. Each is rewritten to the lines the sentence
 * readers already read, keeping what the structure says about each line (its title's polarity, its row's payee),
 * before anything else normalises the text (text.ts). Invariant, as in layout.ts: nothing that could carry a rule
 * is dropped; what cannot be mapped is kept in words no reader understands.
 */
import { readMarks } from "./marks";
import { readNouns } from "./nouns";
import { readOutline } from "./outline";
import { readQuestions } from "./qa";
import { readRows } from "./rows";
import { readSections } from "./sections";
import { readTitles } from "./titles";

export function readStructure(raw: string): string {
  const s = readNouns(raw);
  if (!s.includes("\n") && !/[\u2600-\u27ff\u{1f300}-\u{1faff}]|\[[xX ]\]|\bQ\s*:/u.test(s)) return s;
  return readTitles(readOutline(readQuestions(readRows(readMarks(readSections(s))))));
}
