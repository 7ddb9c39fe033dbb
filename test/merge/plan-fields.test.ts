import { describe, expect, it } from "vitest";
import type { IterationRecord, TriggerPlan } from "../../src/contracts/run-record.js";
import type { ShardInfo } from "../../src/contracts/shard.js";
import type { TriggerResults } from "../../src/contracts/trigger-results.js";
import { planDifferences, type ShardData } from "../../src/merge/index.js";

type Parts = {
  iteration?: Partial<IterationRecord> | false;
  triggerPlan?: Partial<TriggerPlan> | false;
  triggerResults?: Partial<TriggerResults>;
};

// A shard of a plan of evals and triggers; `false` leaves a part out.
function shard(index: number, parts: Parts = {}): ShardData {
  const iteration =
    parts.iteration === false
      ? undefined
      : ({
          skill_name: "s",
          skill_path: "/s",
          skill_hash: "skill-a",
          status: "complete",
          started_at: "2026-01-01T00:00:00Z",
          agent: { name: "codex" },
          model: "m1",
          plan: { evals: [1], configurations: ["with_skill"], runs_per_configuration: 1 },
          shard: { index, count: 2, plan_hash: "plan-a" },
          ...parts.iteration,
        } as IterationRecord & { shard: ShardInfo });
  const triggerPlan =
    parts.triggerPlan === false
      ? undefined
      : ({
          skill_name: "s",
          skill_hash: "skill-a",
          description: "d",
          queries: ["q"],
          runs_per_query: 1,
          with_skills: [],
          status: "complete",
          shard: { index, count: 2, plan_hash: "t" },
          ...parts.triggerPlan,
        } as TriggerPlan & { shard: ShardInfo });
  return {
    source: `shard-${index}`,
    dir: `/x/shard-${index}`,
    ...(iteration ? { iteration } : {}),
    ...(triggerPlan ? { triggerPlan } : {}),
    ...(parts.triggerResults ? { triggerResults: parts.triggerResults as TriggerResults } : {}),
    evalRuns: [],
    triggerRuns: [],
    finished: { evalRuns: 0, triggerRuns: 0 },
  };
}

