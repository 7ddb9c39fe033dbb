import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillgym } from "../cli/cli-process.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
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
afterAll(() => cleanup());

// Several real agents in one run: the summary says per agent what settling saved. One agent's progress lines and summary
// do not depend on which agent runs: settled-progress.e2e.test.ts, on the agent test double.
describe("trigger progress when settled verdicts stop queries early (the real CLI, Claude Code and Codex, the sim)", () => {
  it("says in run's summary what settling saved, per agent of several", () => {
    const several = skillgym([
      "run",
      join(dir, "haiku"),
      "--agent",
      "claude-code,codex",
      "--simulate",
      "--workspace",
      join(dir, "ws-agents"),
      "--trigger-runs",
      "3",
      "--concurrency",
      "1",
    ]);
    expect(several.code, several.stderr).toBe(0);
    for (const agent of ["claude-code", "codex"])
      expect(several.stdout).toContain(`\n${agent}: settled verdicts saved 2 of 6 trigger runs\n`);
  }, 240_000);
});
