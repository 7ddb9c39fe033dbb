import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { History, RunHistory } from "../../src/contracts/index.js";
import {
  cardEval,
  greeterRunArgs,
  noteEval,
  writeGreeter,
  writeGreeterSuite,
} from "../bench/greeter-models.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { tempDir } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeGreeter(dir);
  await writeGreeterSuite(dir, [cardEval, noteEval]);
});
afterEach(() => cleanup());

async function run(models: string) {
  const result = await skillgymHereOnDouble(greeterRunArgs(dir, models, join(dir, "ws")));
  expect(result.code, result.stderr).toBe(0);
}

async function history(): Promise<RunHistory> {
  const text = JSON.parse(await readFile(join(dir, "ws", "history.json"), "utf8"));
  expect(History.safeParse(text).success).toBe(true);
  return RunHistory.parse(text);
}

describe("history.json through the CLI and the agent test double", () => {
  it("run --model old then --model new: two rows, the second with the thank-you note regressed", async () => {
    await run("old");
    await run("new");
    const rows = (await history()).iterations;
    expect(
      rows.map((r) => [
        r.version,
        r.parent,
        r.agent,
        r.model,
        r.grading_result,
        r.verdict,
        r.regressed_evals,
      ]),
    ).toEqual([
      ["iteration-1", null, "claude-code", "old", "baseline", "helps", undefined],
      ["iteration-2", "iteration-1", "claude-code", "new", "tie", "no effect", 1],
    ]);
    expect(rows[1]).toMatchObject({
      with_skill_pass_rate: 0.5,
      baseline_pass_rate: 0.5,
      delta: { estimate: 0 },
      change: "inconclusive",
      effect_floor: 0.05,
    });
    expect(rows[1]?.skill_hash).toBe(rows[0]?.skill_hash);
  });

  it("run --model old,new twice: each model's part follows its namesake", async () => {
    // The card alone: which row follows which does not depend on the number of evals.
    await writeGreeterSuite(dir, [cardEval]);
    await run("old,new");
    await run("old,new");
    const rows = (await history()).iterations;
    expect(rows.map((r) => [r.version, r.parent, r.model, r.grading_result, r.change])).toEqual([
      ["iteration-1/old", null, "old", "baseline", undefined],
      ["iteration-1/new", null, "new", "baseline", undefined],
      ["iteration-2/old", "iteration-1/old", "old", "tie", "unchanged"],
      ["iteration-2/new", "iteration-1/new", "new", "tie", "unchanged"],
    ]);
  });
});
