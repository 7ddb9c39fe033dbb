import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { skillgym } from "../cli/cli-process.js";
import { readJson, tempDir, writeTree } from "../e2e/helpers.js";
import { HAIKU_SUITE } from "../triggers/replay/haiku-suite.js";

// `--screen replay` under `--sandbox`: the capture run is Claude Code inside bubblewrap, whose one network target is
// then the recording proxy (it passes the requests on from outside); the replays go from skillgym itself.
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, HAIKU_SUITE);
});
afterAll(() => cleanup?.());

it("captures the first request inside the sandbox, and replay decides what it can", async () => {
  const ws = join(dir, "ws");
  const args = ["triggers", join(dir, "haiku"), "--simulate", "--sandbox", "--runs", "1", "--workspace", ws];
  const result = await skillgym([...args, "--screen", "replay"]);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(/replay decided 2 of 3 trigger runs, the agent 1; first request captured/);
  const written = await readJson(join(ws, "iteration-1", "triggers", "trigger-results.json"));
  expect(written.sandbox).toBe(true);
  expect(written.screen).toMatchObject({
    kind: "replay",
    decided_by_replay: 2,
    decided_by_agent: 1,
    captured: true,
  });
  expect((written.results as { pass: boolean }[]).map((r) => r.pass)).toEqual([true, true, true]);
});
