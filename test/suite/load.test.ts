import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { errorsOf, warningsOf } from "../../src/findings.js";
import { loadSuite } from "../../src/suite/load.js";
import { type Tree, tempDir, writeTree } from "./tree.js";

let dir: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.remove();
});

const balancedTriggers = [true, true, true, false, false, false].map((should_trigger, i) => ({
  query: `query ${i}`,
  should_trigger,
}));

// A project at <tmp>/proj with the skill at proj/skills/tidy and its suite in <skill>/evals/ unless moved.
async function load(tree: Tree, evalsPath?: string) {
  await writeTree(dir.path, {
    "proj/.git/": null,
    "proj/skills/tidy/SKILL.md": "---\nname: tidy\n---\n",
    ...tree,
  });
  return loadSuite({
    skillDir: join(dir.path, "proj/skills/tidy"),
    skillName: "tidy",
    projectRoot: join(dir.path, "proj"),
    ...(evalsPath === undefined ? {} : { evalsPath: join(dir.path, evalsPath) }),
  });
}

const skillEvals = "proj/skills/tidy/evals";
const evalsFile = () => join(dir.path, skillEvals, "evals.json");

describe("the examples", () => {
  test.each(["release-notes", "csv-summary"])("%s loads with no errors and no warnings", async (name) => {
    const skillDir = resolve("examples", name);
    const { suite, findings } = await loadSuite({ skillDir, skillName: name, projectRoot: resolve(".") });
    expect(findings).toEqual([]);
    expect(suite?.via).toBe("skill");
    expect(suite?.evals).toHaveLength(3);
    expect(suite?.triggers.filter((t) => t.should_trigger)).toHaveLength(10);
    expect(suite?.triggers.filter((t) => !t.should_trigger)).toHaveLength(10);
    for (const e of suite?.evals ?? []) {
      expect(e.fixtures.length).toBeGreaterThan(0);
      for (const fixture of e.fixtures) {
        expect(fixture.source).toBe(join(skillDir, fixture.target));
        expect(e.prompt).toContain(fixture.target);
      }
    }
    expect(suite?.evals.some((e) => e.expectations.length === 0 && e.checks.length > 0)).toBe(true);
  });

  test("release-notes has a base overlay and one per-eval overlay", async () => {
    const skillDir = resolve("examples/release-notes");
    const { suite } = await loadSuite({ skillDir, skillName: "release-notes", projectRoot: resolve(".") });
    expect(suite?.baseOverlay).toBe(join(skillDir, "evals/setup"));
    expect(suite?.evals.map((e) => e.overlay)).toEqual([
      undefined,
      join(skillDir, "evals/version-from-package/setup"),
      undefined,
    ]);
  });
});

describe("evals", () => {
  test("assertions is an alias of expectations; ids may be integers or strings", async () => {
    const { suite, findings } = await load({
      [`${skillEvals}/evals.json`]: {
        evals: [
          { id: 1, prompt: "p1", assertions: ["a"] },
          { id: "B2", prompt: "p2", expectations: ["e"] },
        ],
      },
    });
    expect(findings).toEqual([]);
    expect(suite?.evals.map((e) => [e.id, e.expectations])).toEqual([
      [1, ["a"]],
      ["B2", ["e"]],
    ]);
    expect(suite?.evals[0]).not.toHaveProperty("assertions");
  });

  test("a schema error names evals.json and the JSON path, and no suite is returned", async () => {
    const { suite, findings } = await load({
      [`${skillEvals}/evals.json`]: {
        evals: [
          { id: 1, prompt: "p", expectations: [] },
          { id: 2, expectations: [] },
        ],
      },
    });
    expect(suite).toBeUndefined();
    expect(errorsOf(findings)).toEqual([
      expect.objectContaining({
        severity: "error",
        file: evalsFile(),
        location: "evals[1].prompt",
        message: "required (string)",
      }),
    ]);
  });

  test("an invalid regex is an error at its pattern; a command check is fine", async () => {
    const { findings } = await load({
      [`${skillEvals}/evals.json`]: {
        evals: [
          {
            id: 1,
            prompt: "p",
            checks: [
              { type: "command", run: "exit 0" },
              { type: "file_contains", path: "a.md", pattern: "(unclosed" },
            ],
          },
        ],
      },
    });
    expect(findings).toEqual([
      expect.objectContaining({
        severity: "error",
        code: "check-regex",
        file: evalsFile(),
        location: "evals[0].checks[1].pattern",
      }),
    ]);
  });

  test("check paths must stay inside the workspace; ids must be folder names", async () => {
    const { findings } = await load({
      [`${skillEvals}/evals.json`]: {
        evals: [{ id: "a/b", prompt: "p", checks: [{ type: "file_exists", path: "../outside.md" }] }],
      },
    });
    expect(errorsOf(findings).map((f) => f.location)).toEqual(["evals[0].id", "evals[0].checks[0].path"]);
  });

  test("`env` names the variables its runs get; a wrong list or name is an error at its place", async () => {
    const good = await load({
      [`${skillEvals}/evals.json`]: { env: ["SKILLGYM_TOKEN", "_x1"], evals: [{ id: 1, prompt: "p" }] },
    });
    expect(errorsOf(good.findings)).toEqual([]);
    expect(good.suite?.env).toEqual(["SKILLGYM_TOKEN", "_x1"]);

    const notAList = await load({
      [`${skillEvals}/evals.json`]: { env: "GITHUB_TOKEN", evals: [{ id: 1, prompt: "p" }] },
    });
    expect(notAList.suite).toBeUndefined();
    expect(errorsOf(notAList.findings)).toEqual([
      expect.objectContaining({
        file: evalsFile(),
        location: "env",
        message: expect.stringContaining("array"),
      }),
    ]);

    const badNames = await load({
      [`${skillEvals}/evals.json`]: {
        env: ["OK", "NPM-TOKEN", "1ST", "", 7],
        evals: [{ id: 1, prompt: "p" }],
      },
    });
    expect(badNames.suite).toBeUndefined();
    // Names wrong the same way are one finding over their range.
    expect(errorsOf(badNames.findings).map((f) => [f.file, f.location])).toEqual([
      [evalsFile(), "env[1..3]"],
      [evalsFile(), "env[4]"],
    ]);
    expect(errorsOf(badNames.findings)[0]?.message).toContain("variable name");
    expect(errorsOf(badNames.findings)[1]?.message).toContain("string");
  });

  test("a skill_name that differs from the skill is a warning", async () => {
    const { suite, findings } = await load({
      [`${skillEvals}/evals.json`]: {
        skill_name: "other",
        evals: [{ id: 1, prompt: "p", expectations: ["e"] }],
      },
    });
    expect(suite).toBeDefined();
    expect(findings).toEqual([
      expect.objectContaining({ severity: "warning", code: "skill-name-mismatch", location: "skill_name" }),
    ]);
  });
});