const numbers = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("planDifferences", () => {
  it("is empty for two shards of one plan", () => {
    expect(planDifferences(shard(1), shard(2))).toEqual([]);
  });

  it("says a part one shard ran and the other did not, and compares no field of that part", () => {
    expect(
      planDifferences(shard(1), shard(2, { triggerPlan: false, iteration: { plan_hash: "x" } as never })),
    ).toEqual(["triggers: ran vs not run"]);
    expect(
      planDifferences(
        shard(1, { iteration: false }),
        shard(2, { iteration: { skill_hash: "skill-b" }, triggerPlan: { description: "other" } }),
      ),
    ).toEqual(["evals: not run vs ran", 'description: "d" vs "other"']);
  });

  it("does not call a plan whose parts differ hashes-only, even when only a hash differs besides", () => {
    expect(
      planDifferences(shard(1, { triggerPlan: false }), shard(2, { iteration: { skill_hash: "skill-b" } })),
    ).toEqual(["triggers: not run vs ran", "skill hash (evals): skill-a vs skill-b"]);
  });

  it("shows a hash by its first 12 characters and explains hashes that alone differ", () => {
    const lines = planDifferences(
      shard(1, { iteration: { skill_hash: "0123456789abcdef" } }),
      shard(2, { iteration: { skill_hash: "fedcba9876543210" } }),
    );
    expect(lines[0]).toBe("skill hash (evals): 0123456789ab vs fedcba987654");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^\(only hashes differ: /);
  });

  it("shows a missing hash as (none)", () => {
    expect(
      planDifferences(
        shard(1, { iteration: { skill_hash: undefined } as never }),
        shard(2, { iteration: { skill_hash: "abc" } }),
      )[0],
    ).toBe("skill hash (evals): (none) vs abc");
  });

  it("takes an agent not recorded for Claude Code, and a model not recorded for the agent's default", () => {
    expect(
      planDifferences(
        shard(1, { iteration: { agent: undefined, model: undefined } as never }),
        shard(2, { iteration: { model: "m2" } }),
      ),
    ).toEqual(["agent: claude-code vs codex", "model: (the agent's default) vs m2"]);
    expect(
      planDifferences(
        shard(1, { iteration: { agent: undefined } as never }),
        shard(2, { iteration: { agent: { name: "claude-code" } } }),
      ),
    ).toEqual([]);
  });

  it("reads the agent and model of a shard of triggers only from its trigger results", () => {
    const results = (agent: string, model: string) =>
      ({ skill_name: "s", threshold: 0.5, results: [], agent: { name: agent }, model }) as never;
    expect(
      planDifferences(
        shard(1, { iteration: false, triggerResults: results("codex", "m1") }),
        shard(2, { iteration: false, triggerResults: results("claude-code", "m2") }),
      ),
    ).toEqual(["agent: codex vs claude-code", "model: m1 vs m2"]);
  });

  it("compares the agent, model and threshold only when both shards record them", () => {
    const withResults = shard(1, {
      iteration: false,
      triggerResults: { threshold: 0.8, agent: { name: "codex" }, model: "m9" } as never,
    });
    expect(planDifferences(withResults, shard(2, { iteration: false }))).toEqual([]);
    expect(planDifferences(shard(2, { iteration: false }), withResults)).toEqual([]);
    expect(
      planDifferences(
        shard(1, { triggerResults: { threshold: 0.5 } as never }),
        shard(2, { triggerResults: { threshold: 0.8 } as never }),
      ),
    ).toEqual(["threshold: 0.5 vs 0.8"]);
  });

  it("lists short lists whole, an empty one as (none), and takes an empty --with-skills for none", () => {
    expect(
      planDifferences(
        shard(1, { triggerPlan: { with_skills: [] } }),
        shard(2, { triggerPlan: { with_skills: ["a", "b"] } }),
      ),
    ).toEqual(["--with-skills: (none) vs a, b"]);
    expect(
      planDifferences(
        shard(1, { triggerPlan: { with_skills: [] } }),
        shard(2, { triggerPlan: { with_skills: undefined } as never }),
      ),
    ).toEqual([]);
    expect(
      planDifferences(
        shard(1, {
          iteration: { plan: { evals: [1], configurations: ["with_skill"], runs_per_configuration: 1 } },
        }),
        shard(2, {
          iteration: {
            plan: {
              evals: [1],
              configurations: ["with_skill", "without_skill"],
              runs_per_configuration: 1,
              baseline_skill_path: "/old",
            },
          } as never,
        }),
      ),
    ).toEqual(["configurations: with_skill vs with_skill, without_skill", "baseline skill: (none) vs /old"]);
  });

  it("tells long lists by their size and at most five of what only one side has", () => {
    const evals = (ids: number[]): Parts => ({
      iteration: { plan: { evals: ids, configurations: ["with_skill" as const], runs_per_configuration: 1 } },
    });
    // 7 + 6 = 13 items: no longer listed whole.
    expect(planDifferences(shard(1, evals(numbers(1, 7))), shard(2, evals(numbers(1, 6))))).toEqual([
      "evals: 7 vs 6 (only in the first: 7)",
    ]);
    expect(planDifferences(shard(1, evals(numbers(1, 6))), shard(2, evals(numbers(1, 12))))).toEqual([
      "evals: 6 vs 12 (only in the second: 7, 8, 9, 10, 11, …)",
    ]);
    expect(planDifferences(shard(1, evals(numbers(1, 10))), shard(2, evals(numbers(6, 15))))).toEqual([
      "evals: 10 vs 10 (only in the first: 1, 2, 3, 4, 5; only in the second: 11, 12, 13, 14, 15)",
    ]);
    expect(planDifferences(shard(1, evals(numbers(1, 7))), shard(2, evals(numbers(1, 7).reverse())))).toEqual(
      ["evals: 7 vs 7 (in another order)"],
    );
    // 6 + 6 = 12 items: still listed whole.
    expect(planDifferences(shard(1, evals(numbers(1, 6))), shard(2, evals(numbers(2, 7))))).toEqual([
      "evals: 1, 2, 3, 4, 5, 6 vs 2, 3, 4, 5, 6, 7",
    ]);
  });

  it("tells queries of one count by the first that differs, cut at 60 characters", () => {
    const long = (c: string) => c.repeat(70);
    expect(
      planDifferences(
        shard(1, { triggerPlan: { queries: ["q", "r", long("a")] } }),
        shard(2, { triggerPlan: { queries: ["q", "r", long("b")] } }),
      ),
    ).toEqual([`trigger queries: query 3 is "${"a".repeat(60)}" vs "${"b".repeat(60)}"`]);
    expect(
      planDifferences(
        shard(1, { triggerPlan: { queries: ["q", "r"] } }),
        shard(2, { triggerPlan: { queries: ["q", "s"] } }),
      ),
    ).toEqual(['trigger queries: query 2 is "r" vs "s"']);
  });

  it("cuts a description at 80 characters and shows one not recorded as (none)", () => {
    expect(
      planDifferences(
        shard(1, { triggerPlan: { description: "x".repeat(100) } }),
        shard(2, { triggerPlan: { description: undefined } as never }),
      ),
    ).toEqual([`description: "${"x".repeat(80)}" vs (none)`]);
    expect(
      planDifferences(
        shard(1, { triggerPlan: { description: undefined } as never }),
        shard(2, { triggerPlan: { description: "y".repeat(90) } }),
      ),
    ).toEqual([`description: (none) vs "${"y".repeat(80)}"`]);
  });

  it("names the trigger hashes after the words", () => {
    expect(
      planDifferences(
        shard(1),
        shard(2, {
          triggerPlan: { runs_per_query: 3, skill_hash: "k", shard: { index: 2, count: 2, plan_hash: "u" } },
        }),
      ),
    ).toEqual([
      "trigger runs: 1 vs 3",
      "skill hash (triggers): skill-a vs k",
      "plan hash (triggers): t vs u",
    ]);
  });
});
