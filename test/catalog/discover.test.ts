import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discoverCatalog } from "../../src/catalog/discover.js";
import { catalogSpecs, openCatalogLibrary } from "../../src/catalog/library.js";
import { SkillgymError } from "../../src/errors.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// discoverCatalog and openCatalogLibrary on real folders in a temp dir: what a library is, and each refusal.
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

const HINT = "pass a folder holding one folder per skill, each with its SKILL.md directly inside it";

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillgymError);
  const { code, message, hint, file } = error as SkillgymError;
  return { code, message, hint, file };
}

const QUERIES_A = [
  { query: "plot the sales", should_trigger: true },
  { query: "what is the weather", should_trigger: false },
];

// A library: two skills with queries (folders in name order whatever their case), one competitor, one folder without a SKILL.md,
// a hidden folder and a loose file, both ignored.
async function library(name: string): Promise<string> {
  const root = join(dir, name);
  await writeTree(root, {
    "Beta/SKILL.md": skillMd("beta", "Summarises CSV files.", "Summarise."),
    "Beta/evals/triggers.json": JSON.stringify([{ query: "summarise orders.csv", should_trigger: true }]),
    "alpha/SKILL.md": skillMd("alpha", "Draws charts.", "Draw."),
    "alpha/evals/triggers.json": JSON.stringify(QUERIES_A),
    "gamma/SKILL.md": skillMd("gamma", "Writes cards.", "Write."),
    "notes/README.md": "not a skill\n",
    ".hidden/SKILL.md": skillMd("hidden", "Hidden.", "No."),
    "sim-script.json": "{}",
  });
  return root;
}

