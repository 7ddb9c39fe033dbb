import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import { SkillgymError } from "../../src/errors.js";
import { configurationsFor, evalSetup, stagingContext } from "../../src/run/eval-setup.js";
import { DEFAULT_OUTPUT_LIMITS } from "../../src/workspace/index.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "notes/SKILL.md": skillMd("notes", "Writes notes.", "Write a note."),
    "notes/evals/evals.json": JSON.stringify({
      max_output: "2MB",
      evals: [
        { id: 1, prompt: "a note", expectations: ["a note"] },
        { id: "long", prompt: "a long note", expectations: ["a long note"] },
      ],
    }),
    "notes/evals/setup/base.txt": "base\n",
    "notes-v1/SKILL.md": skillMd("notes-v1", "Writes notes.", "Write an old note."),
    "bad-v1/SKILL.md": "---\nname: Bad Name\n---\n\nBody.\n",
    "empty/SKILL.md": skillMd("empty", "Writes notes.", "Write a note."),
    "empty/evals/evals.json": JSON.stringify({ evals: [] }),
  });
});
afterAll(() => cleanup());

const base = { runs: 1, concurrency: 1, timeoutSeconds: 60, createAgent: async () => ({}) as Agent };
const setupOf = (skill: string, extra: { baseline: string; only?: string[]; workspace?: string }) =>
  evalSetup({ ...base, skillPath: join(dir, skill), ...extra });

async function refusal(promise: Promise<unknown>): Promise<SkillgymError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SkillgymError);
  return error as SkillgymError;
}

describe("the configurations of a baseline", () => {
  it("runs with_skill alone, beside without_skill, or beside an earlier version", () => {
    expect(configurationsFor("none")).toEqual(["with_skill"]);
    expect(configurationsFor("without_skill")).toEqual(["with_skill", "without_skill"]);
    expect(configurationsFor(join(dir, "notes-v1"))).toEqual(["with_skill", "old_skill"]);
  });
});

describe("evalSetup", () => {
  it("settles the evals, configurations and default workspace, with no baseline folder but for a path", async () => {
    for (const baseline of ["without_skill", "none"]) {
      const setup = await setupOf("notes", { baseline });
      expect(setup.baselineDir).toBeUndefined();
      expect("baselineDir" in setup).toBe(false);
      expect(setup.evals.map((e) => e.id)).toEqual([1, "long"]);
      expect(setup.configurations).toEqual(configurationsFor(baseline));
      expect(setup.workspace).toBe(join(dir, "notes-workspace"));
      expect(setup.skill.name).toBe("notes");
    }
    const old = await setupOf("notes", { baseline: join(dir, "notes-v1"), only: ["long"], workspace: "ws" });
    expect(old.baselineDir).toBe(join(dir, "notes-v1"));
    expect(old.configurations).toEqual(["with_skill", "old_skill"]);
    expect(old.evals.map((e) => e.id)).toEqual(["long"]);
    expect(old.workspace).toBe(resolve("ws"));
  });

  it("refuses a baseline folder that is not a valid skill, listing each of its errors on a line", async () => {
    const error = await refusal(setupOf("notes", { baseline: join(dir, "bad-v1") }));
    expect([error.code, error.message, error.hint]).toEqual([
      "INVALID_SKILL",
      `the baseline skill ${join(dir, "bad-v1")} is not valid:\n  error: ${join(dir, "bad-v1", "SKILL.md")}: line 2: \`name\` "Bad Name" may only hold a–z, 0–9 and "-"\n    fix: use lowercase letters, digits and single hyphens, e.g. \`bad-name\`\n  error: ${join(dir, "bad-v1", "SKILL.md")}: the frontmatter has no \`description\`\n    fix: add a \`description:\` that says what the skill does and when to use it`,
      "--baseline takes without_skill, none, or the folder of an earlier version of the skill",
    ]);
  });

  it("refuses --only ids that name no eval, listing the ids there are", async () => {
    const error = await refusal(setupOf("notes", { baseline: "none", only: ["long", "9", "short"] }));
    expect([error.code, error.message, error.hint]).toEqual([
      "USAGE",
      "--only names evals that do not exist: 9, short",
      `the ids in ${join(dir, "notes", "evals", "evals.json")} are: 1, long`,
    ]);
  });

  it("refuses a suite with no evals to run", async () => {
    const error = await refusal(setupOf("empty", { baseline: "none" }));
    expect([error.code, error.message]).toEqual([
      "NO_EVALS",
      `${join(dir, "empty", "evals", "evals.json")} has no evals to run`,
    ]);
  });
});

describe("stagingContext", () => {
  it("tells each run what its workspace holds and what a project copy leaves out", async () => {
    const setup = await setupOf("notes", { baseline: join(dir, "notes-v1"), workspace: join(dir, "ws") });
    const agent = { name: "stand-in" } as Agent;
    expect(
      stagingContext(
        setup,
        { projectRoot: "test", model: "m-1", outputLimits: { files: 3 } },
        agent,
        "/tmp/root",
      ),
    ).toEqual({
      agent,
      skill: { dir: join(dir, "notes"), name: "notes" },
      baselineSkillDir: join(dir, "notes-v1"),
      projectRoot: resolve("test"),
      baseOverlay: join(dir, "notes", "evals", "setup"),
      excludePaths: [join(dir, "notes"), join(dir, "notes", "evals"), join(dir, "ws"), join(dir, "notes-v1")],
      model: "m-1",
      // The options' limits win over the suite's, which win over the defaults.
      outputLimits: { ...DEFAULT_OUTPUT_LIMITS, totalBytes: 2 * 1024 * 1024, files: 3 },
      tempRoot: "/tmp/root",
    });
    const bare = await setupOf("notes", { baseline: "none", workspace: join(dir, "ws") });
    expect(stagingContext(bare, {}, agent, "/tmp/root")).toEqual({
      agent,
      skill: { dir: join(dir, "notes"), name: "notes" },
      baseOverlay: join(dir, "notes", "evals", "setup"),
      excludePaths: [join(dir, "notes"), join(dir, "notes", "evals"), join(dir, "ws")],
      outputLimits: { ...DEFAULT_OUTPUT_LIMITS, totalBytes: 2 * 1024 * 1024 },
      tempRoot: "/tmp/root",
    });
  });
});
