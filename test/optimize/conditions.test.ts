import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type OptimizeOptions, prepareOptimize } from "../../src/optimize/plan.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// The trigger conditions an optimization is prepared with, checked before any agent starts.
describe("preparing an optimization with --installed", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    await writeTree(dir, {
      "scribe/SKILL.md": skillMd("scribe", "Writes notes.", "Body."),
      "scribe/evals/triggers.json": JSON.stringify([
        { query: "a", should_trigger: true },
        { query: "b", should_trigger: true },
        { query: "c", should_trigger: false },
        { query: "d", should_trigger: false },
      ]),
      "shelf/one/SKILL.md": skillMd("helper", "Helps.", "Body."),
      "shelf/two/SKILL.md": skillMd("helper", "Helps too.", "Body."),
    });
  });
  afterEach(() => cleanup());

  const options = (installed: string[]): OptimizeOptions => ({
    skillPath: join(dir, "scribe"),
    maxIterations: 1,
    holdout: 0.5,
    runs: 1,
    threshold: 0.5,
    seed: 1,
    concurrency: 1,
    timeoutSeconds: 60,
    installed,
    createAgent: () => Promise.reject(new Error("unused")),
    createImprover: () => Promise.reject(new Error("unused")),
  });

  it("refuses two installed skills of one name before any run", async () => {
    await expect(prepareOptimize(options([join(dir, "shelf")]))).rejects.toThrow(
      `--installed: ${join(dir, "shelf", "two")} has the name helper, as ${join(dir, "shelf", "one")} has`,
    );
  });
});
