import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { estimatePlan, estimateWallSeconds } from "../../src/pipeline/estimate.js";
import { loadInputs } from "../../src/run/load-inputs.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "card/SKILL.md": skillMd("card", "Writes card.txt. Use when asked for a card.", "Write card.txt."),
    // Eval 1 has an expectation for the judge; eval 2 only a check, which costs no judge call.
    "card/evals/evals.json": JSON.stringify({
      evals: [
        { id: 1, prompt: "Make a card", expectations: ["card.txt greets the reader"] },
        { id: 2, prompt: "Make a plain card", checks: [{ type: "file_exists", path: "card.txt" }] },
      ],
    }),
    "card/evals/triggers.json": JSON.stringify([
      { query: "make me a card", should_trigger: true },
      { query: "write a birthday card", should_trigger: true },
      { query: "fix the parser test", should_trigger: false },
    ]),
  });
});
afterEach(() => cleanup());

// Prices that are exact in binary, each different, so a count at the wrong price shows.
const unitCosts = { agentRunUsd: 0.5, triggerRunUsd: 0.25, judgeCallUsd: 0.125 };

describe("the --dry-run estimate", () => {
  it("counts eval runs, judge calls for evals with expectations only, and trigger runs, each at its price", async () => {
    const { suite } = await loadInputs({ skillPath: `${dir}/card`, need: "any" });
    const plan = estimatePlan({ suite, configurations: 2, runs: 3, triggerRuns: 2, grade: true, unitCosts });
    expect(plan).toEqual({ agentRuns: 12, triggerRuns: 6, judgeCalls: 6, costUsd: 8.25, unitCosts });
  });

  it("counts no judge call under --no-grade", async () => {
    const { suite } = await loadInputs({ skillPath: `${dir}/card`, need: "any" });
    const plan = estimatePlan({ suite, configurations: 2, runs: 3, triggerRuns: 2, grade: false, unitCosts });
    expect(plan).toMatchObject({ agentRuns: 12, judgeCalls: 0, costUsd: 7.5 });
  });

  it("counts only the evals --only picks", async () => {
    const { suite } = await loadInputs({ skillPath: `${dir}/card`, need: "any" });
    const plan = estimatePlan({
      suite,
      evalIds: ["2"],
      configurations: 1,
      runs: 1,
      triggerRuns: 0,
      grade: true,
      unitCosts,
    });
    expect(plan).toMatchObject({ agentRuns: 1, judgeCalls: 0, triggerRuns: 0, costUsd: 0.5 });
  });
});

describe("the --dry-run wall time", () => {
  it("counts a last partial wave as a whole wave", () => {
    // 5 eval runs in 3 waves of 10 s, 3 trigger runs in 2 waves of 4 s, 1 judge call in 1 wave of 1 s.
    const unit = { agentRun: 10, judgeCall: 1, triggerRun: 4 };
    expect(estimateWallSeconds({ agentRuns: 5, triggerRuns: 3, judgeCalls: 1 }, 2, unit)).toBe(39);
    expect(estimateWallSeconds({ agentRuns: 4, triggerRuns: 0, judgeCalls: 0 }, 2, unit)).toBe(20);
  });
});
