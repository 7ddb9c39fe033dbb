import { access, readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Grading } from "../../src/contracts/grading.js";
import { createJudge } from "../../src/judge/index.js";
import { skillgymHere } from "../cli/cli-in-process.js";
import { readJson, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// An ACP agent as the judge (`--judge acp:<command…>`), through the scripted ACP double started with --judge: it tries
// to write a file in its folder (through the client, then by asking permission for an edit) before it answers.
const DOUBLE = join(import.meta.dirname, "..", "acp-double", "agent.mjs");
const JUDGE = `acp:node ${DOUBLE} --judge` as const;

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd(
      "haiku",
      "Writes a haiku poem. Use when the user asks for a haiku.",
      "# haiku\n",
    ),
    "haiku/evals/evals.json": JSON.stringify({
      evals: [{ id: 1, prompt: "hello there", expectations: ["The answer greets the user"] }],
    }),
  });
});
afterAll(() => cleanup?.());

describe("an ACP agent as the judge", () => {
  it("answers read-only: its writes are refused, recorded in its answer, and nothing is written", async () => {
    const judge = await createJudge({ backend: JUDGE });
    expect(judge).toMatchObject({ backend: JUDGE, model: "acp-node-default", readsWorkspace: true });
    const folder = join(dir, "judged-folder");
    await writeTree(folder, { "outputs/answer.txt": "Hello.\n" });
    const response = await judge.complete({
      system: "You grade runs.",
      prompt: 'Grade it.\n\n<expectations>\n["The answer greets the user"]\n</expectations>',
      workspaceDir: folder,
    });
    expect(JSON.parse(response.text)).toMatchObject({
      expectations: [{ text: "The answer greets the user", passed: true }],
    });
    expect(response.refused).toEqual([
      `write ${join(folder, "judged.txt")}: a read-only run may not write`,
      `permission Write ${join(folder, "judged.txt")}: a read-only run may not use a edit tool (Write ${join(folder, "judged.txt")})`,
    ]);
    expect(await exists(join(folder, "judged.txt"))).toBe(false);
  });

  it("grades the runs of `run --judge acp:<command>`, its refusals in grading.json", async () => {
    const ws = join(dir, "ws");
    const result = await skillgymHere([
      "run",
      join(dir, "haiku"),
      "--agent",
      `acp:node ${DOUBLE}`,
      "--judge",
      JUDGE,
      "--runs",
      "1",
      "--workspace",
      ws,
    ]);
    expect(result.code, result.stderr).toBe(0);
    for (const configuration of ["with_skill", "without_skill"]) {
      const run = join(ws, "iteration-1", "eval-1", configuration, "run-1");
      const grading = Grading.parse(await readJson(join(run, "grading.json")));
      expect(grading).toMatchObject({
        judge_backend: JUDGE,
        expectations: [{ text: "The answer greets the user", passed: true, source: "judge" }],
      });
      expect(grading.judge_refused).toHaveLength(2);
      expect(grading.judge_refused?.[0]).toMatch(/^write \S+judged\.txt: a read-only run may not write$/);
      expect(await readdir(run)).not.toContain("judged.txt");
    }
  });

  it("stops before any run on a judge command that cannot be split, or a model it cannot choose", async () => {
    const unclosed = await skillgymHere([
      "run",
      join(dir, "haiku"),
      "--judge",
      "acp:node 'x",
      "--workspace",
      join(dir, "a"),
    ]);
    expect(unclosed.code).toBe(2);
    expect(unclosed.stderr).toContain("unclosed ' quote");
    const model = await skillgymHere([
      "run",
      join(dir, "haiku"),
      "--agent",
      `acp:node ${DOUBLE}`,
      "--judge",
      JUDGE,
      "--judge-model",
      "big-model",
      "--workspace",
      join(dir, "b"),
    ]);
    expect(model.code, model.stderr).toBe(2);
    expect(model.stderr).toContain(
      `--model big-model: node ${DOUBLE} --judge offers no model selection over ACP`,
    );
    expect(await exists(join(dir, "b", "iteration-1"))).toBe(false);
  });
});
