import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { discoverSuite } from "../../src/suite/discover.js";
import { type Tree, tempDir, writeTree } from "./tree.js";

let dir: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.remove();
});

const evals = { evals: [{ id: 1, prompt: "p", expectations: ["e"] }] };
const triggers = [{ query: "q", should_trigger: true }];
const skillRel = "skills/pack/my-skill";

// Where each discovery step looks, for a skill at <root>/skills/pack/my-skill and project root <root>.
const steps = {
  skill: `${skillRel}/evals`,
  grandparent: "skills/evals/my-skill",
  project: "evals/my-skill",
  "project-fuzzy": "evals/group/my-skill",
} as const;
type Step = keyof typeof steps;

async function discoverWith(tree: Tree, evalsPath?: string) {
  await writeTree(dir.path, { [`${skillRel}/SKILL.md`]: "---\nname: my-skill\n---\n", ...tree });
  return discoverSuite({
    skillDir: join(dir.path, skillRel),
    skillName: "my-skill",
    projectRoot: dir.path,
    ...(evalsPath === undefined ? {} : { evalsPath: join(dir.path, evalsPath) }),
  });
}

describe("discovery order", () => {
  const order: Step[] = ["skill", "grandparent", "project", "project-fuzzy"];
  test.each(order.map((step, i) => [step, order.slice(i)] as const))(
    "%s wins when the earlier places are empty",
    async (winner, present) => {
      const tree: Tree = {};
      for (const step of present) tree[`${steps[step]}/evals.json`] = evals;
      const { found, findings } = await discoverWith(tree);
      expect(findings).toEqual([]);
      expect(found).toEqual({
        dir: join(dir.path, steps[winner]),
        evalsFile: join(dir.path, steps[winner], "evals.json"),
        via: winner,
      });
    },
  );

  test("--evals wins over everything", async () => {
    const tree: Tree = { "elsewhere/triggers.json": triggers };
    for (const step of Object.values(steps)) tree[`${step}/evals.json`] = evals;
    const { found } = await discoverWith(tree, "elsewhere");
    expect(found).toEqual({
      dir: join(dir.path, "elsewhere"),
      triggersFile: join(dir.path, "elsewhere", "triggers.json"),
      via: "explicit",
    });
  });

  test("a folder without evals.json or triggers.json does not count", async () => {
    const { found } = await discoverWith({
      [`${steps.skill}/notes.md`]: "not a suite",
      [`${steps.project}/triggers.json`]: triggers,
    });
    expect(found?.via).toBe("project");
    expect(found?.evalsFile).toBeUndefined();
  });

  test("eval_set.json counts as triggers; triggers.json wins over it with a warning", async () => {
    const only = await discoverWith({ [`${steps.skill}/eval_set.json`]: triggers });
    expect(only.found?.triggersFile).toBe(join(dir.path, steps.skill, "eval_set.json"));
    await writeTree(dir.path, { [`${steps.skill}/triggers.json`]: triggers });
    const both = await discoverWith({});
    expect(both.found?.triggersFile).toBe(join(dir.path, steps.skill, "triggers.json"));
    expect(both.findings).toEqual([
      expect.objectContaining({ severity: "warning", code: "suite-duplicate-triggers" }),
    ]);
  });

  test("both files in one folder are both found", async () => {
    const { found } = await discoverWith({
      [`${steps.project}/evals.json`]: evals,
      [`${steps.project}/triggers.json`]: triggers,
    });
    expect(found?.evalsFile).toBeDefined();
    expect(found?.triggersFile).toBeDefined();
  });

  test("nothing found gives no suite and no finding", async () => {
    expect(await discoverWith({ "evals/other-skill/evals.json": evals })).toEqual({ findings: [] });
  });
});

describe("fuzzy discovery", () => {
  test("skips node_modules and .git, and prefers the shallowest match", async () => {
    const { found } = await discoverWith({
      "evals/node_modules/my-skill/evals.json": evals,
      "evals/.git/my-skill/evals.json": evals,
      "evals/a/b/my-skill/evals.json": evals,
      "evals/z/my-skill/triggers.json": triggers,
    });
    expect(found?.dir).toBe(join(dir.path, "evals/z/my-skill"));
  });

  test("two matches at the same depth: the first by name, with a warning", async () => {
    const { found, findings } = await discoverWith({
      "evals/b/my-skill/evals.json": evals,
      "evals/a/my-skill/evals.json": evals,
    });
    expect(found?.dir).toBe(join(dir.path, "evals/a/my-skill"));
    expect(findings).toEqual([expect.objectContaining({ severity: "warning", code: "suite-ambiguous" })]);
  });

  test("depth is bounded", async () => {
    const { found } = await discoverWith({ "evals/1/2/3/4/my-skill/evals.json": evals });
    expect(found).toBeUndefined();
  });
});

