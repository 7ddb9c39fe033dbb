import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveViewTarget } from "../../src/report/target.js";
import { readTunesView } from "../../src/report/tune-runs.js";
import { createViewReader } from "../../src/report/view-reader.js";
import { finalReport, writeTuneFolder } from "./tune-fixture.js";
import { tempDir, writeFakeIteration } from "./workspace-fixture.js";

let ws: Awaited<ReturnType<typeof tempDir>>;
const workspace = () => join(ws.dir, "with-tunes");
const plain = () => join(ws.dir, "no-tunes");

async function tunesOf(folder: string) {
  return readTunesView(createViewReader(await resolveViewTarget(folder)));
}

beforeAll(async () => {
  ws = await tempDir();
  await writeFakeIteration(join(workspace(), "iteration-1"), { evals: 1, runsPerConfiguration: 1 });
  await writeFakeIteration(join(plain(), "iteration-1"), { evals: 1, runsPerConfiguration: 1 });
  await writeTuneFolder(workspace(), "tune-20260102-030405");
  const broken = await writeTuneFolder(workspace(), "tune-20260103-000000");
  await writeFile(join(broken, "iteration-state.json"), '{"status": "completed"}');
});

afterAll(async () => {
  await ws.cleanup();
});

describe("readTunesView", () => {
  it("lists each tune folder with its status, best version and every round's scores", async () => {
    const view = await tunesOf(workspace());
    expect(view.workspace).toBe(true);
    expect(view.tunes.map((t) => t.name)).toEqual(["tune-20260102-030405", "tune-20260103-000000"]);
    const tune = view.tunes[0]!;
    expect(tune).toMatchObject({
      target_skills: ["release-notes"],
      status: "completed",
      termination_reason: "quality_threshold_met",
      current_best: "v1",
      best_score: 78.25,
      problems: [],
      final_report: finalReport,
    });
    expect(tune.iterations.map((it) => [it.round, it.version, it.score, it.grading_result])).toEqual([
      [1, "v0", 52.5, "baseline"],
      [2, "v1", 78.25, "won"],
      [3, "v2", 64.5, "lost"],
    ]);
    expect(tune.iterations[1]?.expectation_pass_rate).toBe(0.75);
    expect(tune.iterations[1]?.dimensions).toEqual({
      clarity: 76.25,
      completeness: 79.25,
      correctness: 81.25,
      effectiveness: 74.25,
      efficiency: 80.25,
    });
  });

  it("names a broken iteration-state.json and the place, keeping the other files", async () => {
    const broken = (await tunesOf(workspace())).tunes[1]!;
    expect(broken.iterations).toEqual([]);
    expect(broken.problems).toHaveLength(1);
    expect(broken.problems[0]).toMatch(/^tune-20260103-000000\/iteration-state\.json: .*execution_mode/);
    expect(broken.current_best).toBe("v1");
    expect(broken.final_report).toBe(finalReport);
  });

  it("finds none in a workspace without tune folders, and does not look from an iteration folder", async () => {
    expect(await tunesOf(plain())).toEqual({ workspace: true, tunes: [] });
    expect(await tunesOf(join(workspace(), "iteration-1"))).toEqual({ workspace: false, tunes: [] });
  });
});