describe("fixtures", () => {
  const withFiles = (files: string[]) => ({
    [`${skillEvals}/evals.json`]: {
      evals: [
        { id: 1, prompt: "p", expectations: ["e"] },
        { id: 2, prompt: "p", files, expectations: ["e"] },
      ],
    },
  });

  test("relative to the skill folder first, staged at the entry as written", async () => {
    const { suite, findings } = await load({
      ...withFiles(["evals/files/in.md", "./evals/files//in.md"]),
      [`${skillEvals}/files/in.md`]: "x",
      "proj/evals/files/in.md": "decoy",
    });
    expect(findings).toEqual([]);
    const source = join(dir.path, "proj/skills/tidy/evals/files/in.md");
    expect(suite?.evals[1]?.fixtures).toEqual([
      { source, target: "evals/files/in.md" },
      { source, target: "evals/files/in.md" },
    ]);
  });

  test("found via the project root (the BMad convention), file or folder", async () => {
    const files = ["evals/tidy/files/brief.md", "evals\\tidy\\files\\data"];
    const { suite, findings } = await load({
      "proj/evals/tidy/evals.json": { evals: [{ id: "A1", prompt: "p", files, expectations: ["e"] }] },
      "proj/evals/tidy/files/brief.md": "x",
      "proj/evals/tidy/files/data/a.csv": "a",
    });
    expect(findings).toEqual([]);
    expect(suite?.via).toBe("grandparent");
    expect(suite?.evals[0]?.fixtures).toEqual([
      { source: join(dir.path, "proj/evals/tidy/files/brief.md"), target: "evals/tidy/files/brief.md" },
      { source: join(dir.path, "proj/evals/tidy/files/data"), target: "evals/tidy/files/data" },
    ]);
  });

  test("relative to the suite folder as a last resort", async () => {
    const { suite, findings } = await load({
      ...withFiles(["files/in.md"]),
      [`${skillEvals}/files/in.md`]: "x",
    });
    expect(findings).toEqual([]);
    expect(suite?.evals[1]?.fixtures).toEqual([
      { source: join(dir.path, skillEvals, "files/in.md"), target: "files/in.md" },
    ]);
  });

  test("a missing fixture names evals.json, the index and the places tried", async () => {
    const { suite, findings } = await load({
      ...withFiles(["evals/files/ok.md", "evals/files/gone.md"]),
      [`${skillEvals}/files/ok.md`]: "x",
    });
    expect(suite).toBeUndefined();
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      severity: "error",
      code: "fixture-missing",
      file: evalsFile(),
      location: "evals[1].files[1]",
    });
    expect(findings[0]?.message).toContain(join(dir.path, "proj/skills/tidy/evals/files/gone.md"));
    expect(findings[0]?.message).toContain(join(dir.path, "proj/evals/files/gone.md"));
  });

  test.each([["/etc/passwd"], ["C:\\data\\x.md"], ["../secret.md"], ["evals/../../x.md"]])(
    "%s is refused as a target",
    async (entry) => {
      const { findings } = await load(withFiles([entry]));
      expect(findings).toEqual([
        expect.objectContaining({ severity: "error", code: "fixture-path", location: "evals[1].files[0]" }),
      ]);
    },
  );
});

