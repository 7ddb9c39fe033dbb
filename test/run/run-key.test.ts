import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import type { StagingContext } from "../../src/run/execute-run.js";
import { loadInputs } from "../../src/run/load-inputs.js";
import { planRuns } from "../../src/run/plan.js";
import { evalRunKey, gradingKey } from "../../src/run/reuse.js";
import { DEFAULT_OUTPUT_LIMITS } from "../../src/workspace/index.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let agent: Agent;
beforeAll(async () => {
  agent = await createClaudeCodeAgent({ simulatorUrl: "http://127.0.0.1:9" });
});
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await mkdir(join(dir, "tmp"));
  await writeTree(dir, {
    "card/SKILL.md": skillMd("card", "Writes card.txt. Use when asked for a card.", "Write card.txt."),
    "card/evals/evals.json": evalsJson("Make a card"),
  });
});
afterEach(() => cleanup());

function evalsJson(prompt: string): string {
  return JSON.stringify({
    evals: [{ id: 1, prompt, expectations: ["card.txt greets the reader"] }],
  });
}

// The specs `skillgym eval` would plan for the suite as it is on disk now, and the context that stages them.
async function planned(outputLimits?: StagingContext["outputLimits"]) {
  const { skill, suite } = await loadInputs({ skillPath: join(dir, "card"), need: "evals" });
  const specs = planRuns({
    evals: suite.evals,
    configurations: ["with_skill", "without_skill"],
    runs: 2,
    iterationDir: join(dir, "card-workspace", "iteration-1"),
    defaultTimeoutSeconds: 300,
  });
  const ctx: StagingContext = {
    agent,
    skill: { dir: skill.dir, name: skill.name },
    excludePaths: [skill.dir, suite.dir],
    tempRoot: join(dir, "tmp"),
    ...(outputLimits ? { outputLimits } : {}),
  };
  const key = (configuration: string, run: number) => {
    const spec = specs.find((s) => s.configuration === configuration && s.runNumber === run);
    if (!spec) throw new Error(`no ${configuration} run ${run} planned`);
    return evalRunKey(spec, ctx);
  };
  return { specs, key };
}

describe("the store key of an eval run", () => {
  it("is the same when nothing changed, and differs per run number and configuration", async () => {
    const { key } = await planned();
    const first = await key("with_skill", 1);
    expect(await (await planned()).key("with_skill", 1)).toBe(first);
    expect(await key("with_skill", 2)).not.toBe(first);
    expect(await key("without_skill", 1)).not.toBe(first);
  });

  it("changes with output limits other than the defaults, and not with the defaults spelled out", async () => {
    const plain = await (await planned()).key("with_skill", 1);
    expect(await (await planned({ ...DEFAULT_OUTPUT_LIMITS })).key("with_skill", 1)).toBe(plain);
    const lower = { ...DEFAULT_OUTPUT_LIMITS, files: DEFAULT_OUTPUT_LIMITS.files - 1 };
    expect(await (await planned(lower)).key("with_skill", 1)).not.toBe(plain);
  });

  it("changes when the eval's prompt is edited, so the old run is not served for it", async () => {
    const before = await (await planned()).key("without_skill", 1);
    await writeFile(join(dir, "card", "evals", "evals.json"), evalsJson("Make a birthday card"));
    expect(await (await planned()).key("without_skill", 1)).not.toBe(before);
  });

  it("changes with the skill a with_skill run installs", async () => {
    const before = await (await planned()).key("with_skill", 1);
    await writeFile(
      join(dir, "card", "SKILL.md"),
      skillMd("card", "Writes card.txt. Use when asked for a card.", "Write card.txt in capitals."),
    );
    expect(await (await planned()).key("with_skill", 1)).not.toBe(before);
  });
});

describe("the grading key", () => {
  it("names the judge and the expectations", async () => {
    const { specs } = await planned();
    const spec = specs[0]!;
    expect(gradingKey(spec, "claude-code")).toBe(gradingKey(spec, "claude-code"));
    expect(gradingKey(spec, "anthropic:claude-sonnet-4-5")).not.toBe(gradingKey(spec, "claude-code"));
    const edited = { ...spec, eval: { ...spec.eval, expectations: ["card.txt names the reader"] } };
    expect(gradingKey(edited, "claude-code")).not.toBe(gradingKey(spec, "claude-code"));
  });
});
