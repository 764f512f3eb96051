/**
 * The parse's last step: what can be settled only once every sentence is read (lists a later sentence reinforces,
 * payee rules, references, referrals, counters, grants, lists written in several places), and the result it returns.
 */
import type { Activity, Constraint } from "../types";
import { uniq, type ParseState } from "./state";
import { routeAssetList } from "./routes";
import { buildGrants, type SentenceSpan } from "./grants";
import { assignCounters } from "./counters";
import { inheritLineUnits } from "./line-units";
import { settleFramePayees } from "./frame";
import { bindPerpLists } from "./perp-lists";
import type { ClauseReading } from "./reading";
import { settleReferences } from "./settle";
import { settleReferrals } from "./referrals";
import { hasPayeeRule, settleHostPayees } from "./payees";
import { settlePayeeAmounts } from "./payee-amounts";
import { settlePayeeOnce } from "./payee-once";
import { guardPurposeObjects } from "./purpose";
import { joinSideAssets } from "./trading";
import { dropTitleAssets, foldGroupLists, scopeListsToClause } from "./list-scope";

export interface ParsedIntent {
  constraints: Constraint[];
  /** One sentence per entry: what was not understood. */
  unknown: string[];
  /** Activities the intent permits (explicitly, or via its label when no sentence does). */
  permitted: Activity[];
  /** True when some sentence explicitly permits activities ("you may", "trade only ..."). */
  explicitScope: boolean;
  self: string[];
  /** Per clause, how it was read (constraint, descriptive, not understood) and the words it ignored. */
  clauses: ClauseReading[];
}

/**
 * Allowlists of one kind written in several places ("Pay Oakridge 0x.. up to $500. Pay Brightline 0x.. up to
 * $800.", one bullet per payee) are one list: the owner names every allowed one, in as many sentences as they like.
 * Lists bound to different activities or to a route's assets stay apart.
 */
function unionAllowlists(cs: Constraint[]): void {
  type ListC = Extract<Constraint, { kind: "allow" | "deny" }>;
  const first = new Map<string, ListC>();
  for (let i = 0; i < cs.length; i++) {
    const k = cs[i];
    if (k.kind !== "allow" || k.forAssets?.length || k.grantId !== undefined || k.dim === "marketType" || k.dim === "assetClass") continue;
    const key = `${k.dim}|${[...k.activities].sort().join(",")}`;
    const head = first.get(key);
    if (!head) {
      const copy: ListC = { ...k, values: [...k.values], refs: k.refs ? [...k.refs] : undefined };
      first.set(key, copy);
      cs[i] = copy;
      continue;
    }
    head.values = uniq([...head.values, ...k.values]);
    if (k.refs?.length) head.refs = uniq([...(head.refs ?? []), ...k.refs]);
    if (!head.rule.includes(k.rule)) head.rule = `${head.rule}; ${k.rule}`;
    cs.splice(i, 1);
    i--;
  }
}

/** What the sentence loop leaves for the last step: each sentence's constraints, perp lists, payees to settle. */
export interface SentenceTrail {
  sentenceSpans: SentenceSpan[];
  perpLists: Constraint[];
  /** Readings of conditional payee sentences that restate a payee rule, if there is one. */
  restatedPayee: number[];
  /** Readings of frame lines that name a group of payees. */
  framePayees: number[];
}

export function finishParse(st: ParseState, intent: string, { sentenceSpans, perpLists, restatedPayee, framePayees }: SentenceTrail): ParsedIntent {
  bindPerpLists(st.constraints, perpLists);
  sentenceSpans.forEach((sp, i) => (sp.to = i + 1 < sentenceSpans.length ? sentenceSpans[i + 1].from : st.constraints.length));
  // "up to 80 bucks a bet, but anything over 45 ask me first": the bare line is in the cap's unit (line-units.ts).
  inheritLineUnits(st.constraints, sentenceSpans);
  for (const r of st.reinforce) {
    const has = st.constraints.some((k) => k.kind === "allow" && (r.dim === "any" || k.dim === r.dim || (r.dim === "recipient" && k.dim === "spender")));
    if (has) continue;
    if (r.forbid) {
      st.constraints.push({ kind: "forbid", activities: r.forbid.activities, label: r.forbid.label, external: r.forbid.external, rule: r.rule });
      const reading = st.readings.find((x) => x.clause === r.rule && x.reading === "descriptive");
      if (reading) Object.assign(reading, { reading: "constraint", constraints: [st.constraints.length - 1] });
    }
    else st.unknown.push(`Not understood: "${r.rule}" (no list of allowed ones is given).`);
  }
  settleHostPayees(st);
  settlePayeeAmounts(st);
  settlePayeeOnce(st);
  // Without a payee rule to restate, the conditional is a rule nobody read: it holds every payment.
  if (!hasPayeeRule(st))
    for (const i of restatedPayee) {
      const question = `Not understood: "${st.readings[i].clause}" (no payee rule it could restate).`;
      st.unknown.push(question);
      st.readings[i] = { ...st.readings[i], reading: "not understood", unread: ["else"], question };
    }
  settleFramePayees(st, framePayees);
  settleReferences(st);
  settleReferrals(st);
  guardPurposeObjects(st);
  assignCounters(st);
  // Before lists are unioned: the lists and caps a grant folds in are then left out of the union.
  // A list bound to no activity takes its own clause's (list-scope.ts); before the grants, which read the spans.
  const clausePermits = scopeListsToClause(st.constraints, st.readings);
  const grants = buildGrants(st.constraints, sentenceSpans, intent);
  st.constraints.push(...clausePermits);
  st.constraints = dropTitleAssets(st.constraints);
  unionAllowlists(st.constraints);
  joinSideAssets(st.constraints);
  const routeList = routeAssetList(st.constraints);
  if (routeList) st.constraints.push(routeList);
  st.constraints.push(...grants);
  foldGroupLists(st.constraints);
  // "- USDC -> context.vendors, <= 12k per tx" beside "- ETH -> context.keepers ...": each grant permits paying its
  // recipients even when no verb was written.
  const permits = [...st.constraints.flatMap((k) => (k.kind === "permit" ? k.activities : [])), ...grants.flatMap((g): Activity[] => (g.universal ? ["transfer", "payment"] : []))];
  return {
    constraints: st.constraints,
    unknown: st.unknown,
    permitted: uniq(permits.length ? permits : st.labelPermits),
    explicitScope: permits.length > 0,
    self: st.self,
    clauses: st.readings,
  };
}
