import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recordRunHistory } from "../../src/history/index.js";
import { readWorkspaceView } from "../../src/report/iteration-data.js";
import { resolveViewTarget } from "../../src/report/target.js";
import { createViewReader } from "../../src/report/view-reader.js";
import { tempDir } from "../e2e/helpers.js";
import { pass, writeScoredIteration } from "../history/history-fixture.js";

let ws: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  const made = await tempDir();
  cleanup = made.cleanup;
  ws = join(made.dir, "demo-workspace");
});
afterEach(() => cleanup());

// An iteration of the models old and new, as `run --model old,new` lays it out: a root record and a folder each.
async function twoModels(n: number, newWithSkill: [boolean, boolean]): Promise<string[]> {
  const dirs = [
    await writeScoredIteration(ws, `iteration-${n}/old`, { withSkill: pass, model: "old" }),
    await writeScoredIteration(ws, `iteration-${n}/new`, { withSkill: newWithSkill, model: "new" }),
  ];
  await writeFile(
    join(ws, `iteration-${n}`, "iteration.json"),
    JSON.stringify({
      skill_name: "demo",
      skill_path: "/skills/demo",
      skill_hash: "abc123",
      status: "complete",
      started_at: "2026-01-15T10:30:00Z",
      agents: ["old", "new"],
      lanes: [
        { dir: "old", agent: "claude-code", model: "old" },
        { dir: "new", agent: "claude-code", model: "new" },
      ],
      request: {
        evals: [1, 2],
        runs_per_configuration: 2,
        baseline: "without_skill",
        trigger_queries: 0,
        trigger_runs: 1,
      },
    }),
  );
  return dirs;
}

async function view() {
  return readWorkspaceView(createViewReader(await resolveViewTarget(ws)));
}

describe("over time's history points", { timeout: 60_000 }, () => {
  it("gives each part of a several-model iteration its own history.json row", async () => {
    await recordRunHistory(ws, await twoModels(1, pass));
    await recordRunHistory(ws, await twoModels(2, [true, false]));
    const [, second] = (await view()).iterations;
    expect(second?.history).toBeNull();
    expect(second?.agents?.old?.history).toMatchObject({ version: "iteration-2/old", change: "unchanged" });
    expect(second?.agents?.new?.history).toMatchObject({
      version: "iteration-2/new",
      parent: "iteration-1/new",
      verdict: "inconclusive",
      regressed_evals: 1,
      delta: { estimate: 0.5, ci_low: 0, ci_high: 1 },
      effect_floor: 0.05,
      redundant: false,
    });
  });

  it("has none without history.json, or with one that does not parse", async () => {
    await twoModels(1, pass);
    expect((await view()).iterations[0]?.agents?.new?.history).toBeNull();
    await writeFile(join(ws, "history.json"), JSON.stringify({ iterations: "no" }));
    expect((await view()).iterations[0]?.agents?.new?.history).toBeNull();
  });
});
