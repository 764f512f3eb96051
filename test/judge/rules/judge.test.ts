import { describe, expect, it } from "vitest";
import { RulesJudge } from "../../../src/judge/rules/judge";
import { input, orderFacts } from "./helpers";

describe("RulesJudge", () => {
  it("returns the verdict, provider 'rules' and a rules transcript entry", async () => {
    const judge = new RulesJudge();
    expect(judge.name).toBe("rules");
    const out = await judge.judge(input("Trade only BTC perps. Max $2,000 per order.", {}, orderFacts({ notionalUsd: 2_430 })));
    expect(out.verdict).toBe("BLOCK");
    expect(out.provider).toBe("rules");
    expect(out.reasoning).toMatch(/\$2,430.*\$2,000/);
    expect(out.transcript).toHaveLength(1);
    expect(out.transcript[0].kind).toBe("rules");
    const data = out.transcript[0].data as Record<string, unknown[]>;
    expect(Object.keys(data).sort()).toEqual(["clauses", "constraints", "injection", "unknowns", "violations"]);
    expect(data.violations).toHaveLength(1);
    expect(JSON.parse(JSON.stringify(out.transcript))).toEqual(out.transcript);
  });

  it("keeps reasoning to one or two sentences", async () => {
    const out = await new RulesJudge().judge(input("Trade only BTC perps. Max $2,000 per order. Never withdraw.", {}, orderFacts({ asset: "SOL", notionalUsd: 9_000 })));
    expect((out.reasoning ?? "").split(/(?<=\.)\s+(?=[A-Z])/).length).toBeLessThanOrEqual(2);
  });
});
