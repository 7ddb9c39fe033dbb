import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillgym } from "../cli/cli-process.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { conditionsTree, listing, priorConversation } from "./conditions-fixture.js";

// The test through the real Claude Code: one should-trigger query stolen by an installed skill, one that
// fires only with the project's files visible, one that stops firing after a prior conversation (resumed with
// Claude Code's own --resume from a session skillgym writes into the run's home).
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    ...conditionsTree(),
    "release-notes/evals/triggers.json": JSON.stringify([
      { query: "Tell me what changed since v1.2", should_trigger: true },
      { query: "Please prepare the release", should_trigger: true },
      { query: "Draft the notes for v1.3", should_trigger: true },
      { query: "Explain what a monad is", should_trigger: false },
    ]),
    "release-notes/evals/sim-script.json": JSON.stringify({
      rules: [
        { match: "what changed", skills: "^changelog$", skill: "changelog" },
        { match: "what changed", skill: "~release-notes-sg-" },
        { match: "prepare the release", files: "^package\\.json$", skill: "~release-notes-sg-" },
        { match: "prepare the release", skill: "none" },
        { match: "draft the notes", history: "notes are already written", skill: "none" },
        { match: "draft the notes", skill: "~release-notes-sg-" },
        { skill: "none", without_skill: [{ text: "Sure." }] },
      ],
    }),
    "context.json": JSON.stringify(priorConversation),
  });
});
afterAll(() => cleanup?.());

describe("trigger conditions side by side through the real claude-code (the sim behind it)", () => {
  it("shows exactly three differences: stolen, needs the project, stops mid-conversation", async () => {
    const before = await listing(join(dir, "project"));
    const result = skillgym([
      "triggers",
      join(dir, "release-notes"),
      "--agent",
      "claude-code",
      "--simulate",
      "--runs",
      "1",
      "--workspace",
      join(dir, "ws"),
      "--json",
      "--conditions",
      "clean,real",
      "--installed",
      join(dir, "library"),
      "--project-root",
      join(dir, "project"),
      "--context",
      join(dir, "context.json"),
    ]);
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout);
    const flags = (out.results as { side_by_side: { flag?: string } }[]).map((r) => r.side_by_side.flag);
    expect(flags).toEqual(["clean-only", "real-only", "clean-only", undefined]);
    expect(out.results[0].stolen_by).toEqual({ changelog: 1 });
    // The real Claude Code resumed the written session: the history is in its requests, not in the prompt.
    const transcript = await readFile(
      join(dir, "ws", "iteration-1", "triggers", "query-3", "run-1", "transcript.jsonl"),
      "utf8",
    );
    expect(transcript).not.toContain("already written");
    expect(await listing(join(dir, "project"))).toEqual(before);
  }, 600_000);
});
