import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { loadSuite } from "../../src/suite/load.js";
import { type Tree, tempDir, writeTree } from "./tree.js";

const SECRET = "root:x:0:0:the outside secret";
let dir: { path: string; remove: () => Promise<void> };
let outside: string;
beforeEach(async () => {
  dir = await tempDir();
  // Stands in for /etc.
  outside = join(dir.path, "outside");
  await writeTree(outside, { passwd: SECRET, "ssh/id_rsa": SECRET });
});
afterEach(() => dir.remove());

const skillDir = () => join(dir.path, "proj/skills/tidy");
const suiteDir = () => join(skillDir(), "evals");
const evalsFile = () => join(suiteDir(), "evals.json");

async function load(files: string[], tree: Tree, links: Record<string, string>) {
  await writeTree(dir.path, {
    "proj/.git/": null,
    "proj/skills/tidy/SKILL.md":
      "---\nname: tidy\ndescription: Tidies notes. Use when asked to tidy notes.\n---\nTidy.\n",
    "proj/skills/tidy/evals/evals.json": {
      skill_name: "tidy",
      evals: [{ id: 1, prompt: "p", files, expectations: ["e"] }],
    },
    ...tree,
  });
  for (const [link, target] of Object.entries(links)) {
    await mkdir(join(dir.path, link, ".."), { recursive: true });
    await symlink(target, join(dir.path, link));
  }
  return loadSuite({ skillDir: skillDir(), skillName: "tidy", projectRoot: join(dir.path, "proj") });
}

describe("a fixture never brings in a file from outside the folder it was found in", () => {
  test("a fixture that is a link out is refused, naming evals.json and the place", async () => {
    const { suite, findings } = await load(
      ["evals/files/passwd"],
      {},
      {
        "proj/skills/tidy/evals/files/passwd": join(outside, "passwd"),
      },
    );
    expect(suite).toBeUndefined();
    expect(findings).toMatchObject([
      {
        severity: "error",
        code: "fixture-link-outside",
        file: evalsFile(),
        location: "evals[0].files[0]",
        message: expect.stringContaining(`a link to ${join(outside, "passwd")}, outside ${skillDir()}`),
      },
    ]);
  });

  test("a fixture reached through a linked folder is refused", async () => {
    const { findings } = await load(
      ["in.md", "evals/data/passwd"],
      { "proj/skills/tidy/in.md": "x" },
      {
        "proj/skills/tidy/evals/data": outside,
      },
    );
    expect(findings.map((f) => [f.code, f.location])).toEqual([
      ["fixture-link-outside", "evals[0].files[1]"],
    ]);
  });

  test("a folder fixture holding a link out is refused, naming the link", async () => {
    const { findings } = await load(
      ["evals/files/folder"],
      { "proj/skills/tidy/evals/files/folder/a.csv": "1" },
      {
        "proj/skills/tidy/evals/files/folder/keys": join(outside, "ssh"),
      },
    );
    expect(findings).toMatchObject([
      {
        code: "fixture-link-outside",
        location: "evals[0].files[0]",
        message: expect.stringContaining(`"keys" is a link to ${join(outside, "ssh")}`),
      },
    ]);
  });

  test("a fixture linked inside its folder is staged from its real file", async () => {
    const { suite, findings } = await load(
      ["evals/files/alias.md"],
      { "proj/skills/tidy/evals/files/in.md": "x" },
      {
        "proj/skills/tidy/evals/files/alias.md": "in.md",
      },
    );
    expect(findings).toEqual([]);
    expect(suite?.evals[0]?.fixtures).toEqual([
      { source: join(suiteDir(), "files", "in.md"), target: "evals/files/alias.md" },
    ]);
  });

  test("validate reports it with the file and the place (exit 2)", async () => {
    await load(
      ["evals/files/passwd"],
      {},
      { "proj/skills/tidy/evals/files/passwd": join(outside, "passwd") },
    );
    const io = captureIo();
    expect(await main(["validate", skillDir()], io)).toBe(2);
    expect(io.stdout()).toContain(`error: ${evalsFile()}: evals[0].files[0]: fixture "evals/files/passwd": `);
  });
});

describe("overlays", () => {
  test("a link out of an overlay is an error naming the link and its target", async () => {
    const { suite, findings } = await load(
      [],
      { "proj/skills/tidy/evals/setup/ok.md": "x" },
      {
        "proj/skills/tidy/evals/setup/passwd": join(outside, "passwd"),
        "proj/skills/tidy/evals/1/setup/keys": join(outside, "ssh"),
      },
    );
    expect(suite).toBeUndefined();
    expect(findings).toMatchObject([
      {
        severity: "error",
        code: "overlay-link-outside",
        file: join(suiteDir(), "setup", "passwd"),
        message: expect.stringContaining(`"passwd" is a link to ${join(outside, "passwd")}`),
      },
      {
        severity: "error",
        code: "overlay-link-outside",
        file: join(suiteDir(), "1", "setup", "keys"),
      },
    ]);
  });

  test("an overlay folder that is itself a link out is an error", async () => {
    const { findings } = await load([], {}, { "proj/skills/tidy/evals/setup": outside });
    expect(findings).toMatchObject([{ code: "overlay-link-outside", file: join(suiteDir(), "setup") }]);
  });

  test("an overlay whose links stay inside it loads", async () => {
    const { suite, findings } = await load(
      [],
      { "proj/skills/tidy/evals/setup/a.md": "x" },
      {
        "proj/skills/tidy/evals/setup/b.md": "a.md",
      },
    );
    expect(findings).toEqual([]);
    expect(suite?.baseOverlay).toBe(join(suiteDir(), "setup"));
  });
});
