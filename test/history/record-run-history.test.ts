import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { History, RunHistory } from "../../src/contracts/index.js";
import { recordRunHistory } from "../../src/history/index.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { fail, type Outcome, pass, writeScoredIteration } from "./history-fixture.js";

let ws: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  const made = await tempDir();
  cleanup = made.cleanup;
  ws = join(made.dir, "demo-workspace");
});
afterEach(() => cleanup());

const iteration = (folder: string, outcome: Outcome) => writeScoredIteration(ws, folder, outcome);

async function readHistory(): Promise<RunHistory> {
  return RunHistory.parse(JSON.parse(await readFile(join(ws, "history.json"), "utf8")));
}

describe("history.json of run iterations", () => {
  it("makes the first iteration its part's baseline, with the benchmark's figures, and parses as skill-creator's History", async () => {
    await recordRunHistory(ws, [await iteration("iteration-1", { withSkill: pass })]);
    const text = JSON.parse(await readFile(join(ws, "history.json"), "utf8"));
    expect(History.safeParse(text).success).toBe(true);
    const history = await readHistory();
    expect(history.skill_name).toBe("demo");
    expect(history.current_best).toBe("iteration-1");
    expect(history.iterations).toEqual([
      expect.objectContaining({
        version: "iteration-1",
        parent: null,
        expectation_pass_rate: 1,
        grading_result: "baseline",
        is_current_best: true,
        iteration: 1,
        agent: "claude-code",
        agent_version: "2.0.1",
        model: "old",
        skill_hash: "abc123",
        with_skill_pass_rate: 1,
        baseline_configuration: "without_skill",
        baseline_pass_rate: 0,
        delta: { estimate: 1, ci_low: 1, ci_high: 1 },
        verdict: "helps",
        effect_floor: 0.05,
      }),
    ]);
    const [row] = history.iterations;
    expect(row).not.toHaveProperty("change");
    expect(row).not.toHaveProperty("redundant");
    expect(row).not.toHaveProperty("part");
  });

  it("grades each later iteration against the one before: regressed lost, improved won, unchanged a tie", async () => {
    await recordRunHistory(ws, [await iteration("iteration-1", { withSkill: pass })]);
    await recordRunHistory(ws, [await iteration("iteration-2", { withSkill: fail })]);
    await recordRunHistory(ws, [await iteration("iteration-3", { withSkill: pass })]);
    await recordRunHistory(ws, [await iteration("iteration-4", { withSkill: pass, baseline: true })]);
    const history = await readHistory();
    expect(
      history.iterations.map((r) => [
        r.version,
        r.parent,
        r.grading_result,
        r.change,
        r.regressed_evals,
        r.verdict,
      ]),
    ).toEqual([
      ["iteration-1", null, "baseline", undefined, undefined, "helps"],
      ["iteration-2", "iteration-1", "lost", "regressed", 2, "no effect"],
      ["iteration-3", "iteration-2", "won", "improved", 0, "helps"],
      ["iteration-4", "iteration-3", "tie", "unchanged", 0, "no effect"],
    ]);
    expect(history.iterations[3]?.redundant).toBe(true);
    // The best pass rate is shared by 1, 3 and 4: the newest of them.
    expect(history.current_best).toBe("iteration-4");
    expect(history.iterations.filter((r) => r.is_current_best).map((r) => r.version)).toEqual([
      "iteration-4",
    ]);
    expect(History.safeParse(history).success).toBe(true);
  });

  it("rewrites the row of a resumed iteration instead of adding another", async () => {
    await recordRunHistory(ws, [await iteration("iteration-1", { withSkill: pass })]);
    await recordRunHistory(ws, [await iteration("iteration-2", { withSkill: fail })]);
    await rm(join(ws, "iteration-2"), { recursive: true });
    await recordRunHistory(ws, [await iteration("iteration-2", { withSkill: pass })]);
    const history = await readHistory();
    expect(history.iterations.map((r) => [r.version, r.grading_result, r.change])).toEqual([
      ["iteration-1", "baseline", undefined],
      ["iteration-2", "tie", "unchanged"],
    ]);
  });

  it("gives every part of several-model iterations its own parent chain", async () => {
    const first = [
      await iteration("iteration-1/old", { withSkill: pass, model: "old" }),
      await iteration("iteration-1/new", { withSkill: pass, model: "new" }),
    ];
    await recordRunHistory(ws, first);
    const second = [
      await iteration("iteration-2/old", { withSkill: pass, model: "old" }),
      await iteration("iteration-2/new", { withSkill: [true, false], model: "new" }),
    ];
    await recordRunHistory(ws, second);
    const history = await readHistory();
    expect(
      history.iterations.map((r) => [
        r.version,
        r.part,
        r.model,
        r.parent,
        r.grading_result,
        r.regressed_evals,
      ]),
    ).toEqual([
      ["iteration-1/old", "old", "old", null, "baseline", undefined],
      ["iteration-1/new", "new", "new", null, "baseline", undefined],
      ["iteration-2/old", "old", "old", "iteration-1/old", "tie", 0],
      ["iteration-2/new", "new", "new", "iteration-1/new", "tie", 1],
    ]);
    expect(history.iterations[3]?.change).toBe("inconclusive");
  });

  it("follows the previous ordinary iteration when the model changes, and keeps rows other tools wrote", async () => {
    await writeFile(
      join(await iteration("iteration-1", { withSkill: pass, model: "old" }), "..", "history.json"),
      JSON.stringify({
        started_at: "2026-01-01T00:00:00Z",
        skill_name: "demo",
        current_best: "v0",
        iterations: [
          {
            version: "v0",
            parent: null,
            expectation_pass_rate: 1,
            grading_result: "baseline",
            is_current_best: true,
          },
        ],
      }),
    );
    await recordRunHistory(ws, [join(ws, "iteration-1")]);
    await recordRunHistory(ws, [await iteration("iteration-2", { withSkill: [true, false], model: "new" })]);
    const history = await readHistory();
    expect(history.started_at).toBe("2026-01-01T00:00:00Z");
    expect(history.iterations.map((r) => [r.version, r.parent, r.model, r.regressed_evals])).toEqual([
      ["v0", null, undefined, undefined],
      ["iteration-1", null, "old", undefined],
      ["iteration-2", "iteration-1", "new", 1],
    ]);
    expect(history.current_best).toBe("iteration-1");
  });

  it("names no model when none was asked for and the benchmark knows none", async () => {
    const folder = await iteration("iteration-1", { withSkill: pass, model: null });
    const benchmark = JSON.parse(await readFile(join(folder, "benchmark.json"), "utf8"));
    expect(benchmark.metadata.executor_model).toBe("unknown");
    await recordRunHistory(ws, [folder]);
    const [row] = (await readHistory()).iterations;
    expect(row?.version).toBe("iteration-1");
    expect(row).not.toHaveProperty("model");
  });

  it("names the model benchmark.json says ran when iteration.json asked for none", async () => {
    await recordRunHistory(ws, [
      await iteration("iteration-1", { withSkill: pass, model: null, ran: "sonnet" }),
    ]);
    const [row] = (await readHistory()).iterations;
    expect(row?.model).toBe("sonnet");
  });

  it("takes an iteration.json that names no agent for Claude Code's", async () => {
    await recordRunHistory(ws, [await iteration("iteration-1", { withSkill: pass, agent: null })]);
    const [row] = (await readHistory()).iterations;
    expect(row?.agent).toBe("claude-code");
    expect(row).not.toHaveProperty("agent_version");
  });

  it("records the trigger accuracy of an iteration that ran trigger evals", async () => {
    const folder = await iteration("iteration-1", { withSkill: pass });
    const query = (text: string, passed: boolean) => ({
      query: text,
      should_trigger: true,
      trigger_rate: passed ? 1 : 0,
      triggers: passed ? 2 : 0,
      runs: 2,
      pass: passed,
    });
    await writeTree(folder, {
      "triggers/trigger-results.json": JSON.stringify({
        skill_name: "demo",
        description: "Writes the file.",
        results: [query("write the file", true), query("make the file", true), query("save it", false)],
        summary: { total: 3, passed: 2, failed: 1, accuracy: 0.6667 },
      }),
    });
    await recordRunHistory(ws, [folder]);
    const [row] = (await readHistory()).iterations;
    expect(row?.trigger_accuracy).toBe(0.6667);
  });

  it("compares with the parent at the floor the benchmark's verdict was held against", async () => {
    await recordRunHistory(ws, [await iteration("iteration-1", { withSkill: pass })]);
    // All evals passing, then all failing: a drop of 1, within a floor of 1.
    await recordRunHistory(ws, [await iteration("iteration-2", { withSkill: fail, effectFloor: 1 })]);
    const [, row] = (await readHistory()).iterations;
    expect([row?.effect_floor, row?.change, row?.regressed_evals, row?.grading_result]).toEqual([
      1,
      "unchanged",
      0,
      "tie",
    ]);
  });

  it("gives no row to a folder deeper than an iteration's part", async () => {
    const deep = await iteration("iteration-1/old/deeper", { withSkill: pass });
    expect(await recordRunHistory(ws, [deep])).toBeUndefined();
    await expect(readFile(join(ws, "history.json"), "utf8")).rejects.toThrow(/ENOENT/);
  });

  it("writes nothing for a folder without a benchmark", async () => {
    expect(await recordRunHistory(ws, [join(ws, "iteration-1")])).toBeUndefined();
    await expect(readFile(join(ws, "history.json"), "utf8")).rejects.toThrow(/ENOENT/);
  });
});
