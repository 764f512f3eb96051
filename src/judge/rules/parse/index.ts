/**
 * Intent parser: owner's plain-English rules -> constraints. Each sentence is split into clauses; recognisers
 * consume the words they understand; whatever is left must be filler, or the sentence is reported as not
 * understood (and the engine will not ALLOW). Recognisers run from the most specific (approval shape,
 * leverage, slippage, side, order type, amounts) to the most general (prohibitions, permissions).
 */
import type { Activity, Constraint } from "../types";
import { consume, makeClause, protect, restore, scan, splitClauses, splitSentences, unexplained, newRefs, type Clause } from "../text";
import { RECIPIENT_WORDS } from "../vocab";
import { isLeadIn, isProcedure } from "./procedure";
import { isOutsideEvent } from "./outside-events";
import { isBackground, isPreamble, isWalletTitle, labelPrefixEnd } from "./preamble";
import { parseAboveThat, parseAmounts } from "./amounts";
import { parseLeverage } from "./leverage";
import { parseSlippage } from "./slippage";
import { parsePriceCap } from "./price";
import { parseMarginWords } from "./margin-words";
import { parseSideWords } from "./side-words";
import { parseReduceWords } from "./reduce-words";
import { parseSettingsWords } from "./settings-words";
import { parsePriceRange, parseRanges, restatesBound } from "./ranges";
import { parseHealthFloor } from "./health";
import { parseBalanceFloor } from "./balance-floor";
import { readBases } from "./bases";
import { parseStateGate } from "./state-gates";
import { parseSumLimit } from "./sum-limits";
import { parsePostShare } from "./post-share";
import { parseEscalateOn, parseExcept, parseLabel, parseNegative, parsePositive, NEG_RE } from "./polarity";
import { add, newState, uniq, type ParseState } from "./state";
import { isClosingSentence, parseExhaustive } from "./routes";
import { closerFamily, readCloser } from "./closers";
import { type SentenceSpan } from "./grants";
import { bindToSentenceActivity } from "./clause-activity";
import { isDismissal, RESTATED_DISMISSAL, settleDismissal } from "./dismissals";
import { parseApprovalScope } from "./approvals";
import { restatesNoException, settleExceptionCap } from "./exception-caps";
import { narrowPermissionBans, parseFeeRate } from "./permission-kinds";
import { resolvePronouns, unresolvedGrant } from "./pronouns";
import { readAfterPermission, readEmphatic } from "./emphatic";
import { parseCounterDecl, parseShareCaps } from "./counters";
import { parseLooseBudget } from "./loose-budgets";
import { isHeading, isMeta, isNarrative, isPurpose } from "./narrative";
import { isTrustNotice } from "./trust-notices";
import { FRAME_MARK, frameSentences, isReadFirst, PAYEE_GROUP } from "./frame";
import { perpList } from "./perp-lists";
import { readFramingLine } from "./header-lines";
import { isLimiting } from "./reading";
import { stripClauseNumbers } from "../structure/clause-numbers";
import { vanishedAssets } from "./vanished-assets";
import { LIMITS_SOMETHING, shorten } from "./settle";
import { holdTails, isRestatementFragment, restatesAssetList, restatesRecipientRefusal, restatesDestinationList, settleTails, tolerateLeftovers } from "./tolerance";
import { parseMarketPhrases } from "./market-scope";
import { bindCondition, OPENS_CONDITION, prohibits, readCondition, readLeadingCondition, UNREAD_CONDITION, type ConditionRead } from "./conditions";
import { noteBandUnit, readAloneTier } from "./tiers";
import { isReferralTail, withoutHeldRefusal, parseDoubt, parseNoAsk, parseReferralBand, readReferralSentence } from "./referrals";
import { parseHostPayees, RESTATED_PAYEE } from "./payees";
import { parsePayeeAmounts } from "./payee-amounts";
import { parsePayeeOnce } from "./payee-once";
import { consumeIdentifiers, isAboutTheRules, isLabelFragment, isRecital, withoutIdentifiers } from "./fragments";
import { consumeDescriptions, consumePurposeSubject, readX402Purchase, isOperatorStatement, isPurposeClause, markBetTopics, parseListedMarginMode, parseShortPurpose, parseSideFragment } from "./purpose";
import { parsePositionRules } from "./positions";
import { parseTwapDuration } from "./twap";
import { parseMarginMode, parseApprovalShape, parseOrderType, parseProtective, parseReduceOnly, parseSide, parseSwapDirection, parseSwapMode } from "./trading";

