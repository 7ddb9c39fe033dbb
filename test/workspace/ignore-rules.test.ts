import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copyTree, loadProjectSkip } from "../../src/workspace/index.js";
import { listTree, makeTempDir, removeDir, writeTree } from "./tree.js";

describe("loadProjectSkip", () => {
  let root: string;
  let project: string;

  beforeEach(async () => {
    root = await makeTempDir("ignore");
    project = path.join(root, "project");
  });
  afterEach(async () => removeDir(root));

  async function copiedFiles(excludePaths: string[] = []): Promise<string[]> {
    const dest = path.join(root, "copy");
    await copyTree(project, dest, { skip: await loadProjectSkip(project, { excludePaths }) });
    return listTree(dest);
  }

  it("leaves out .git, dependencies and build outputs at any depth", async () => {
    await writeTree(project, {
      "src/index.ts": "x",
      ".git/HEAD": "ref",
      "node_modules/dep/index.js": "x",
      "packages/a/node_modules/dep/index.js": "x",
      "packages/a/dist/index.js": "x",
      "packages/a/src/a.ts": "x",
      "build/out.js": "x",
      "out/x.js": "x",
      ".next/cache": "x",
      "target/debug/bin": "x",
      "pkg/__pycache__/m.pyc": "x",
      ".venv/bin/python": "x",
      "coverage/lcov.info": "x",
      "docs/build": "a file named build is kept",
      "sub/.git": "gitdir: ../.git/modules/sub",
    });
    expect(await copiedFiles()).toEqual([
      "docs/build",
      "packages/a/src/a.ts",
      "pkg/",
      "src/index.ts",
      "sub/",
    ]);
  });

  it("applies the root and nested .gitignore files relative to their folder, deeper rules winning", async () => {
    await writeTree(project, {
      ".gitignore": "\uFEFF*.log\nsecrets/\n/only-root.txt\n",
      "app.log": "x",
      "keep.ts": "x",
      "only-root.txt": "x",
      "secrets/key": "x",
      "a/only-root.txt": "not anchored here",
      "a/.gitignore": "!keep.log\ngenerated\n",
      "a/keep.log": "re-included",
      "a/other.log": "x",
      "a/generated/file.ts": "x",
      "b/generated/file.ts": "only ignored in a/",
      "c/secrets": "a file: secrets/ matches folders only",
    });
    expect(await copiedFiles()).toEqual([
      ".gitignore",
      "a/.gitignore",
      "a/keep.log",
      "a/only-root.txt",
      "b/generated/file.ts",
      "c/secrets",
      "keep.ts",
    ]);
  });

  it("reads .git/info/exclude as root rules", async () => {
    await writeTree(project, {
      ".git/info/exclude": "local-notes.md\n",
      "local-notes.md": "x",
      "kept.md": "x",
    });
    expect(await copiedFiles()).toEqual(["kept.md"]);
  });

  it("leaves out our own <name>-workspace folders holding iterations, but not other *-workspace folders", async () => {
    await writeTree(project, {
      "my-skill-workspace/iteration-1/eval-1/outputs/a.md": "x",
      "skills/other-workspace/iteration-2/x.md": "x",
      "team-workspace/notes.md": "kept: no iteration folders",
      "iteration-1/x.md": "kept: not inside a workspace",
    });
    expect(await copiedFiles()).toEqual(["iteration-1/x.md", "skills/", "team-workspace/notes.md"]);
  });

  it("leaves out excluded absolute paths with everything under them", async () => {
    await writeTree(project, {
      "evals/my-skill/evals.json": "{}",
      "evals/other/evals.json": "{}",
      "a.md": "x",
    });
    const excluded = [path.join(project, "evals", "my-skill"), path.join(root, "elsewhere")];
    expect(await copiedFiles(excluded)).toEqual(["a.md", "evals/other/evals.json"]);
  });

  it("applies rules of folders two levels deep, anchored and with slashes, to paths relative to their folder", async () => {
    await writeTree(project, {
      "a/b/.gitignore": "/anchored.txt\nsub/x.txt\n",
      "a/b/anchored.txt": "x",
      "a/b/sub/x.txt": "x",
      "a/b/sub/y.txt": "kept",
      "a/b/c/anchored.txt": "kept: anchored to a/b",
    });
    expect(await copiedFiles()).toEqual(["a/b/.gitignore", "a/b/c/anchored.txt", "a/b/sub/y.txt"]);
  });

  it("drops the byte order mark of .gitignore after .git/info/exclude", async () => {
    await writeTree(project, {
      ".git/info/exclude": "\uFEFFlocal.md\n",
      ".gitignore": "\uFEFF*.log\n",
      "app.log": "x",
      "local.md": "x",
      "kept.md": "x",
    });
    expect(await copiedFiles()).toEqual([".gitignore", "kept.md"]);
  });

  it("reads a project whose .git is a file, as in worktrees and submodules", async () => {
    await writeTree(project, { ".git": "gitdir: ../main/.git/worktrees/w", "a.md": "x" });
    expect(await copiedFiles()).toEqual(["a.md"]);
  });

  it("fails on a .git/info/exclude it cannot read", async () => {
    await writeTree(project, { ".git/info/exclude/": "", "a.md": "x" });
    await expect(loadProjectSkip(project)).rejects.toMatchObject({ code: "EISDIR" });
  });

  it("never leaves out the whole project when its root is among the excluded paths", async () => {
    await writeTree(project, { "a.md": "x", "b/c.md": "x" });
    expect(await copiedFiles([project])).toEqual(["a.md", "b/c.md"]);
  });

  it("keeps a path the rules cannot test instead of failing", async () => {
    await writeTree(project, { ".gitignore": "*.log\n" });
    const skip = await loadProjectSkip(project);
    expect(skip("./a.log", false)).toBe(false);
    expect(skip("a.log", false)).toBe(true);
  });

  it("tells our own workspace folders by their name and by iteration folders beside other entries", async () => {
    await writeTree(project, {
      "my-skill-workspace/iteration-1/a.md": "x",
      "my-skill-workspace/benchmark.json": "{}",
      "results/iteration-3/a.md": "kept: not a -workspace folder",
      "team-workspace/docs/x.md": "kept: no iteration folder",
      "team-workspace/iteration-notes.md": "kept: a file, not a folder",
    });
    expect(await copiedFiles()).toEqual([
      "results/iteration-3/a.md",
      "team-workspace/docs/x.md",
      "team-workspace/iteration-notes.md",
    ]);
  });
});
