import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveViewTarget } from "../../src/report/target.js";
import { maxFinalReportChars, readTunesView } from "../../src/report/tune-runs.js";
import { createViewReader } from "../../src/report/view-reader.js";
import { tuneHistory, tuneState, writeTuneFolder } from "./tune-fixture.js";
import { tempDir, writeFakeIteration, writeFiles } from "./workspace-fixture.js";

// Tune folders with a file missing, broken, or written the old way: what the Tune tab still shows of each, the
// final report cut at its limit, and which folders count as tunes.
let ws: Awaited<ReturnType<typeof tempDir>>;
const workspace = () => join(ws.dir, "tunes-ws");
const json = (value: unknown) => JSON.stringify(value);

async function tunesOf(folder: string) {
  return readTunesView(createViewReader(await resolveViewTarget(folder)));
}

beforeAll(async () => {
  ws = await tempDir("skillgym-tune-files-");
  await writeFakeIteration(join(workspace(), "iteration-1"), { evals: 1, runsPerConfiguration: 1 });
  // Made last first, so that the listing's order is its own. c: nothing but history.json; no final report.
  await writeFiles(workspace(), { "tune-c/history.json": json(tuneHistory) });
  // b: no iteration-state.json, a broken history.json, a report one character over the limit.
  const b = await writeTuneFolder(workspace(), "tune-b");
  await rm(join(b, "iteration-state.json"));
  await writeFile(join(b, "history.json"), json({ ...tuneHistory, current_best: 3 }));
  await writeFile(join(b, "final-report.md"), `${"y".repeat(maxFinalReportChars)}z`);
  // a: the skills under their old name, a round that was never evaluated, no history.json, a report at the limit.
  const a = await writeTuneFolder(workspace(), "tune-a");
  const { target_skills, ...old } = tuneState;
  await writeFile(
    join(a, "iteration-state.json"),
    json({
      ...old,
      skill_names: target_skills,
      iterations: [
        ...tuneState.iterations.slice(0, 2),
        { round: 3, version: "v2", parent: "v1", status: "failed" },
      ],
    }),
  );
  await rm(join(a, "history.json"));
  await writeFile(join(a, "final-report.md"), "x".repeat(maxFinalReportChars));
  // Not tunes: a file, a bare "tune-", another prefix.
  await writeFiles(workspace(), {
    "tune-file": "a file",
    "tune-/history.json": json(tuneHistory),
    "old-tune-x/history.json": json(tuneHistory),
  });
  await writeFiles(ws.dir, { "lone/eval-e1/x.txt": "" });
});

afterAll(async () => {
  await ws?.cleanup();
});

describe("readTunesView with files missing or old", () => {
  it("lists only tune-<name> folders, in name order", async () => {
    const view = await tunesOf(workspace());
    expect(view.workspace).toBe(true);
    expect(view.tunes.map((t) => t.name)).toEqual(["tune-a", "tune-b", "tune-c"]);
  });

  it("reads the skills' old field name, a round without an evaluation, and a report at the limit whole", async () => {
    const [a] = (await tunesOf(workspace())).tunes;
    expect(a?.iterations[2]).toEqual({
      round: 3,
      version: "v2",
      status: "failed",
      score: null,
      expectation_pass_rate: null,
      dimensions: null,
      grading_result: null,
    });
    expect(a).toEqual({
      name: "tune-a",
      target_skills: ["release-notes"],
      status: "completed",
      termination_reason: "quality_threshold_met",
      current_best: "v1",
      best_score: 78.25,
      quality_threshold: 70,
      iterations: [
        expect.objectContaining({ version: "v0" }),
        expect.objectContaining({ version: "v1" }),
        a?.iterations[2],
      ],
      final_report: "x".repeat(maxFinalReportChars),
      problems: [],
    });
  });

  it("names a missing state and a broken history, and cuts a report past the limit", async () => {
    const [, b] = (await tunesOf(workspace())).tunes;
    expect(b).toMatchObject({
      name: "tune-b",
      target_skills: [],
      status: null,
      termination_reason: null,
      current_best: null,
      best_score: null,
      quality_threshold: null,
      iterations: [],
      final_report: `${"y".repeat(maxFinalReportChars)}\n… (cut)`,
    });
    expect(b?.problems).toHaveLength(2);
    expect(b?.problems[0]).toBe("tune-b/iteration-state.json: missing");
    expect(b?.problems[1]).toMatch(/^tune-b\/history\.json: .*current_best/);
  });

  it("takes the best version from history.json when the state is missing", async () => {
    const [, , c] = (await tunesOf(workspace())).tunes;
    expect(c).toEqual({
      name: "tune-c",
      target_skills: [],
      status: null,
      termination_reason: null,
      current_best: "v1",
      best_score: null,
      quality_threshold: null,
      iterations: [],
      final_report: null,
      problems: ["tune-c/iteration-state.json: missing"],
    });
  });

  it("does not look for tunes from a lone iteration folder or a catalog folder", async () => {
    expect(await tunesOf(join(ws.dir, "lone"))).toEqual({ workspace: false, tunes: [] });
    await writeFiles(ws.dir, { "cats/catalog-1/catalog.json": "{}" });
    expect(await tunesOf(join(ws.dir, "cats", "catalog-1"))).toEqual({ workspace: false, tunes: [] });
    expect(await tunesOf(join(ws.dir, "cats"))).toEqual({ workspace: true, tunes: [] });
  });
});
