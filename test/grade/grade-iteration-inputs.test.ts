import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { gradeIteration } from "../../src/grade/grade-iteration.js";
import {
  cardRecord,
  cardRunDir,
  cardSkillMd,
  tempRoot,
  writeCardSkill,
  writeFiles,
  writeIterationRecord,
  writeRun,
} from "./card-iteration.js";

let root: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ root, cleanup } = await tempRoot());
});
afterAll(() => cleanup());

async function evidenceOf(runDir: string): Promise<string[]> {
  const grading = JSON.parse(await readFile(join(runDir, "grading.json"), "utf8"));
  return grading.expectations.map((x: { evidence: string }) => x.evidence);
}

describe("gradeIteration finds what the iteration ran with", () => {
  it("the suite under the project root it recorded, where the skill's own folders would not lead", async () => {
    const project = join(root, "project");
    await writeFiles(project, {
      "libs/shared/card/SKILL.md": cardSkillMd,
      "evals/card/evals.json": JSON.stringify({
        evals: [{ id: 1, prompt: "p", checks: [{ type: "file_exists", path: "card.txt" }] }],
      }),
    });
    const dir = join(root, "recorded-root", "iteration-1");
    await writeIterationRecord(
      dir,
      cardRecord(join(project, "libs", "shared", "card"), {
        evals: [1],
        configurations: ["with_skill"],
        record: { project_root: project },
      }),
    );
    await writeRun(cardRunDir(dir, 1, "with_skill"), { outputs: { "card.txt": "Hi\n" } });
    expect(await gradeIteration({ iterationDir: dir })).toEqual({
      graded: 1,
      skipped: 0,
      errors: [],
      judgeCostUsd: 0,
    });
    expect(await evidenceOf(cardRunDir(dir, 1, "with_skill"))).toEqual([
      "card.txt exists (a file of 3 bytes, created by the run)",
    ]);
  });
});

describe("gradeIteration's rebuilt workspaces", () => {
  it("are named after the eval, configuration and run, one at a time, each gone before the next", async () => {
    const skill = await writeCardSkill(join(root, "named"), [
      {
        id: 1,
        prompt: "p",
        // Prints the workspace's name and every workspace beside it, and fails so the output is quoted.
        checks: [{ type: "command", run: 'basename "$PWD"; ls ..; exit 1' }],
      },
    ]);
    const dir = join(root, "named", "card-workspace", "iteration-1");
    await writeIterationRecord(
      dir,
      cardRecord(skill, { evals: [1], configurations: ["with_skill"], runs: 2 }),
    );
    for (const k of [1, 2]) await writeRun(cardRunDir(dir, 1, "with_skill", k), {});
    expect(await gradeIteration({ iterationDir: dir, concurrency: 1 })).toMatchObject({ graded: 2 });
    for (const k of [1, 2]) {
      const name = `eval-1-with_skill-run${k}`;
      expect(await evidenceOf(cardRunDir(dir, 1, "with_skill", k))).toEqual([
        `Exit code 1 (expected 0)\nstdout:\n${name}\n${name}`,
      ]);
    }
  });
});

describe("gradeIteration of a sandboxed iteration", () => {
  it("needs a bubblewrap when any one check of any one eval runs a command in the sandbox", async () => {
    const skill = await writeCardSkill(join(root, "mixed"), [
      {
        id: 1,
        prompt: "p",
        checks: [
          { type: "file_exists", path: "card.txt" },
          { type: "command", run: "true" },
        ],
      },
      { id: 2, prompt: "p", checks: [{ type: "file_exists", path: "card.txt" }] },
    ]);
    const dir = join(root, "mixed", "card-workspace", "iteration-1");
    await writeIterationRecord(
      dir,
      cardRecord(skill, { evals: [1, 2], configurations: ["with_skill"], record: { sandbox: true } }),
    );
    for (const id of [1, 2]) await writeRun(cardRunDir(dir, id, "with_skill"), {});
    const saved = process.env.PATH;
    process.env.PATH = join(root, "empty-bin");
    let error: unknown;
    try {
      error = await gradeIteration({ iterationDir: dir }).catch((e: unknown) => e);
    } finally {
      process.env.PATH = saved;
    }
    expect(error).toBeInstanceOf(SkillgymError);
    expect((error as SkillgymError).code).toBe("AGENT_UNAVAILABLE");
  });
});

describe("gradeIteration of a run whose workspace cannot be rebuilt", () => {
  it("reports that run and goes on", async () => {
    const skill = await writeCardSkill(join(root, "gone-project"), [
      { id: 1, prompt: "p", checks: [{ type: "file_exists", path: "card.txt" }] },
    ]);
    const dir = join(root, "gone-project", "card-workspace", "iteration-1");
    await writeIterationRecord(
      dir,
      cardRecord(skill, {
        evals: [1],
        configurations: ["with_skill"],
        record: { project_root: join(root, "moved-away") },
      }),
    );
    await writeRun(cardRunDir(dir, 1, "with_skill"), {});
    const result = await gradeIteration({ iterationDir: dir });
    expect(result).toMatchObject({ graded: 0, skipped: 0 });
    expect(result.errors).toEqual([{ runDir: cardRunDir(dir, 1, "with_skill"), error: expect.any(String) }]);
  });
});

describe("gradeIteration's command checks", () => {
  it("see the variables the suite passes on, and no other of skillgym's", async () => {
    const skill = await writeCardSkill(
      join(root, "env"),
      [{ id: 1, prompt: "p", checks: [{ type: "command", run: "printenv SKILLGYM_GI_PASSED; exit 1" }] }],
      { env: ["SKILLGYM_GI_PASSED"] },
    );
    const dir = join(root, "env", "card-workspace", "iteration-1");
    await writeIterationRecord(dir, cardRecord(skill, { evals: [1], configurations: ["with_skill"] }));
    await writeRun(cardRunDir(dir, 1, "with_skill"), {});
    process.env.SKILLGYM_GI_PASSED = "passed on";
    try {
      await gradeIteration({ iterationDir: dir });
    } finally {
      delete process.env.SKILLGYM_GI_PASSED;
    }
    expect(await evidenceOf(cardRunDir(dir, 1, "with_skill"))).toEqual([
      "Exit code 1 (expected 0)\nstdout:\npassed on",
    ]);
  });
});

describe("gradeIteration rebuilds the workspace the run had", () => {
  it("with the suite's setup/ folder laid under it, as the run had it", async () => {
    const skillDir = await writeCardSkill(join(root, "overlaid"), [
      {
        id: 1,
        prompt: "p",
        checks: [
          { type: "file_exists", path: "fixture.txt" },
          { type: "file_contains", path: "fixture.txt", pattern: "^from setup$", flags: "m" },
        ],
      },
    ]);
    await writeFiles(skillDir, { "evals/setup/fixture.txt": "from setup\n" });
    const dir = join(root, "overlaid", "iteration-1");
    await writeIterationRecord(dir, cardRecord(skillDir, { evals: [1], configurations: ["with_skill"] }));
    await writeRun(cardRunDir(dir, 1, "with_skill"), { outputs: { "card.txt": "Hi\n" } });
    expect(await gradeIteration({ iterationDir: dir })).toMatchObject({ graded: 1, errors: [] });
    expect(await evidenceOf(cardRunDir(dir, 1, "with_skill"))).toEqual([
      "fixture.txt exists (a file of 11 bytes)",
      'Found on line 1 of fixture.txt: "from setup"',
    ]);
  });
});
