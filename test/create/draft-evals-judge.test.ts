import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { draftEvals } from "../../src/create/draft-evals.js";
import { SkillgymError } from "../../src/errors.js";
import { scriptedJudge } from "../judge/scripted-judge.js";

let root: string;
let skillDir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillgym-draft-judge-"));
  skillDir = join(root, "csv-tables");
  await mkdir(skillDir);
  await writeFile(
    join(skillDir, "SKILL.md"),
    "---\nname: csv-tables\ndescription: Converts CSV files into Markdown tables. Use when the user asks to tabulate CSV data.\n---\n\n# CSV tables\n\nRead the CSV, write a Markdown table.\n",
  );
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const goodAnswer = JSON.stringify({
  triggers: [
    { query: "make a table of sales.csv", should_trigger: true },
    { query: "what is a CSV file", should_trigger: false },
  ],
  evals: [{ id: "draft-1", prompt: "tabulate sales.csv", expectations: ["a table"] }],
});

const refusal = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("draftEvals", () => {
  it("adds up what both attempts cost when the first answer is refused", async () => {
    const judge = scriptedJudge([
      { text: "not JSON", costUsd: 0.25 },
      { text: goodAnswer, costUsd: 0.5 },
    ]);
    const drafted = await draftEvals({ skill: skillDir, judge, triggers: 2, evals: 1 });
    expect(drafted).toMatchObject({ attempts: 2, costUsd: 0.75, evalIds: ["draft-1"] });
    expect(judge.requests[1]?.prompt).toContain("Your previous answer was refused");
  });

  it("reports the last reason and a hint when both answers are refused, writing nothing", async () => {
    const judge = scriptedJudge([
      { text: "not JSON", costUsd: 0 },
      { text: "still not JSON", costUsd: 0 },
    ]);
    const error = await refusal(draftEvals({ skill: skillDir, judge }));
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error).toMatchObject({
      code: "AGENT_UNAVAILABLE",
      message: "the judge's draft was refused twice (the answer holds no JSON object); nothing was written",
      hint: "run draft-evals again, or choose another --judge / --judge-model",
    });
    expect(await readdir(skillDir)).toEqual(["SKILL.md"]);
  });

  it("passes the caller's signal to the judge, so an abort stops the draft", async () => {
    const judge = scriptedJudge([{ text: goodAnswer, costUsd: 0 }]);
    const signal = AbortSignal.abort();
    await expect(draftEvals({ skill: skillDir, judge, triggers: 2, evals: 1, signal })).rejects.toThrow(
      /abort/i,
    );
    expect(await readdir(skillDir)).toEqual(["SKILL.md"]);
  });

  it("refuses an existing evals.json without force, naming it, with a hint", async () => {
    await mkdir(join(skillDir, "evals"));
    await writeFile(join(skillDir, "evals", "evals.json"), "{}\n");
    const error = await refusal(draftEvals({ skill: skillDir, judge: scriptedJudge([]) }));
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error).toMatchObject({
      code: "BAD_INPUT",
      message: `${join(skillDir, "evals", "evals.json")} already exists; draft-evals never overwrites it`,
      hint: "pass --force to replace it, or move it away",
      file: join(skillDir, "evals", "evals.json"),
    });
    expect(await readFile(join(skillDir, "evals", "evals.json"), "utf8")).toBe("{}\n");
  });

  it("refuses a skill with errors before asking the judge, listing every error", async () => {
    await writeFile(join(skillDir, "SKILL.md"), "---\nlicense: MIT\n---\n\n# CSV tables\n");
    const judge = scriptedJudge([{ text: goodAnswer, costUsd: 0 }]);
    const error = await refusal(draftEvals({ skill: skillDir, judge }));
    expect(error).toBeInstanceOf(SkillgymError);
    const skillMdPath = join(skillDir, "SKILL.md");
    expect(error).toMatchObject({
      code: "INVALID_SKILL",
      message: [
        "cannot draft evals for an invalid skill:",
        `error: ${skillMdPath}: the frontmatter has no \`name\``,
        "    fix: add `name: csv-tables` (the folder's name)",
        `error: ${skillMdPath}: the frontmatter has no \`description\``,
        "    fix: add a `description:` that says what the skill does and when to use it",
      ].join("\n"),
      hint: `run skillgym validate ${skillDir}`,
    });
    expect(judge.requests).toEqual([]);
  });
});
