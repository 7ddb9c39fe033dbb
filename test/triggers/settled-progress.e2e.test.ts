import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// What the progress lines and the summary say once settled verdicts stop queries early: the same whichever agent runs,
// so the agent test double plays it. Several real agents in one run: settled-progress.agents.test.ts.
let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd("haiku", "Writes a haiku. Use when the user asks for a haiku.", "Write one."),
    "haiku/evals/triggers.json": JSON.stringify([
      { query: "group 0: a haiku about the sea", should_trigger: true },
      { query: "group 1: fix my failing build", should_trigger: false },
    ]),
    // The first query triggers every time, the second never: two equal outcomes settle each.
    "haiku/evals/sim-script.json": JSON.stringify({
      rules: [{ match: "^group 0:", skill: "~haiku-sg-", trigger_pattern: [true, true, true] }],
    }),
  });
});
afterEach(() => cleanup());

const progressLines = (stderr: string) => stderr.split("\n").filter((l) => /^\[\d+\/\d+\]/.test(l));

describe("trigger progress when settled verdicts stop queries early (the built CLI, the agent double, the sim)", () => {
  it("counts the runs that are left, so the last line reaches its total, and the summary says what settling saved", async () => {
    // One at a time: each query's third run would start only after its first two settled it.
    const result = await skillgymHereOnDouble([
      "triggers",
      join(dir, "haiku"),
      "--simulate",
      "--workspace",
      join(dir, "ws"),
      "--runs",
      "3",
      "--concurrency",
      "1",
      "--fresh",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("triggers: 6 runs");
    const lines = progressLines(result.stderr);
    expect(lines.map((l) => l.slice(0, l.indexOf(":")))).toEqual([
      "[1/6] query 1 run-1",
      "[2/5] query 1 run-2",
      "[3/5] query 2 run-1",
      "[4/4] query 2 run-2",
    ]);
    expect(result.stdout).toContain("2/2 queries passed");
    expect(result.stdout).toContain("settled verdicts saved 2 of 6 trigger runs");
    expect(result.stdout).toContain(
      "the result store was not read (--fresh): every run was made again and stored",
    );
  });

  it("says in run's summary what settling saved", async () => {
    const one = await skillgymHereOnDouble([
      "run",
      join(dir, "haiku"),
      "--simulate",
      "--workspace",
      join(dir, "ws-run"),
      "--trigger-runs",
      "3",
      "--concurrency",
      "1",
    ]);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain("triggers: 2/2 queries passed");
    expect(one.stdout).toContain("\nsettled verdicts saved 2 of 6 trigger runs\n");
  });
});
