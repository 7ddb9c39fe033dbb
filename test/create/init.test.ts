import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { loadSkill } from "../../src/skill/index.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillgym-init-"));
  await mkdir(join(root, ".git"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function cli(...argv: string[]) {
  const io = captureIo();
  const code = await main(argv, io);
  return { code, out: io.stdout(), err: io.stderr() };
}

describe("skillgym init", () => {
  it("scaffolds a skill that validates with no errors and no warnings", async () => {
    const dir = join(root, "release-notes");
    const made = await cli("init", dir, "--description", "Writes release notes from git history");
    expect(made.code).toBe(0);
    expect(made.out).toContain('created skill "release-notes"');
    const validated = await cli("validate", dir, "--json");
    expect(validated.code).toBe(0);
    const report = JSON.parse(validated.out) as { valid: boolean; errors: unknown[]; warnings: unknown[] };
    expect(report).toMatchObject({ valid: true, errors: [], warnings: [] });
    const loaded = await loadSkill(dir);
    expect(loaded.skill?.name).toBe("release-notes");
    expect(loaded.skill?.description).toMatch(/^Writes release notes from git history\. Use when/);
    for (const file of ["scripts/.gitkeep", "references/README.md"]) await readFile(join(dir, file));
    const evals = JSON.parse(await readFile(join(dir, "evals", "evals.json"), "utf8"));
    expect(evals.evals[0].expectations.length).toBeGreaterThan(0);
    expect(evals.evals[0].checks.length).toBeGreaterThan(0);
    const triggers = JSON.parse(await readFile(join(dir, "evals", "triggers.json"), "utf8")) as {
      should_trigger: boolean;
    }[];
    expect(new Set(triggers.map((t) => t.should_trigger))).toEqual(new Set([true, false]));
  });

  it("refuses to overwrite any existing file, naming it, and writes nothing", async () => {
    const dir = join(root, "pdf-tools");
    await mkdir(join(dir, "evals"), { recursive: true });
    await writeFile(join(dir, "evals", "triggers.json"), "[]\n");
    const made = await cli("init", dir);
    expect(made.code).toBe(2);
    expect(made.err).toContain(join(dir, "evals", "triggers.json"));
    expect(made.err).toContain("already exists");
    await expect(readFile(join(dir, "SKILL.md"))).rejects.toThrow();
    expect(await readFile(join(dir, "evals", "triggers.json"), "utf8")).toBe("[]\n");
  });

  it("refuses a name that breaks the spec, with the rule", async () => {
    const made = await cli("init", join(root, "Bad_Name"));
    expect(made.code).toBe(2);
    expect(made.err).toContain('may only hold a–z, 0–9 and "-"');
    const mismatch = await cli("init", join(root, "good-name"), "--name", "other-name");
    expect(mismatch.code).toBe(2);
    expect(mismatch.err).toContain("differs from the folder's name");
    await expect(readFile(join(root, "good-name", "SKILL.md"))).rejects.toThrow();
  });
});

describe("skillgym view --triggers", () => {
  it("has no static form", async () => {
    const dir = join(root, "csv-tables");
    expect((await cli("init", dir)).code).toBe(0);
    const viewed = await cli("view", dir, "--triggers", "--static", join(root, "out.html"));
    expect(viewed.code).toBe(2);
    expect(viewed.err).toContain("no --static form");
  });
});
