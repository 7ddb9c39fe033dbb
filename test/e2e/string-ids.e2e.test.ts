import { readdir, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Benchmark } from "../../src/contracts/benchmark.js";
import { EvalMetadata } from "../../src/contracts/evals.js";
import { readIterationData } from "../../src/report/iteration-data.js";
import { resolveViewTarget } from "../../src/report/target.js";
import { createViewReader } from "../../src/report/view-reader.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { readJson, skillMd, tempDir, writeTree } from "./helpers.js";

const root = resolve(import.meta.dirname, "../..");
const _bin = join(root, "bin", "skillgym.js");

// The built CLI in this process (test/cli/cli-in-process.ts).
const skillgym = (args: string[]) => skillgymHereOnDouble(args);

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  // A clone whose folder is named differently from the skill: a warning, and the runs go ahead.
  await writeTree(dir, {
    "team-repo/SKILL.md": skillMd(
      "team",
      "Writes hello.txt and lists team actions in actions.md. Use when the user asks for hello.txt or team actions.",
      "Write the file asked for.",
    ),
    "team-repo/evals/evals.json": JSON.stringify({
      evals: [
        {
          id: 1,
          prompt: "Write hello.txt for the team",
          checks: [{ type: "file_exists", path: "hello.txt" }],
        },
        {
          id: "team-actions",
          prompt: "List the team actions in actions.md",
          checks: [{ type: "file_exists", path: "actions.md" }],
        },
      ],
    }),
    "team-repo/evals/sim-script.json": JSON.stringify({
      rules: [
        {
          match: "hello\\.txt",
          steps: [{ write: { path: "hello.txt", content: "hello\n" } }],
          without_skill: [{ text: "Hello." }],
        },
        {
          match: "actions\\.md",
          steps: [{ write: { path: "actions.md", content: "- ship\n" } }],
          without_skill: [{ text: "Ship it." }],
        },
      ],
    }),
  });
});
afterEach(() => cleanup());

// What skill-creator's aggregate_benchmark.py relies on: every `eval-*` folder has eval_metadata.json whose
// integer eval_id sorts (Python cannot compare str with int), one distinct id a folder.
async function creatorView(iteration: string) {
  const folders = (await readdir(iteration)).filter((name) => name.startsWith("eval-")).sort();
  const entries = [];
  for (const folder of folders) {
    const metadata = EvalMetadata.parse(await readJson(join(iteration, folder, "eval_metadata.json")));
    expect(Number.isInteger(metadata.eval_id)).toBe(true);
    entries.push({ folder, eval_id: Number(metadata.eval_id), eval_name: metadata.eval_name });
  }
  expect(new Set(entries.map((e) => e.eval_id)).size).toBe(entries.length);
  return entries.sort((a, b) => a.eval_id - b.eval_id);
}

describe('a suite with ids [1, "team-actions"] (real CLI, the Claude Code test double against skillgym sim)', () => {
  it("writes integer eval_ids skill-creator can sort, and our bench, viewer, resume and --only agree", async () => {
    const ws = join(dir, "ws");
    const skill = join(dir, "team-repo");
    const first = await skillgym(["eval", skill, "--simulate", "--runs", "1", "--workspace", ws, "--json"]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ runs: 4, succeeded: 4, skipped_as_finished: 0 });
    const iteration = join(ws, "iteration-1");

    expect(await creatorView(iteration)).toEqual([
      { folder: "eval-1", eval_id: 1, eval_name: "eval-1" },
      { folder: "eval-team-actions", eval_id: 2, eval_name: "team-actions" },
    ]);

    expect((await skillgym(["bench", iteration])).code).toBe(0);
    const benchmark = Benchmark.parse(await readJson(join(iteration, "benchmark.json")));
    expect(benchmark.metadata.evals_run).toEqual([1, 2]);
    expect(benchmark.runs.map((r) => [r.eval_id, r.eval_name, r.configuration, r.result.pass_rate])).toEqual([
      [1, "eval-1", "with_skill", 1],
      [1, "eval-1", "without_skill", 0],
      [2, "team-actions", "with_skill", 1],
      [2, "team-actions", "without_skill", 0],
    ]);
    expect(benchmark.statistics?.per_eval?.map((e) => e.eval_id)).toEqual([1, 2]);

    // The viewer takes a run's result from benchmark.json, found by eval_id even when the folder is named by a string.
    await rm(join(iteration, "eval-team-actions", "with_skill", "run-1", "grading.json"));
    const target = await resolveViewTarget(ws);
    const ref = target.all.find((i) => i.dir === iteration);
    if (!ref) throw new Error(`no iteration-1 in ${JSON.stringify(target.all)}`);
    const view = await readIterationData(createViewReader(target), ref);
    const teamRun = view.runs.find(
      (r) => r.eval_dir === "eval-team-actions" && r.configuration === "with_skill",
    );
    expect(teamRun).toMatchObject({ eval_id: 2, eval_name: "team-actions", pass_rate: 1 });
    expect(view.benchmark?.evals?.map((e: { eval_name: string }) => e.eval_name)).toEqual([
      "eval-1",
      "team-actions",
    ]);

    const resumed = await skillgym([
      "eval",
      skill,
      "--simulate",
      "--runs",
      "1",
      "--workspace",
      ws,
      "--resume",
      "--json",
    ]);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ iteration: 1, resumed: true, skipped_as_finished: 4 });
    expect(await creatorView(iteration)).toHaveLength(2);

    // `--only` takes our id, or the eval_id skill-creator's files show for it.
    const only = await skillgym([
      "eval",
      skill,
      "--simulate",
      "--baseline",
      "none",
      "--workspace",
      ws,
      "--only",
      "2",
      "--json",
    ]);
    expect(only.code).toBe(0);
    expect(JSON.parse(only.stdout)).toMatchObject({ iteration: 2, runs: 1, succeeded: 1 });
    expect(await creatorView(join(ws, "iteration-2"))).toEqual([
      { folder: "eval-team-actions", eval_id: 2, eval_name: "team-actions" },
    ]);
  });

  it("refuses ids that collide once mapped, naming the file and JSON path, before any run", async () => {
    await writeTree(dir, {
      "team-repo/evals/evals.json": JSON.stringify({
        evals: [
          {
            id: "team-actions",
            prompt: "List the team actions in actions.md",
            expectations: ["lists actions"],
          },
          { id: 1, prompt: "Write hello.txt for the team", expectations: ["writes hello"] },
        ],
      }),
    });
    const validate = await skillgym(["validate", join(dir, "team-repo"), "--json"]);
    expect(validate.code).toBe(2);
    const report = JSON.parse(validate.stdout);
    expect(report.errors).toEqual([
      expect.objectContaining({
        file: join(dir, "team-repo", "evals", "evals.json"),
        location: "evals[1].id",
        message: expect.stringContaining("eval_id 1"),
        hint: expect.any(String),
      }),
    ]);
    const run = await skillgym([
      "eval",
      join(dir, "team-repo"),
      "--simulate",
      "--workspace",
      join(dir, "ws"),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("evals[1].id");
    expect(await readdir(dir)).not.toContain("ws");
  });
});
