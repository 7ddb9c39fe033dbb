import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { loadSimScript } from "../../src/sim/load-script.js";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-sim-script-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function scriptFile(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text, "utf8");
  return file;
}

async function failure(file: string): Promise<SkillgymError> {
  const error = await loadSimScript(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillgymError);
  return error as SkillgymError;
}

describe("loadSimScript", () => {
  it("loads a JSON script", async () => {
    const file = await scriptFile(
      "script.json",
      JSON.stringify({
        skill_choice: { cutoff: 0.5, min_shared: 1, ignore: ["x"] },
        rules: [
          {
            match: "pdf|docx",
            skill: "~pdf",
            trigger_pattern: [true, false],
            steps: [{ write: { path: "a.txt", content: "A" } }, { bash: "ls" }, { text: "ok" }],
            fault: { status: 529, sessions: 2 },
            latency_ms: 10,
          },
        ],
      }),
    );
    const script = await loadSimScript(file);
    expect(script.skill_choice).toEqual({ cutoff: 0.5, min_shared: 1, ignore: ["x"] });
    expect(script.rules).toHaveLength(1);
    expect(script.rules[0]!.fault).toEqual({ status: 529, sessions: 2 });
    expect(script.rules[0]!.steps).toEqual([
      { write: { path: "a.txt", content: "A" } },
      { bash: "ls" },
      { text: "ok" },
    ]);
  });

  it("loads a YAML script (.yaml and .yml) and defaults rules to []", async () => {
    const yaml = await scriptFile(
      "script.yaml",
      "rules:\n  - match: review\n    skill: none\n    without_skill:\n      - read: README.md\n    fault:\n      hang: true\n",
    );
    expect((await loadSimScript(yaml)).rules).toEqual([
      { match: "review", skill: "none", without_skill: [{ read: "README.md" }], fault: { hang: true } },
    ]);
    const yml = await scriptFile("empty.yml", "skill_choice:\n  cutoff: 0.1\n");
    expect(await loadSimScript(yml)).toEqual({ skill_choice: { cutoff: 0.1 }, rules: [] });
  });

  it("names the path of a field with the wrong shape", async () => {
    const file = await scriptFile("bad-status.json", JSON.stringify({ rules: [{ fault: { status: 404 } }] }));
    const error = await failure(file);
    expect(error.code).toBe("BAD_INPUT");
    expect(error.file).toBe(file);
    expect(error.message).toContain("rules[0].fault.status");
    expect(error.message).toContain(file);
  });

  it("names an unknown key and a bad step", async () => {
    const file = await scriptFile(
      "bad-keys.yaml",
      "rules:\n  - skill: x\n  - steps:\n      - bash: ls\n      - teleport: now\n    lantency_ms: 3\n",
    );
    const error = await failure(file);
    expect(error.message).toContain("rules[1].steps[1]");
    expect(error.message).toContain("lantency_ms");
    expect(error.message.split("\n").slice(1)).toEqual([
      expect.stringMatching(/^ {2}.*bad-keys\.yaml: rules\[1\]\.steps\[1\]: /),
      expect.stringMatching(/^ {2}.*bad-keys\.yaml: rules\[1\]: .*lantency_ms/),
    ]);
  });

  it("names the root when the script is not an object", async () => {
    const error = await failure(await scriptFile("list.json", "[]"));
    expect(error.message).toMatch(/list\.json: \(root\): /);
  });

  it("rejects a match that is not a regular expression", async () => {
    const file = await scriptFile("bad-regex.json", JSON.stringify({ rules: [{}, { match: "pdf(" }] }));
    const error = await failure(file);
    expect(error.code).toBe("BAD_INPUT");
    expect(error.message).toContain("rules[1].match");
    expect(error.message).toContain(file);
    expect(error.file).toBe(file);
    const when = await scriptFile(
      "bad-when.json",
      JSON.stringify({ judge: { verdicts: [{ match: "x", passed: true, when: "## (Actions" }] } }),
    );
    expect((await failure(when)).message).toContain(
      `${when}: judge.verdicts[0].when: not a valid regular expression`,
    );
  });

  it("rejects a model or judge_model pattern that is not a regular expression", async () => {
    const file = await scriptFile("bad-model.json", JSON.stringify({ rules: [{ model: "old[" }] }));
    const error = await failure(file);
    expect(error.code).toBe("BAD_INPUT");
    expect(error.message).toContain("rules[0].model");
    expect(error.message).toContain(file);
    const judge = await scriptFile(
      "bad-judge-model.json",
      JSON.stringify({ judge: { verdicts: [{ match: "x", passed: true, judge_model: "(strict" }] } }),
    );
    expect((await failure(judge)).message).toContain("judge.verdicts[0].judge_model");
  });

  it("rejects text that is not JSON or YAML, naming the file", async () => {
    const json = await failure(await scriptFile("broken.json", "{ rules: "));
    expect(json.code).toBe("BAD_INPUT");
    expect(json.message).toMatch(/broken\.json: not valid JSON/);
    const yaml = await failure(await scriptFile("broken.yaml", "rules: [\n  - a: b\n"));
    expect(yaml.message).toMatch(/broken\.yaml: not valid YAML/);
    expect(yaml.file).toMatch(/broken\.yaml$/);
    const yml = await failure(await scriptFile("broken.yml", "rules: [\n  - a: b\n"));
    expect(yml.message).toMatch(/broken\.yml: not valid YAML/);
  });

  it("reads a file as YAML only when its name ends in .yaml or .yml", async () => {
    const error = await failure(await scriptFile("rules.yml.json", "rules: []\n"));
    expect(error.message).toMatch(/rules\.yml\.json: not valid JSON/);
  });

  it("names a missing file", async () => {
    const missing = join(dir, "nope.json");
    const error = await failure(missing);
    expect(error.code).toBe("BAD_INPUT");
    expect(error.file).toBe(missing);
    expect(error.message).toContain(missing);
  });
});
