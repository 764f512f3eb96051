/**
 * Review bands: an owner splits actions by size into tiers (the agent alone below a figure, a named human in a band,
 * nothing above a hard cap), in many phrasings. Our own wording; the category set is blind27. Each tier is checked
 * on both sides of its line, and the unsafe sides: a human line never yields ALLOW above it, "alone below X" never
 * grants what no rule permits, a hard cap beside a human line still blocks, and a human rule for one activity does
 * not hold another.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { input, orderFacts, transfer } from "./helpers";

const order = (usd: number) => orderFacts({ asset: "ETH", size: usd / 3000, price: 3000, notionalUsd: usd });
const pay = (usdc: number) => transfer({ amount: String(usdc), usd: usdc });
const judge = (intent: string, f: ReturnType<typeof pay>) => evaluateRules(input(intent, { type: "test" }, f, null));
const v = (intent: string, f: ReturnType<typeof pay>) => judge(intent, f).verdict;

describe("the agent's own tier, stated as a permission, is where a human takes over", () => {
  const cases: Array<[string, number, number]> = [
    ["Trade ETH perps. An order costing no more than ninety dollars can go through without anyone reviewing it.", 60, 120],
    ["Trade ETH perps. Orders of $2,500 or less: the agent places them by itself. Above that the desk lead decides.", 2000, 3000],
    ["Trade ETH perps, max $10k per order. Under $3k you don't need to ask me.", 2000, 5000],
    ["Trade ETH perps. no need to check with me for anything under $1.5k", 1000, 2000],
  ];
  it.each(cases)("%s", (intent, below, above) => {
    expect(v(intent, order(below))).toBe("ALLOW");
    expect(v(intent, order(above))).toBe("ESCALATE");
  });

  it("'under X' leaves X itself to the human; 'X or less' keeps it with the agent", () => {
    expect(v("Trade ETH perps. Under $3k you don't need to ask me.", order(3000))).toBe("ESCALATE");
    expect(v("Trade ETH perps. Orders of $3,000 or less the agent sends by itself.", order(3000))).toBe("ALLOW");
  });

  it("a hard cap above the band still blocks", () => {
    expect(v("Trade ETH perps, max $10k per order. Under $3k you don't need to ask me.", order(12_000))).toBe("BLOCK");
  });

  it("'alone below X' grants nothing by itself: an activity no rule permits is not allowed under the line", () => {
    expect(v("The agent trades ETH perps. No need to ask me for payments under 200 USDC.", pay(50))).not.toBe("ALLOW");
    expect(v("The agent trades ETH perps. Transfers below 200 USDC need no sign-off.", pay(50))).not.toBe("ALLOW");
  });
});

describe("human lines in config keys, bullets and conditions", () => {
  it.each([
    ["The agent sends USDC payments.\nhuman_approval_above: $400", 300, 500],
    ["Trade ETH perps. anything at least $5k notional: pause and have a human sign off", 4000, 5000],
    ["The agent sends USDC payments. Transfers of 3,000 USDC or more must be cleared by finance.", 2999, 3000],
    ["Trade ETH perps. I want to see anything over $1k before it goes out.", 500, 1500],
    ["Trade ETH perps. Orders over $1k: a human approves first.", 500, 1500],
  ] as Array<[string, number, number]>)("%s", (intent, below, above) => {
    const f = intent.startsWith("Trade") ? order : pay;
    expect(v(intent, f(below))).toBe("ALLOW");
    expect(v(intent, f(above))).toBe("ESCALATE");
  });

  it("a band written from-to asks the human from its lower end and refuses above the cap", () => {
    const intent = "The agent sends USDC payments. Payments from 200 up to 900 USDC need my OK first. Nothing above 900.";
    expect(v(intent, pay(150))).toBe("ALLOW");
    expect(v(intent, pay(400))).toBe("ESCALATE");
    expect(v(intent, pay(1000))).toBe("BLOCK");
  });

  it("a bare band after a first tier takes that tier's unit", () => {
    const intent = "The agent sends USDC payments.\n- under 40 USDC: go ahead\n- 40 to 90: text me and wait for a yes\n- nothing over 90";
    expect(v(intent, pay(30))).toBe("ALLOW");
    expect(v(intent, pay(60))).toBe("ESCALATE");
    expect(v(intent, pay(120))).toBe("BLOCK");
  });
});

describe("a hard cap and a human line in one sentence", () => {
  const intent = "The agent sends USDC payments. No payment may exceed 5,000 USDC, and any payment above 1,000 USDC must be countersigned by the CFO.";
  it("checks the human line against its own figure, not the cap's", () => {
    expect(v(intent, pay(800))).toBe("ALLOW");
    expect(v(intent, pay(3000))).toBe("ESCALATE");
  });
  it("still blocks above the cap (unsafe side: never a mere escalation)", () => {
    expect(v(intent, pay(6000))).toBe("BLOCK");
  });
});

describe("'don't send it, ask me' is a human line, not a ban", () => {
  it.each([
    "The agent sends USDC payments. Any payment bigger than 2,000 USDC: hold it, don't pay it, and ping me.",
    "The agent sends USDC payments. Single payments over 2,000 USDC - do not send them, escalate to the treasurer.",
    "The agent sends USDC payments. If a payment is more than 2,000 USDC, don't send it: put it in front of me and I'll decide.",
  ])("%s", (intent) => {
    expect(v(intent, pay(1200))).toBe("ALLOW");
    expect(v(intent, pay(2500))).toBe("ESCALATE");
  });
});

describe("a human rule about one activity holds that activity only", () => {
  it("'unstaking needs ops' does not hold a delegation, and holds an undelegation", () => {
    const intent = "Delegate HYPE to any validator, max 300 HYPE each time. Undelegating stake needs sign-off from ops beforehand.";
    const del = (isUndelegate: boolean) =>
      orderFacts({}, { actionFamily: "staking", actionType: "tokenDelegate", orders: [], assets: ["HYPE"], notionalUsd: null, staking: { kind: isUndelegate ? "undelegate" : "delegate", validator: "0x" + "1".repeat(40), amount: 100 } } as never);
    expect(judge(intent, del(true)).verdict).toBe("ESCALATE");
    expect(judge(intent, del(false)).reasoning).not.toContain("sign-off from ops");
  });
});