describe("discoverCatalog", () => {
  it("finds every skill folder in name order with its queries and triggers.json, and says the folders left out", async () => {
    const root = await library("lib");
    expect(await discoverCatalog(root)).toEqual({
      members: [
        {
          name: "alpha",
          dir: join(root, "alpha"),
          description: "Draws charts.",
          queries: QUERIES_A,
          triggersFile: join(root, "alpha", "evals", "triggers.json"),
        },
        {
          name: "beta",
          dir: join(root, "Beta"),
          description: "Summarises CSV files.",
          queries: [{ query: "summarise orders.csv", should_trigger: true }],
          triggersFile: join(root, "Beta", "evals", "triggers.json"),
        },
        { name: "gamma", dir: join(root, "gamma"), description: "Writes cards.", queries: [] },
      ],
      skipped: [join(root, "notes")],
    });
  });

  it("takes a relative path from the working folder, and two skills are enough", async () => {
    const root = join(dir, "two");
    await writeTree(root, {
      "a/SKILL.md": skillMd("a", "A.", "A."),
      "b/SKILL.md": skillMd("b", "B.", "B."),
    });
    const relativeRoot = join("..", ...Array(20).fill(".."), root);
    const { members, skipped } = await discoverCatalog(relativeRoot);
    expect(members.map((m) => m.dir)).toEqual([join(root, "a"), join(root, "b")]);
    expect(skipped).toEqual([]);
  });

  it("refuses a folder that does not exist, a file, and one it cannot read, naming it", async () => {
    const missing = join(dir, "missing");
    expect(await refusal(discoverCatalog(missing))).toEqual({
      code: "BAD_INPUT",
      message: `${missing} does not exist`,
      hint: HINT,
      file: missing,
    });
    const file = join(dir, "a-file");
    await writeFile(file, "x");
    expect(await refusal(discoverCatalog(file))).toEqual({
      code: "BAD_INPUT",
      message: `${file} is not a folder`,
      hint: HINT,
      file,
    });
    const loop = join(dir, "loop");
    await symlink(loop, loop);
    expect(await refusal(discoverCatalog(loop))).toEqual({
      code: "BAD_INPUT",
      message: `${loop} cannot be read`,
      hint: HINT,
      file: loop,
    });
  });

  it("refuses a skill given in place of its library, pointing at both commands", async () => {
    const root = await library("lib-self");
    const skill = join(root, "Beta");
    expect(await refusal(discoverCatalog(skill))).toEqual({
      code: "BAD_INPUT",
      message: `${skill} is itself a skill (it has a SKILL.md), not a folder of skills`,
      hint: `pass the folder that holds it beside the others (skillgym catalog ${root}), or test this skill's own queries with skillgym triggers ${skill}`,
      file: skill,
    });
  });

  it("refuses a folder of fewer than two skills, naming the folders without a SKILL.md", async () => {
    const one = join(dir, "one");
    await writeTree(one, {
      "only/SKILL.md": skillMd("only", "Only.", "Only."),
      "docs/x.md": "x",
      "assets/y.md": "y",
      ".git/HEAD": "ref",
    });
    expect(await refusal(discoverCatalog(one))).toEqual({
      code: "BAD_INPUT",
      message: `${one} holds 1 skill folder(s); without a SKILL.md: ${join(one, "assets")}, ${join(one, "docs")}; a catalog needs two or more`,
      hint: HINT,
      file: one,
    });
    const empty = join(dir, "empty");
    await mkdir(empty);
    expect(await refusal(discoverCatalog(empty))).toEqual({
      code: "BAD_INPUT",
      message: `${empty} holds 0 skill folder(s); a catalog needs two or more`,
      hint: HINT,
      file: empty,
    });
  });

  it("refuses invalid skills and suites with every finding, and nothing runs", async () => {
    const root = join(dir, "invalid");
    await writeTree(root, {
      "good/SKILL.md": skillMd("good", "Good.", "Good."),
      "nodesc/SKILL.md": "---\nname: nodesc\n---\n\nBody.\n",
      "badsuite/SKILL.md": skillMd("badsuite", "Bad suite.", "Body."),
      "badsuite/evals/triggers.json": JSON.stringify([{ query: 3 }]),
    });
    const { code, message, hint, file } = await refusal(discoverCatalog(root));
    expect({ code, hint, file }).toEqual({
      code: "INVALID_SKILL",
      hint: "fix the errors above (`skillgym validate <skill>` lists every finding); nothing was run",
      file: undefined,
    });
    const lines = message.split("\n");
    expect(lines[0]).toBe(`${join(root, "badsuite")}: its eval suite is not valid:`);
    expect(lines[1]).toMatch(/^ {2}\S.*triggers\.json/);
    const second = lines.indexOf(`${join(root, "nodesc")} is not a valid skill:`);
    expect(second).toBeGreaterThan(1);
    expect(lines[second + 1]).toMatch(/^ {2}\S.*description/);
    expect(lines.slice(second + 1).every((l) => l.startsWith("  "))).toBe(true);
  });

  it("puts each of several findings of one skill or suite on a line of its own", async () => {
    const root = join(dir, "invalid-many");
    await writeTree(root, {
      "good/SKILL.md": skillMd("good", "Good.", "Good."),
      "bare/SKILL.md": "---\nname: Bare Skill\n---\n\nBody.\n",
      "badsuite/SKILL.md": skillMd("badsuite", "Bad suite.", "Body."),
      "badsuite/evals/triggers.json": JSON.stringify([{ query: 3 }, { query: 4 }]),
    });
    const { message } = await refusal(discoverCatalog(root));
    const lines = message.split("\n");
    const suite = lines.indexOf(`${join(root, "badsuite")}: its eval suite is not valid:`);
    const skill = lines.indexOf(`${join(root, "bare")} is not a valid skill:`);
    expect(suite).toBe(0);
    // Each finding starts a line of its own (its fix on the next), indented under its heading.
    const findings = (from: number, to: number) =>
      lines.slice(from, to).filter((l) => l.startsWith("  error: "));
    expect(findings(1, skill)).toHaveLength(3);
    expect(findings(skill + 1, lines.length)).toHaveLength(2);
    expect(lines.filter((_, i) => i !== suite && i !== skill).every((l) => l.startsWith("  "))).toBe(true);
  });

  it("refuses two skills of one name, naming both folders", async () => {
    const root = join(dir, "twins");
    await writeTree(root, {
      "a/SKILL.md": skillMd("twin", "First.", "A."),
      "b/SKILL.md": skillMd("twin", "Second.", "B."),
      "c/SKILL.md": skillMd("other", "Other.", "C."),
    });
    expect(await refusal(discoverCatalog(root))).toEqual({
      code: "BAD_INPUT",
      message: `two skills are named twin: ${join(root, "a")} and ${join(root, "b")}`,
      hint: "rename one of them (its folder and the name in its SKILL.md); nothing was run",
      file: undefined,
    });
  });
});