describe("overlays", () => {
  test("base and per-eval overlays are resolved; an overlay for an unknown id is a warning", async () => {
    const { suite, findings } = await load({
      [`${skillEvals}/evals.json`]: {
        evals: [
          { id: "A1", prompt: "p", expectations: ["e"] },
          { id: 7, prompt: "p", expectations: ["e"] },
          { id: "B2", prompt: "p", expectations: ["e"] },
        ],
      },
      [`${skillEvals}/setup/.claude/skills/dep/SKILL.md`]: "dep",
      [`${skillEvals}/A1/setup/config.yaml`]: "a: 1",
      [`${skillEvals}/7/setup/x.txt`]: "x",
      [`${skillEvals}/C3/setup/x.txt`]: "x",
      [`${skillEvals}/B2/notes.md`]: "no setup folder here",
    });
    const base = join(dir.path, skillEvals);
    expect(suite?.baseOverlay).toBe(join(base, "setup"));
    expect(suite?.evals.map((e) => e.overlay)).toEqual([
      join(base, "A1/setup"),
      join(base, "7/setup"),
      undefined,
    ]);
    expect(findings).toEqual([
      expect.objectContaining({ severity: "warning", code: "overlay-orphan", file: join(base, "C3/setup") }),
    ]);
  });
});

describe("triggers", () => {
  test("a balanced triggers.json loads without advice", async () => {
    const { suite, findings } = await load({ [`${skillEvals}/triggers.json`]: balancedTriggers });
    expect(findings).toEqual([]);
    expect(suite?.triggers).toHaveLength(6);
    expect(suite?.evals).toEqual([]);
  });

  test("fewer than 3 on one side is a warning", async () => {
    const { suite, findings } = await load({ [`${skillEvals}/triggers.json`]: balancedTriggers.slice(0, 5) });
    expect(suite).toBeDefined();
    expect(warningsOf(findings)).toEqual([expect.objectContaining({ code: "few-trigger-queries" })]);
    expect(findings[0]?.message).toContain("3 should_trigger true and 2 false");
  });

  test("a bad triggers file reports JSON paths from the array", async () => {
    const { findings } = await load({ [`${skillEvals}/triggers.json`]: [{ query: "q" }] });
    expect(findings).toEqual([
      expect.objectContaining({ location: "[0].should_trigger", message: "required (boolean)" }),
    ]);
  });
});

describe("discovery through loadSuite", () => {
  test("no suite: no suite and no finding", async () => {
    expect(await load({})).toEqual({ findings: [] });
  });

  test("--evals naming a missing path is an error", async () => {
    const { suite, findings } = await load({ [`${skillEvals}/evals.json`]: { evals: [] } }, "nowhere");
    expect(suite).toBeUndefined();
    expect(errorsOf(findings)).toHaveLength(1);
  });

  test("--evals naming a single evals file loads only that file", async () => {
    const { suite, findings } = await load(
      {
        "proj/custom/cases.json": { evals: [{ id: 1, prompt: "p", expectations: ["e"] }] },
        "proj/custom/triggers.json": balancedTriggers,
      },
      "proj/custom/cases.json",
    );
    expect(findings).toEqual([]);
    expect(suite?.evalsFile).toBe(join(dir.path, "proj/custom/cases.json"));
    expect(suite?.triggersFile).toBeUndefined();
    expect(suite?.triggers).toEqual([]);
  });
});

describe("the suite holds only what the files give", () => {
  const oneEval = { id: 1, prompt: "p", expectations: ["e"] };

  test("evals.json alone: no trigger file, overlay, env or output limits", async () => {
    const { suite, findings } = await load({ [`${skillEvals}/evals.json`]: { evals: [oneEval] } });
    expect(findings).toEqual([]);
    expect(Object.keys(suite ?? {}).sort()).toEqual(["dir", "evals", "evalsFile", "triggers", "via"]);
  });

  test("triggers.json alone: no evals file", async () => {
    const { suite, findings } = await load({ [`${skillEvals}/triggers.json`]: balancedTriggers });
    expect(findings).toEqual([]);
    expect(Object.keys(suite ?? {}).sort()).toEqual(["dir", "evals", "triggers", "triggersFile", "via"]);
  });

  test("env is kept when evals.json names it", async () => {
    const { suite } = await load({ [`${skillEvals}/evals.json`]: { env: ["API_KEY"], evals: [oneEval] } });
    expect(suite?.env).toEqual(["API_KEY"]);
  });

  test.each([
    [{ max_output: "2KB" }, { totalBytes: 2048 }],
    [{ max_output_file: "1MB" }, { fileBytes: 1024 ** 2 }],
    [{ max_output_files: 3 }, { files: 3 }],
    [
      { max_output: "1KB", max_output_file: "512B", max_output_files: 2 },
      { totalBytes: 1024, fileBytes: 512, files: 2 },
    ],
  ])("output limits %j become %j", async (limits, expected) => {
    const { suite, findings } = await load({ [`${skillEvals}/evals.json`]: { ...limits, evals: [oneEval] } });
    expect(findings).toEqual([]);
    expect(suite?.outputLimits).toStrictEqual(expected);
  });
});
