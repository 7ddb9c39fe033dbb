import { mkdir, realpath, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { type FixtureBases, resolveFixtures } from "../../src/suite/fixtures.js";
import { type Tree, tempDir, writeTree } from "./tree.js";

let dir: { path: string; remove: () => Promise<void> };
let root: string;
beforeEach(async () => {
  dir = await tempDir();
  // realpath: the temporary folder may itself sit behind a link (macOS /var).
  root = await realpath(dir.path);
});
afterEach(() => dir.remove());

async function setUp(tree: Tree, links: Record<string, string> = {}) {
  await writeTree(root, { "proj/skill/SKILL.md": "s", "outside/secret.txt": "s", ...tree });
  for (const [link, target] of Object.entries(links)) {
    await mkdir(join(root, link, ".."), { recursive: true });
    await symlink(target, join(root, link));
  }
}

function bases(overrides: Partial<FixtureBases> = {}): FixtureBases {
  return {
    skillDir: join(root, "proj/skill"),
    projectRoot: join(root, "proj"),
    suiteDir: join(root, "proj/skill/evals"),
    evalsFile: join(root, "proj/skill/evals/evals.json"),
    ...overrides,
  };
}

const linkHint = "copy the file into the suite, skill or project folder instead of linking to it";

describe("resolveFixtures", () => {
  test("an entry climbing out of the workspace is refused with the reason", async () => {
    await setUp({});
    expect(await resolveFixtures(2, ["../x.txt"], bases())).toEqual({
      fixtures: [],
      findings: [
        {
          severity: "error",
          code: "fixture-path",
          file: bases().evalsFile,
          location: "evals[2].files[0]",
          message: "fixture \"../x.txt\" must stay inside the workspace (it climbs out with '..')",
          hint: "write fixture paths relative to the skill folder or the project root",
        },
      ],
    });
  });

  test("a missing fixture lists each place tried once", async () => {
    await setUp({});
    const same = bases({ suiteDir: join(root, "proj/skill") });
    expect(await resolveFixtures(0, ["in.md"], same)).toEqual({
      fixtures: [],
      findings: [
        {
          severity: "error",
          code: "fixture-missing",
          file: same.evalsFile,
          location: "evals[0].files[0]",
          message: `fixture "in.md" not found; tried ${join(root, "proj/skill/in.md")}, ${join(root, "proj/in.md")}`,
          hint: "create the file or correct the path (relative to the skill folder or the project root)",
        },
      ],
    });
  });

  test("a fixture that links out of its folder is refused and not staged", async () => {
    await setUp({}, { "proj/skill/data.txt": join(root, "outside/secret.txt") });
    const source = join(root, "proj/skill/data.txt");
    expect(await resolveFixtures(0, ["data.txt"], bases())).toEqual({
      fixtures: [],
      findings: [
        {
          severity: "error",
          code: "fixture-link-outside",
          file: bases().evalsFile,
          location: "evals[0].files[0]",
          message: `fixture "data.txt": ${source} is, or passes through, a link to ${join(root, "outside/secret.txt")}, outside ${join(root, "proj/skill")}`,
          hint: linkHint,
        },
      ],
    });
  });

  test("a folder fixture names each link out of it, but not a link looping back", async () => {
    await setUp(
      { "proj/skill/data/a.csv": "1" },
      {
        "proj/skill/data/deep/secret.txt": join(root, "outside/secret.txt"),
        "proj/skill/data/deep/again": join(root, "proj/skill/data"),
      },
    );
    const source = join(root, "proj/skill/data");
    expect(await resolveFixtures(0, ["data"], bases())).toEqual({
      fixtures: [],
      findings: [
        {
          severity: "error",
          code: "fixture-link-outside",
          file: bases().evalsFile,
          location: "evals[0].files[0]",
          message: `fixture "data": "deep/secret.txt" is a link to ${join(root, "outside/secret.txt")}, outside the fixture folder ${source}; it is never followed, copied or packaged`,
          hint: linkHint,
        },
      ],
    });
  });

  test("a fixture under a linked skill folder is staged from the path as found", async () => {
    await setUp({ "real-skill/in.md": "x" }, { "proj/linked-skill": join(root, "real-skill") });
    const linked = bases({ skillDir: join(root, "proj/linked-skill") });
    expect(await resolveFixtures(0, ["in.md"], linked)).toEqual({
      fixtures: [{ source: join(root, "proj/linked-skill/in.md"), target: "in.md" }],
      findings: [],
    });
  });

  test("a link inside its folder is staged from its target", async () => {
    await setUp({ "proj/skill/real.md": "x" }, { "proj/skill/alias.md": join(root, "proj/skill/real.md") });
    expect(await resolveFixtures(0, ["alias.md"], bases())).toEqual({
      fixtures: [{ source: join(root, "proj/skill/real.md"), target: "alias.md" }],
      findings: [],
    });
  });
});
