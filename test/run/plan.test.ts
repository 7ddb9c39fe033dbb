import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EvalCase } from "../../src/contracts/evals.js";
import { evalName, planRuns, selectEvals } from "../../src/run/plan.js";
import { evalDirName } from "../../src/runlog/layout.js";
import type { ResolvedEval } from "../../src/suite/model.js";

function evalCase(raw: Record<string, unknown>): ResolvedEval {
  const parsed = EvalCase.parse({ prompt: "do it", expectations: ["it is done"], ...raw });
  return { ...parsed, numericId: typeof parsed.id === "number" ? parsed.id : 2, fixtures: [] };
}

const evals = [evalCase({ id: 1, name: "first-eval" }), evalCase({ id: "two", timeout: 5 })];

describe("planRuns", () => {
  it("plans every eval × configuration × run, configurations side by side", () => {
    const specs = planRuns({
      evals,
      configurations: ["with_skill", "without_skill"],
      runs: 2,
      iterationDir: "/ws/iteration-3",
      defaultTimeoutSeconds: 60,
    });
    expect(specs.map((s) => [s.eval.id, s.configuration, s.runNumber])).toEqual([
      [1, "with_skill", 1],
      [1, "without_skill", 1],
      ["two", "with_skill", 1],
      ["two", "without_skill", 1],
      [1, "with_skill", 2],
      [1, "without_skill", 2],
      ["two", "with_skill", 2],
      ["two", "without_skill", 2],
    ]);
    expect(specs[0]!.runDir).toBe(join("/ws/iteration-3", "eval-1", "with_skill", "run-1"));
    expect(specs[7]!.runDir).toBe(join("/ws/iteration-3", "eval-two", "without_skill", "run-2"));
    expect(specs[0]!.evalName).toBe("first-eval");
    expect(specs[2]!.evalName).toBe("eval-two");
  });

  it("uses an eval's own timeout, else the default, in milliseconds", () => {
    const specs = planRuns({
      evals,
      configurations: ["with_skill"],
      runs: 1,
      iterationDir: "/ws/iteration-1",
      defaultTimeoutSeconds: 60,
    });
    expect(specs.map((s) => s.timeoutMs)).toEqual([60_000, 5_000]);
  });

  it("plans nothing for zero runs or no evals", () => {
    const base = { iterationDir: "/i", defaultTimeoutSeconds: 1 };
    expect(planRuns({ ...base, evals, configurations: ["with_skill"], runs: 0 })).toEqual([]);
    expect(planRuns({ ...base, evals: [], configurations: ["with_skill"], runs: 3 })).toEqual([]);
    expect(planRuns({ ...base, evals, configurations: [], runs: 3 })).toEqual([]);
  });
});

describe("evalDirName and evalName", () => {
  it("makes a safe folder name from any id", () => {
    expect(evalDirName(7)).toBe("eval-7");
    expect(evalDirName("pdf/merge two:files")).toBe("eval-pdf_merge_two_files");
    expect(evalDirName("a.b-c_d")).toBe("eval-a.b-c_d");
  });

  it("names an eval by its name, else by its id", () => {
    expect(evalName(evals[0]!)).toBe("first-eval");
    expect(evalName(evals[1]!)).toBe("eval-two");
  });
});

describe("selectEvals", () => {
  it("keeps all evals without a selection, else those whose id matches as a string", () => {
    expect(selectEvals(evals, undefined)).toEqual(evals);
    expect(selectEvals(evals, [])).toEqual(evals);
    expect(selectEvals(evals, ["1"]).map((e) => e.id)).toEqual([1]);
    expect(selectEvals(evals, ["two", "nope"]).map((e) => e.id)).toEqual(["two"]);
    expect(selectEvals(evals, ["nope"])).toEqual([]);
  });

  it("takes a number for an eval's place when no eval has it as its id", () => {
    const alpha = { ...evalCase({ id: "alpha" }), numericId: 2 };
    const beta = { ...evalCase({ id: "beta" }), numericId: 3 };
    expect(selectEvals([alpha, beta], ["2"]).map((e) => e.id)).toEqual(["alpha"]);
    const named2 = { ...evalCase({ id: "2" }), numericId: 5 };
    expect(selectEvals([alpha, named2], ["2"]).map((e) => e.id)).toEqual(["2"]);
  });
});
