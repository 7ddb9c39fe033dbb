import { afterEach, describe, expect, it } from "vitest";
import type { Judge } from "../../src/judge/judge.js";
import { checkJudges } from "../../src/judges/check-judges.js";
import { parseJudgeSpecs } from "../../src/judges/judge-spec.js";
import { makeIteration, type TempIteration } from "../bench/iteration-fixture.js";

let iteration: TempIteration | undefined;
afterEach(async () => {
  await iteration?.cleanup();
});

// Both refusals come before any judge is asked, so the judge here is never called.
const unasked = { spec: parseJudgeSpecs("sim:strict").specs[0]!, judge: {} as Judge };

describe("checking judges refuses", () => {
  it("when no judge is named", async () => {
    iteration = await makeIteration({ evals: [{ id: 1 }], runs: [] });
    await expect(
      checkJudges({ iterationDir: iteration.dir, judges: [], repeat: 1, concurrency: 1 }),
    ).rejects.toMatchObject({
      code: "USAGE",
      message: "no judge to check",
      hint: "name judges with --judge a,b",
    });
  });

  it("an iteration with no finished run that has expectations", async () => {
    iteration = await makeIteration({
      evals: [{ id: 1, assertions: [] }],
      runs: [{ eval: 1, configuration: "with_skill", run: 1, grading: null }],
    });
    await expect(
      checkJudges({ iterationDir: iteration.dir, judges: [unasked], repeat: 1, concurrency: 1 }),
    ).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: `${iteration.dir} has no finished run with expectations for a judge`,
      hint: "pass an iteration whose evals have expectations, after `skillgym eval` or `run`",
    });
  });
});