import { finishParse, type ParsedIntent } from "./finish";
import { parseGrantedOutcome, parseOutcomes } from "./outcomes";
export type { ParsedIntent };
import { OWNER_STATEMENT, OWNER_BUDGET, RATIFIED_WORD, RATIFIED, NO_TIME_RULE, OTHER_THAN_DEST, DEST_DIMS, PROHIBITION_KEY, RESTATED_WHO, DANGLING } from "./clause-shapes";


function parseClause(c: Clause, st: ParseState, rule: string, sentence: string, first: boolean, inherit: Activity[], capsFrom: number, sentenceFrom = st.constraints.length): Activity[] {
  // "nothing beyond these four", "anything else comes to me first": a clause about what no grant covers (closers.ts).
  if (readCloser(c, st, rule)) return [];
  // "Approved by the council", "Mandate ratified by the Treasury DAO": who adopted the rules, not a rule.
  // "(vote #31)", "(proposal 12)": which vote adopted them, not a figure.
  const adopted = c.text.replace(/\(\s*(?:vote|proposal|poll|snapshot|motion|ballot|resolution|ref\.?)\s*(?:no\.?\s*|#)?\d+\s*\)/gi, " ");
  if (first && RATIFIED.test(adopted) && !LIMITS_SOMETHING.test(adopted.replace(RATIFIED_WORD, " ")) && !/§[aqhcn]\d/.test(c.text)) {
    consume(c, 0, c.text.length);
    return [];
  }
  if (NO_TIME_RULE.test(c.text)) {
    consume(c, 0, c.text.length);
    return [];
  }
  // Only a prohibition without a recipient, asset or exception can absorb it: any narrower one would be widened.
  if (restatesAssetList(c.text, st.constraints) || restatesRecipientRefusal(c.text, st.constraints) || (!first && (restatesDestinationList(c.text, st.constraints.slice(sentenceFrom)) || (RESTATED_WHO.test(c.text) && st.constraints.slice(sentenceFrom).some((k) => k.kind === "forbid" && !k.asset && !k.direction && k.activities.includes("transfer"))) || restatesNoException(c.text, st.constraints.slice(sentenceFrom))))) {
    consume(c, 0, c.text.length);
    return [];
  }
  // History, habit, purpose, headings and remarks about the document itself limit nothing (narrative.ts).
  // "Memos carry no authority", "only this text is my rules": what the engine enforces anyway (trust-notices.ts).
  if (isNarrative(c.text) || (!first && isPurpose(c.text)) || isHeading(c.text) || isMeta(c.text) || isTrustNotice(c.text, c.sentence, st.readings.at(-1)?.clause)) {
    consume(c, 0, c.text.length);
    return [];
  }
  // "We cap each order at $500" states a limit in the owner's voice: it is not background.
  // Titles, list numbers, recitals, remarks about the rules themselves and who runs the bot (fragments.ts, purpose.ts).
  if (isLabelFragment(c.text) || isAboutTheRules(c.text) || isRecital(c.text) || isOperatorStatement(c.text)) {
    consume(c, 0, c.text.length);
    return [];
  }
  // "never alone" after a referral; "no need to ask me" and "if anything's off, ping me" (referrals.ts).
  // "testnet payments are useless to us, dont bother with those": the dismissal restated (dismissals.ts).
  if (!first && RESTATED_DISMISSAL.test(c.text) && isDismissal(sentence)) {
    consume(c, 0, c.text.length);
    return [];
  }
  if (!first && isReferralTail(c.text, sentence)) {
    consume(c, 0, c.text.length);
    return [];
  }
  if (parseNoAsk(c, st, rule) || parseDoubt(c, st, rule)) return [];
  // "px from ctx only"; after a permission: "but never unattended", "don't care how much" (emphatic.ts).
  if (readAfterPermission(c, st, rule, inherit)) return [];
  // Identifiers ("EW-12", "desk 2", "rev 3"), the subject of a purpose statement and what it describes are not limits.
  consumeIdentifiers(c);
  // A sign-off's "PS" / "P.S." and a resolution's "IT IS FURTHER RESOLVED that" mark where a rule starts (frame.ts).
  if (first) scan(c, FRAME_MARK, () => undefined);
  consumePurposeSubject(c);
  consumeDescriptions(c);
  // "We use this account to pay ..." is the account's purpose in the owner's voice, read like any other purpose.
  // "We stick to BTC", "we avoid memecoins", "we keep orders under $1k" state a rule in the owner's voice: never background.
  if (
    OWNER_STATEMENT.test(c.text) &&
    !isPurposeClause(c.text) &&
    // "we've got 12 bucks for the whole day": a figure the owner has for a period is a budget (loose-budgets.ts).
    !(/\d/.test(c.text) && OWNER_BUDGET.test(c.text)) &&
    !/\b(?:only|never|not|no|max|must|except|cap|caps|capped|limit|limits|limited|at most|at least|up to|budget|ceiling|exceed\w*|stick(?:s|ing)?|stay(?:s|ing)?|avoid\w*|keep(?:s|ing)?|restrict\w*|confine\w*|exclusive\w*|solely|just|refus\w*|ban\w*|forbid\w*|prohibit\w*|block\w*|above|below|under|over|beyond|less|more|fewer|than|min(?:imum)?)\b|n['’]t\b/i.test(c.text)
  ) {
    consume(c, 0, c.text.length);
    return [];
  }
  if (first) {
    const end = labelPrefixEnd(c.text);
    if (end > 0) parseLabel(c, st, end, rule);
  }
  const before = st.constraints.length;
  readX402Purchase(c, st, rule);
  // "the delegate agent", "our delegate wallet": a role, not delegating.
  scan(c, /\bdelegate(?=\s+(?:agent|bot|wallet|address|key|account|trader|signer|operator|manager)s?\b)/gi, () => undefined);
  // Figures and frequencies per payee come first: their periods and bound words are not the caps of the clause.
  parseGrantedOutcome(c, st, rule);
  parsePayeeOnce(c, st, rule);
  parsePayeeAmounts(c, st, rule);
  parseApprovalShape(c, st, rule);
  parseApprovalScope(c, st, rule);
  parseFeeRate(c, st, rule);
  parseSettingsWords(c, st, rule);
  parseMarginWords(c, st, rule);
  parseMarginMode(c, st, rule);
  parseListedMarginMode(c, st, rule);
  parseShortPurpose(c, st, rule);
  parseSideFragment(c, st, rule);
  parseLeverage(c, st, rule);
  parseSlippage(c, st, rule);
  parsePriceRange(c, st, rule);
  parseHealthFloor(c, st, rule);
  parseBalanceFloor(c, st, rule);
  if (!first) parseStateGate(c, st, rule, inherit);
  parsePriceCap(c, st, rule);
  parseSideWords(c, st, rule);
  parseSide(c, st, rule);
  parseProtective(c, st, rule);
  parseReduceOnly(c, st, rule);
  parseReduceWords(c, st, rule);
  parsePositionRules(c, st, rule);
  parseTwapDuration(c, st, rule);
  parseOrderType(c, st, rule, sentence);
  parseSwapMode(c, st, rule);
  parseSwapDirection(c, st, rule);
  // "anything larger needs approval" looks back at this sentence and the one before it.
  parseAboveThat(c, st, capsFrom);
  parseSumLimit(c, st, rule);
  parsePostShare(c, st, rule);
  parseShareCaps(c, st, rule);
  parseReferralBand(c, st, rule);
  parseRanges(c, st, rule);
  parseAmounts(c, st, rule);
  // "weekly budget is 300, context.week_spent_usd has what i've put in": a budget said in passing, in the words the
  // amount readers left (loose-budgets.ts).
  parseLooseBudget(c, st, rule);
  // "4,000 USD or less may be sent by the agent on its own": the agent's tier ends where a human's begins.
  readAloneTier(c, st, rule, before);
  noteBandUnit(st, before);
  parseCounterDecl(c, st);
  parseOutcomes(c, st, rule);
  parseHostPayees(c, st, rule);
  // A clause whose activity a recogniser already permitted ("it can open shorts on the SOL perp, up to 10 SOL") is
  // not a pure cap sentence: its symbols are what the activity may touch.
  const capClause =
    st.constraints.slice(before).some((k) => k.kind === "cap" || k.kind === "escalate_above") && !st.constraints.slice(before).some((k) => k.kind === "permit");
  // "if a bet is over 30, ping me first": the condition is the threshold just read.
  if (st.constraints.slice(before).some((k) => k.kind === "escalate_above")) scan(c, /\b(?:if|when|whenever|in case|should)\b(?=[^,;]*\b(?:over|above|more than|larger than|bigger than|exceeds?|exceeding|greater than|beyond)\b)/gi, () => undefined);
  // "I want to see anything over $1k before it goes out": when the human looks, part of the line just read.
  if (st.constraints.slice(before).some((k) => k.kind === "escalate_above")) scan(c, /\b(?:before|prior\s+to)\s+(?:it|they|this|that|anything)\s+(?:is\s+|are\s+|gets?\s+)?(?:goes|go|sent|placed|executed|paid|submitted|released|broadcast)(?:\s+out)?\b/gi, () => undefined);
  // "If the agent want to set leverage higher than 5x, it must ask a human first": the condition and the word
  // "leverage" restate the threshold just read.
  if (st.constraints.slice(before).some((k) => k.kind === "leverage_escalate"))
    scan(c, /\b(?:if|when|whenever|in case)\b(?=[^,;]*\b(?:higher|above|over|more|beyond|exceed\w*)\b)|\bleverage\b/gi, () => undefined);
  if (!capClause) parseEscalateOn(c, st, rule);
  if (parseMarketPhrases(c, st, rule)) return [];
  if (parseExhaustive(c, st, rule)) return [];
  holdTails(c);
  parseExcept(c, st, rule);
  let negative = false;
  scan(c, NEG_RE, () => {
    negative = true;
    return false;
  });
  if (negative) {
    parseNegative(c, st, rule);
    return [];
  }
  return parsePositive(c, st, rule, { inherit, capClause, produced: st.constraints.length > before, permitted: st.constraints.slice(before).some((k) => k.kind === "permit") });
}


// Agents send the same rules with every request: parsing is pure, so remember recent intents.
const CACHE = new Map<string, ParsedIntent>();
const CACHE_MAX = 256;

/** Parse an intent (memoised). The result is shared: callers must not mutate it. */
export function parseIntent(intent: string): ParsedIntent {
  const hit = CACHE.get(intent);
  if (hit) return hit;
  const parsed = parseUncached(intent);
  if (CACHE.size >= CACHE_MAX) CACHE.delete(CACHE.keys().next().value as string);
  CACHE.set(intent, parsed);
  return parsed;
}

function parseUncached(intent: string): ParsedIntent {
  const st = newState(intent);
  const refs = newRefs();
  // On prediction markets a "stake" is the amount bet, not staking.
  const text = st.prediction ? markBetTopics(!/validator|delegat|staking|\bunstak/i.test(intent) ? intent.replace(/\bstak(e|es|ed|ing)\b/gi, "bet") : intent) : intent;
  // "Token approvals burned us. Don't do them.": a pronoun prohibition names the activity before it (pronouns.ts).
  const protectedText = protect(text, refs);
  // "Borrowing - not once, not ever.", "FOK orders? never do that.", "Don't even think about it." (emphatic.ts).
  const sentences = resolvePronouns(readEmphatic(stripClauseNumbers(splitSentences(protectedText))));
  readBases(protectedText, refs.ctx, st);
  let prevStart = 0;
  const restatedPayee: number[] = [];
  const sentenceSpans: SentenceSpan[] = [];
  // The lines that open and close the intent without stating a rule: read as labels (frame.ts).
  const frame = frameSentences(sentences);
  const framePayees: number[] = [];
  const perpLists: Constraint[] = [];
  for (const [at, s] of sentences.entries()) {
    const rule = restore(s, refs);
    if (unresolvedGrant(s)) {
      const question = `Not understood: what "${rule}" refers to.`;
      st.unknown.push(question);
      st.readings.push({ clause: rule, reading: "not understood", constraints: [], ignored: [], unread: [rule], question });
      continue;
    }
    const sentenceFrom = st.constraints.length;
    sentenceSpans.push({ text: rule, from: sentenceFrom, to: sentenceFrom });
    if (frame.has(at) || isReadFirst(s) || isWalletTitle(s)) {
      prevStart = st.constraints.length;
      parseLabel(makeClause(s, rule, refs), st, s.length, rule);
      // A closing line can be a dismissal too ("Testnet payments are useless to us."): it names what is out.
      settleDismissal(s, st.constraints, sentenceFrom);
      if (PAYEE_GROUP.test(s)) framePayees.push(st.readings.length);
      st.readings.push({ clause: rule, reading: "descriptive", constraints: Array.from({ length: st.constraints.length - sentenceFrom }, (_, k) => sentenceFrom + k), ignored: [], unread: [] });
      continue;
    }
    // "Re: limits effective immediately", "Hyperliquid desk limits (v3)": a label that grants nothing (header-lines.ts).
    if (readFramingLine(makeClause(s, rule, refs), at, intent, st, parseIntent)) {
      prevStart = st.constraints.length;
      continue;
    }
    // Records of adoption, reports after the fact, the route for exceptions, "ask me if unsure" (procedure.ts);
    // what people, processes and schedules around the agent do ("payroll runs on the 1st", outside-events.ts).
    if (isBackground(s) || isProcedure(s) || isOutsideEvent(s)) {
      prevStart = st.constraints.length;
      st.readings.push({ clause: rule, reading: "descriptive", constraints: [], ignored: [], unread: [] });
      continue;
    }
    // "nothing else leaves the wallet", "Transfers not covered by §1 or §2 are prohibited": closes the permissions.
    if (isClosingSentence(s)) {
      prevStart = st.constraints.length;
      // "nothing else leaves the wallet" speaks about moves of funds only (closers.ts, checks/scope.ts).
      const activities = closerFamily(s);
      add(st, { kind: "only_listed", rule, ...(activities ? { activities } : {}) });
      st.readings.push({ clause: rule, reading: "constraint", constraints: [st.constraints.length - 1], ignored: [], unread: [] });
      continue;
    }
    // "if a service asks to be paid elsewhere, don't pay it": settled once the payee rules are known (payees.ts).
    if (readReferralSentence(s, rule, st)) {
      prevStart = st.constraints.length;
      continue;
    }
    if (RESTATED_PAYEE.test(s)) {
      prevStart = st.constraints.length;
      restatedPayee.push(st.readings.length);
      st.readings.push({ clause: rule, reading: "descriptive", constraints: [], ignored: [], unread: [] });
      continue;
    }
    // A lead-in ("... within these limits:", "here is the agreed scope for ...") reads like a preamble (procedure.ts).
    if (isPreamble(s) || isLeadIn(s)) {
      prevStart = st.constraints.length;
      const from = st.constraints.length;
      parseLabel(makeClause(s, rule, refs), st, s.length, rule);
      settleDismissal(s, st.constraints, from);
      st.readings.push({ clause: rule, reading: "descriptive", constraints: Array.from({ length: st.constraints.length - from }, (_, k) => from + k), ignored: [], unread: [] });
      continue;
    }
    const clauses = splitClauses(withoutHeldRefusal(s)).map((t) => makeClause(t, rule, refs));
    const before = st.constraints.length;
    const readingsFrom = st.readings.length;
    let inherit: Activity[] = [];
    const spans: Array<[number, number]> = [];
    // "If X is above N, never Y" (conditions.ts): the condition of this clause, or of the clause before it.
    let lead: { read: ConditionRead; clause: Clause } | null = null;
    clauses.forEach((c, i) => {
      const own = lead ? null : readCondition(c);
      const leading = own || lead ? null : readLeadingCondition(c, clauses[i + 1]);
      // Quote the clause, not the whole sentence, and leave a leading label ("Research agent:") out of it.
      const labelEnd = i === 0 ? labelPrefixEnd(c.text) : -1;
      const quote = restore(labelEnd > 0 && labelEnd < c.text.length ? c.text.slice(labelEnd) : c.text, refs);
      const from = st.constraints.length;
      const acts = parseClause(c, st, shorten(quote || rule), s, i === 0, inherit, prevStart, before);
      settleTails(c, st.constraints, from);
      settleExceptionCap(c, st, from);
      narrowPermissionBans(c, st, from);
      const produced = st.constraints.slice(from);
      if (own) bindCondition(c, own, produced);
      if (lead) bindCondition(lead.clause, lead.read, produced);
      lead = leading ? { read: leading, clause: c } : null;
      spans.push([from, st.constraints.length]);
      if (acts.length) inherit = acts;
    });
    // "Prohibited: withdrawing anywhere but the vault", a child of a "Prohibited" title (structure/titles.ts), a line
    // ticked "❌": whatever the words would permit, a prohibition's key never grants, so such a line is not read.
    if (PROHIBITION_KEY.test(s) && st.constraints.slice(before).some((k) => k.kind === "permit" || k.kind === "allow")) {
      // "Prohibited: withdrawing to any address other than the Safe (context.safe)": the exception names the only
      // destination, so what stays is that destination list, bound to the activity, with no permission (a narrowing
      // only). Any other shape is not read.
      const produced = st.constraints.slice(before);
      const dests = produced.filter((k) => k.kind === "allow" && DEST_DIMS.has(k.dim));
      if (OTHER_THAN_DEST.test(s) && dests.length > 0 && produced.every((k) => k.kind === "permit" || k.kind === "allow")) {
        st.constraints.length = before;
        for (const k of dests) st.constraints.push(k);
        st.readings.push({ clause: rule, reading: "constraint", constraints: dests.map((_, n) => before + n), ignored: [], unread: [] });
        prevStart = before;
        continue;
      }
      st.constraints.length = before;
      const question = `Not understood: "${shorten(rule)}" (a prohibition whose words would permit something).`;
      st.unknown.push(question);
      st.readings.push({ clause: rule, reading: "not understood", constraints: [], ignored: [], unread: [rule], question });
      prevStart = before;
      continue;
    }
    // "pay contributors ..., only to addresses in context.contributors": the noun is explained by the list.
    if (st.constraints.slice(before).some((k) => k.kind === "beneficiary" || ((k.kind === "allow" || k.kind === "deny") && ["recipient", "spender", "contract"].includes(k.dim))))
      for (const c of clauses) {
        scan(c, RECIPIENT_WORDS, () => undefined);
        // "to my other addr 0x..": the owner's second address, named by the list beside it; "other" limits nothing.
        scan(c, /\b(?:my|our)\s+other(?=\s+(?:addr|address|wallet|account|acct)\b)/gi, () => undefined);
      }
    clauses.forEach((c, i) => {
      if (i > 0 && restatesBound(c.text, st.constraints.slice(spans[0][0], spans[i][0]))) consume(c, 0, c.text.length);
      const produced = Array.from({ length: spans[i][1] - spans[i][0] }, (_, k) => spans[i][0] + k);
      perpLists.push(...perpList(produced.map((k) => st.constraints[k])));
      tolerateLeftovers(c, st.constraints, produced);
      if (produced.length === 0) isRestatementFragment(c, st.constraints.slice(before, spans[i][0]));
      const left = uniq(unexplained(c).map((w) => restore(w, refs)).filter(Boolean));
      const raw = unexplained(c);
      // A limiting clause ("US election mkts only") that produced nothing: its leftovers are what it limits.
      const limitingButEmpty = produced.length === 0 && LIMITS_SOMETHING.test(withoutIdentifiers(c.text));
      const unread = uniq([...raw.filter((w) => limitingButEmpty || isLimiting(w, withoutIdentifiers(c.text), produced.length > 0)), ...vanishedAssets(c.text, st.constraints.slice(before))].map((w) => restore(w, refs)).filter(Boolean));
      // "The agent may deposit into and withdraw from the vault in context.x": split at "and", the first grant's
      // object is the second's, which this reader does not carry over. A grant ending on its preposition grants
      // nothing named, so it is held (a closer after it must not stand in for the object).
      const dangling = DANGLING.exec(c.text);
      if (dangling && i + 1 < clauses.length && produced.some((k) => st.constraints[k].kind === "permit")) unread.push(dangling[1]);
      const ignored = left.filter((w) => !unread.includes(w));
      const text = restore(c.text, refs);
      // "if <something unread>, don't X" (conditions.ts): the prohibition binds only under that condition, so its
      // findings are questions, not violations; the same for a condition alone in the clause before it.
      if (unread.length && OPENS_CONDITION.test(c.text)) {
        const governed = prohibits(c.text) ? produced : i + 1 < clauses.length && !prohibits(c.text) && prohibits(clauses[i + 1].text) ? Array.from({ length: spans[i + 1][1] - spans[i + 1][0] }, (_, k) => spans[i + 1][0] + k) : [];
        for (const j of governed) if (!st.constraints[j].when) st.constraints[j].when = UNREAD_CONDITION(text);
      }
      if (unread.length) {
        const question = `Not understood: "${shorten(text)}" (could not read: ${unread.slice(0, 6).join(", ")}).`;
        st.unknown.push(question);
        st.readings.push({ clause: text, reading: "not understood", constraints: produced, ignored, unread, question });
      } else st.readings.push({ clause: text, reading: produced.length ? "constraint" : "descriptive", constraints: produced, ignored, unread: [] });
    });
    // "ETH sends: ..., at most 0.1 ETH each": a figure naming nothing it counts counts what its sentence is about.
    bindToSentenceActivity(s, st.constraints, before);
    // "testnet payments are useless to us": what a dismissal names is ruled out, not listed (dismissals.ts).
    if (settleDismissal(s, st.constraints, before)) for (const r of st.readings.slice(readingsFrom)) r.constraints = r.constraints.filter((j) => j < st.constraints.length);
    prevStart = before;
  }
  return finishParse(st, intent, { sentenceSpans, perpLists, restatedPayee, framePayees });
}