describe("openCatalogLibrary", () => {
  it("opens the library with its workspace beside it by default, or the one given", async () => {
    const root = await library("lib-open");
    const opened = await openCatalogLibrary({ dir: root });
    expect(opened.root).toBe(root);
    expect(opened.workspace).toBe(join(dir, "lib-open-workspace"));
    expect(opened.members.map((m) => m.name)).toEqual(["alpha", "beta", "gamma"]);
    expect(opened.skipped).toEqual([join(root, "notes")]);
    const given = await openCatalogLibrary({ dir: root, workspace: join(dir, "elsewhere", "..", "ws") });
    expect(given.workspace).toBe(join(dir, "ws"));
    // --only a skill with queries.
    expect((await openCatalogLibrary({ dir: root, only: ["beta"] })).members).toHaveLength(3);
  });

  it("refuses --only naming a skill the catalog lacks, listing the ones it has", async () => {
    const root = await library("lib-only");
    expect(await refusal(openCatalogLibrary({ dir: root, only: ["beta", "zeta", "eta"] }))).toEqual({
      code: "USAGE",
      message: "--only names skills the catalog does not have: zeta, eta",
      hint: "the catalog's skills: alpha, beta, gamma",
      file: undefined,
    });
  });

  it("refuses a library with no query to ask, or whose --only skills have none", async () => {
    const root = join(dir, "quiet");
    await writeTree(root, {
      "a/SKILL.md": skillMd("a", "A.", "A."),
      "b/SKILL.md": skillMd("b", "B.", "B."),
    });
    const none = {
      code: "NO_EVALS",
      message: `no skill in ${root} has trigger queries to ask`,
      hint: "give at least one skill an evals/triggers.json",
      file: undefined,
    };
    expect(await refusal(openCatalogLibrary({ dir: root }))).toEqual(none);
    const lib = await library("lib-competitor");
    expect(await refusal(openCatalogLibrary({ dir: lib, only: ["gamma"] }))).toEqual({
      ...none,
      message: `no skill in ${lib} has trigger queries to ask`,
    });
  });
});

describe("catalogSpecs", () => {
  it("plans every run, and a shard's part of them", async () => {
    const { members } = await openCatalogLibrary({ dir: await library("lib-specs") });
    const whole = catalogSpecs(members, { runs: 2 }, "/ws/catalog-1");
    expect(whole.planned).toHaveLength(6);
    expect(whole.specs).toEqual(whole.planned);
    const parts = [1, 2].map((index) => catalogSpecs(members, { runs: 2, shard: { index, count: 2 } }, "/c"));
    for (const part of parts) {
      expect(part.planned).toHaveLength(6);
      expect(part.specs.length).toBeGreaterThan(0);
      expect(part.specs.length).toBeLessThan(6);
    }
    const dirs = parts.flatMap((p) => p.specs.map((s) => s.runDir)).sort();
    expect(dirs).toEqual(parts[0]!.planned.map((s) => s.runDir).sort());
    const only = catalogSpecs(members, { runs: 1, only: ["alpha"] }, "/c");
    expect(only.specs.map((s) => `${s.owner} ${s.query}`)).toEqual([
      "alpha plot the sales",
      "alpha what is the weather",
    ]);
  });
});
