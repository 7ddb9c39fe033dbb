import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillgym } from "../cli/cli-process.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { conditionsTree, priorConversation } from "./conditions-fixture.js";

// The prior-conversation difference through a second agent: the real Gemini CLI loads the turns from a
// session file skillgym writes into the run's home (`--session-file`), and sends them as history before the query.
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    ...conditionsTree(),
    "release-notes/evals/triggers.json": JSON.stringify([
      { query: "Draft the notes for v1.3", should_trigger: true },
      { query: "Explain what a monad is", should_trigger: false },
    ]),
    "release-notes/evals/sim-script.json": JSON.stringify({
      rules: [
        { match: "draft the notes", history: "notes are already written", skill: "none" },
        { match: "draft the notes", skill: "~release-notes-sg-" },
        { skill: "none", without_skill: [{ text: "Sure." }] },
      ],
    }),
    "context.json": JSON.stringify(priorConversation),
  });
});
afterAll(() => cleanup?.());

describe("--context side by side through the real gemini (the sim behind it)", () => {
  it("the query fires in a fresh conversation and stops after the prior one; the prompt holds no history", async () => {
    const result = skillgym([
      "triggers",
      join(dir, "release-notes"),
      "--agent",
      "gemini",
      "--simulate",
      "--runs",
      "1",
      "--workspace",
      join(dir, "ws"),
      "--json",
      "--conditions",
      "clean,real",
      "--context",
      join(dir, "context.json"),
    ]);
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout);
    const sides = (out.results as { side_by_side: { flag?: string; difference: number } }[]).map(
      (r) => r.side_by_side,
    );
    expect(sides.map((s) => s.flag)).toEqual(["clean-only", undefined]);
    expect(sides.map((s) => s.difference)).toEqual([-1, 0]);
    expect(out.conditions).toMatchObject({ context: join(dir, "context.json"), context_turns: 2 });
    // Gemini CLI loaded the written session: the history reached its requests, not its prompt.
    const transcript = await readFile(
      join(dir, "ws", "iteration-1", "triggers", "query-1", "run-1", "transcript.jsonl"),
      "utf8",
    );
    expect(transcript).toContain("Draft the notes for v1.3");
    expect(transcript).not.toContain("already written");
  }, 300_000);
});