describe("--evals", () => {
  test("an evals-shaped file of any name", async () => {
    const { found, findings } = await discoverWith({ "cases/mine.json": evals }, "cases/mine.json");
    expect(findings).toEqual([]);
    expect(found).toEqual({
      dir: join(dir.path, "cases"),
      evalsFile: join(dir.path, "cases/mine.json"),
      via: "explicit",
    });
  });

  test("an array is a triggers file, whatever its name", async () => {
    const { found } = await discoverWith({ "cases/evals.json": triggers }, "cases/evals.json");
    expect(found).toEqual({
      dir: join(dir.path, "cases"),
      triggersFile: join(dir.path, "cases/evals.json"),
      via: "explicit",
    });
  });

  test("a broken file is classified by its name, so that loading reports the syntax error", async () => {
    const broken = await discoverWith({ "cases/eval_set.json": "[{" }, "cases/eval_set.json");
    expect(broken.found?.triggersFile).toBe(join(dir.path, "cases/eval_set.json"));
    const other = await discoverWith({ "cases/x.json": "{" }, "cases/x.json");
    expect(other.found?.evalsFile).toBe(join(dir.path, "cases/x.json"));
  });

  test("a path that does not exist is an error, not a fall-through", async () => {
    const { found, findings } = await discoverWith({ [`${steps.skill}/evals.json`]: evals }, "missing");
    expect(found).toBeUndefined();
    expect(findings).toEqual([
      expect.objectContaining({ severity: "error", code: "suite-missing", file: join(dir.path, "missing") }),
    ]);
  });

  test("a folder without suite files is an error", async () => {
    const { found, findings } = await discoverWith({ "empty/": null }, "empty");
    expect(found).toBeUndefined();
    expect(findings[0]).toMatchObject({ severity: "error", code: "suite-empty" });
  });

  test("a JSON file of neither shape is an error", async () => {
    const { findings } = await discoverWith({ "cases/x.json": { queries: [] } }, "cases/x.json");
    expect(findings[0]).toMatchObject({ severity: "error", code: "suite-shape" });
  });
});

describe("exact findings and shapes", () => {
  test("a suite with only evals.json has no triggersFile key", async () => {
    const { found } = await discoverWith({ [`${steps.skill}/evals.json`]: evals });
    expect(found).toStrictEqual({
      dir: join(dir.path, steps.skill),
      evalsFile: join(dir.path, steps.skill, "evals.json"),
      via: "skill",
    });
  });

  test("a second trigger file is ignored with a warning naming the chosen one", async () => {
    const { findings } = await discoverWith({
      [`${steps.skill}/eval_set.json`]: triggers,
      [`${steps.skill}/trigger-eval.json`]: triggers,
    });
    expect(findings).toEqual([
      {
        severity: "warning",
        code: "suite-duplicate-triggers",
        file: join(dir.path, steps.skill, "trigger-eval.json"),
        message: "ignored because eval_set.json is in the same folder",
        hint: "keep one trigger file",
      },
    ]);
  });

  test("fuzzy discovery looks only under the project's evals folder", async () => {
    expect(await discoverWith({ "cases/my-skill/evals.json": evals })).toEqual({ findings: [] });
  });

  test("fuzzy discovery reaches four folders deep", async () => {
    const { found } = await discoverWith({ "evals/1/2/3/my-skill/evals.json": evals });
    expect(found?.dir).toBe(join(dir.path, "evals/1/2/3/my-skill"));
  });

  test("same-depth matches: the first by name wins, the others are named relative to evals/", async () => {
    const { found, findings } = await discoverWith({
      "evals/z/my-skill/evals.json": evals,
      "evals/m/my-skill/evals.json": evals,
      "evals/a/my-skill/evals.json": evals,
      "evals/q/my-skill/evals.json": evals,
      "evals/c/my-skill/evals.json": evals,
    });
    expect(found?.dir).toBe(join(dir.path, "evals/a/my-skill"));
    expect(findings).toEqual([
      {
        severity: "warning",
        code: "suite-ambiguous",
        file: join(dir.path, "evals/a/my-skill"),
        message: `chosen over ${join("c", "my-skill")}, ${join("m", "my-skill")}, ${join("q", "my-skill")}, ${join("z", "my-skill")} (same depth under ${join(dir.path, "evals")})`,
        hint: "pass --evals to pick the suite explicitly",
      },
    ]);
  });

  test("same-depth matches: name order is one on every system, whatever order it lists a folder in", async () => {
    // An emoji (two UTF-16 units) comes before a full-width sign, though its UTF-8 bytes come after.
    const { found } = await discoverWith({
      "evals/\uFF01/my-skill/evals.json": evals,
      "evals/\u{1F600}/my-skill/evals.json": evals,
    });
    expect(found?.dir).toBe(join(dir.path, "evals/\u{1F600}/my-skill"));
  });

  test("--evals naming a folder without suite files", async () => {
    const { findings } = await discoverWith({ "empty/": null }, "empty");
    expect(findings).toEqual([
      {
        severity: "error",
        code: "suite-empty",
        file: join(dir.path, "empty"),
        message:
          "--evals names a folder that holds neither evals.json nor triggers.json (or eval_set.json, trigger-eval.json)",
        hint: "point --evals at a suite folder or at one of its JSON files",
      },
    ]);
  });

  test("--evals naming a path that does not exist", async () => {
    const { findings } = await discoverWith({}, "missing");
    expect(findings).toEqual([
      {
        severity: "error",
        code: "suite-missing",
        file: join(dir.path, "missing"),
        message: "--evals names a path that does not exist",
        hint: "pass an existing suite folder, evals.json or triggers.json",
      },
    ]);
  });

  test("--evals naming a JSON file of neither shape", async () => {
    const { findings } = await discoverWith({ "cases/x.json": { queries: [] } }, "cases/x.json");
    expect(findings).toEqual([
      {
        severity: "error",
        code: "suite-shape",
        file: join(dir.path, "cases/x.json"),
        message:
          "cannot tell what this file is: expected an object with `evals` (evals.json) or an array of { query, should_trigger } (triggers.json)",
      },
    ]);
  });
});
