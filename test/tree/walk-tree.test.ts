import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeLink, resolveLink, type TreeSkip, walkTree } from "../../src/tree/links.js";

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "skillgym-walk-")));
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function files(tree: string[]): Promise<void> {
  for (const rel of tree) {
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), rel, "utf8");
  }
}

const paths = async (skip?: TreeSkip) => {
  const walk = await walkTree(root, skip);
  return { files: walk.files.map((f) => f.path), leftOut: walk.leftOut, problems: walk.problems };
};

describe.skipIf(process.platform === "win32")("walking a folder by the one link rule", () => {
  it("lists files in nested folders by their path from the root, sorted whatever order the disk gives", async () => {
    // Neither creation order nor its reverse is sorted; `a-b` sorts before `a/…` though read after it.
    await files([
      "m.md",
      "c.md",
      "x.md",
      "a/z.md",
      "q.md",
      "a-b.md",
      "b/k/j.md",
      "e.md",
      "a.md",
      "y.md",
      "d.md",
    ]);
    const walk = await walkTree(root);
    expect(walk.files.map((f) => f.path)).toEqual([
      "a-b.md",
      "a.md",
      "a/z.md",
      "b/k/j.md",
      "c.md",
      "d.md",
      "e.md",
      "m.md",
      "q.md",
      "x.md",
      "y.md",
    ]);
    expect(walk.files.find((f) => f.path === "b/k/j.md")?.absolutePath).toBe(join(root, "b", "k", "j.md"));
  });

  it("lists a link inside the root under its own name, with its target's mode", async () => {
    await files(["refs/real.md", "run.sh"]);
    await chmod(join(root, "run.sh"), 0o755);
    await symlink("refs/real.md", join(root, "alias.md"));
    await symlink("refs", join(root, "docs"));
    await symlink("run.sh", join(root, "start"));
    const walk = await walkTree(root);
    expect(walk.files.map((f) => f.path)).toEqual([
      "alias.md",
      "docs/real.md",
      "refs/real.md",
      "run.sh",
      "start",
    ]);
    expect(walk.files.find((f) => f.path === "start")?.mode).toBe(
      walk.files.find((f) => f.path === "run.sh")?.mode,
    );
    expect((walk.files.find((f) => f.path === "start")?.mode ?? 0) & 0o777).toBe(0o755);
    expect(walk.problems).toEqual([]);
  });

  it("reports links that leave the root or loop, sorted, and follows none of them", async () => {
    const outside = await realpath(await mkdtemp(join(tmpdir(), "skillgym-walk-out-")));
    try {
      await files(["SKILL.md", "sub/deep/note.md"]);
      await writeFile(join(outside, "secret"), "secret");
      await symlink(join(outside, "secret"), join(root, "zz-leak"));
      await symlink(outside, join(root, "b-out"));
      await symlink("ring-b", join(root, "ring-a"));
      await symlink("ring-a", join(root, "ring-b"));
      await symlink("..", join(root, "sub", "up"));
      await symlink("..", join(root, "sub", "deep", "parent"));
      await symlink(".", join(root, "self"));
      // Read after `sub/…` (each folder is read in name order) yet sorted before it.
      await symlink(outside, join(root, "sub-out"));
      expect(await paths()).toEqual({
        files: ["SKILL.md", "sub/deep/note.md"],
        leftOut: [],
        problems: [
          { path: "b-out", target: outside, problem: "outside" },
          { path: "ring-a", target: "ring-b", problem: "loop" },
          { path: "ring-b", target: "ring-a", problem: "loop" },
          { path: "self", target: ".", problem: "loop" },
          { path: "sub-out", target: outside, problem: "outside" },
          { path: "sub/deep/parent", target: "..", problem: "loop" },
          { path: "sub/up", target: "..", problem: "loop" },
          { path: "zz-leak", target: join(outside, "secret"), problem: "outside" },
        ],
      });
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("leaves out a link the skip rule names, as a file or as a folder, instead of reporting it", async () => {
    await files(["SKILL.md", "sub/a.md"]);
    await symlink("/etc/hostname", join(root, "host"));
    await symlink("/etc", join(root, "etc"));
    await symlink("/usr", join(root, "usr"));
    await symlink("..", join(root, "sub", "up"));
    await symlink("..", join(root, "sub", "back"));
    // A rule like a .gitignore's: `host` matches files only, `etc/` and `up/` folders only.
    const skip: TreeSkip = (rel, isDir) =>
      (rel === "host" && !isDir) || (isDir && ["etc", "sub/up"].includes(rel));
    expect(await paths(skip)).toEqual({
      files: ["SKILL.md", "sub/a.md"],
      leftOut: ["etc", "host", "sub/up/"],
      problems: [
        { path: "sub/back", target: "..", problem: "loop" },
        { path: "usr", target: "/usr", problem: "outside" },
      ],
    });
  });

  it("leaves out what the skip rule names, folders with a trailing slash, sorted, and tells it folders from files", async () => {
    await files([
      "SKILL.md",
      "out/bundle.js",
      "src/out",
      "src/main.ts",
      "node_modules/x/index.js",
      "a.log",
      "z.log",
      "lib/x.log",
      "lib-old.log",
    ]);
    const seen: [string, boolean, string | undefined][] = [];
    const skip: TreeSkip = (rel, isDir, absolutePath) => {
      seen.push([rel, isDir, absolutePath]);
      return (isDir && basename(rel) === "out") || rel === "node_modules" || rel.endsWith(".log");
    };
    expect(await paths(skip)).toEqual({
      files: ["SKILL.md", "src/main.ts", "src/out"],
      leftOut: ["a.log", "lib-old.log", "lib/x.log", "node_modules/", "out/", "z.log"],
      problems: [],
    });
    expect(seen).toContainEqual(["src/out", false, join(root, "src", "out")]);
    expect(seen).toContainEqual(["out", true, join(root, "out")]);
  });

  it("leaves out a link whose target the skip rule leaves out, so a secret ships under no other name", async () => {
    await files(["SKILL.md", ".env", "private/key.pem"]);
    await symlink(".env", join(root, "config"));
    await symlink("private", join(root, "keys"));
    const skip: TreeSkip = (rel) => rel === ".env" || rel === "private";
    expect(await paths(skip)).toEqual({
      files: ["SKILL.md"],
      leftOut: [".env", "config", "keys/", "private/"],
      problems: [],
    });
  });

  it("passes over sockets and other entries that are neither files nor folders", async () => {
    await files(["SKILL.md"]);
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(join(root, "agent.sock"), resolve));
    try {
      await symlink("agent.sock", join(root, "sock-link"));
      expect(await paths()).toEqual({ files: ["SKILL.md"], leftOut: [], problems: [] });
      expect(await resolveLink(root, join(root, "sock-link"))).toMatchObject({
        status: "inside",
        kind: "other",
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("resolves a link that loops as a loop, a folder link as a folder, and a plain file with no target", async () => {
    await files(["refs/a.md"]);
    await symlink("ring-b", join(root, "ring-a"));
    await symlink("ring-a", join(root, "ring-b"));
    await symlink("refs", join(root, "docs"));
    expect(await resolveLink(root, join(root, "ring-a"))).toEqual({ status: "loop", target: "ring-b" });
    expect(await resolveLink(root, join(root, "docs"))).toEqual({
      status: "inside",
      target: "refs",
      real: join(root, "refs"),
      kind: "dir",
    });
    expect(await resolveLink(root, join(root, "refs", "a.md"))).toEqual({
      status: "inside",
      target: "",
      real: join(root, "refs", "a.md"),
      kind: "file",
    });
  });
});

describe("how a link problem reads", () => {
  it("says a link outside is never followed, and a looping one is not followed", () => {
    expect(describeLink({ path: "refs/etc", target: "/etc", problem: "outside" }, "/w/skill")).toBe(
      '"refs/etc" is a link to /etc, outside /w/skill; it is never followed, copied or packaged',
    );
    expect(describeLink({ path: "up", target: "..", problem: "loop" }, "/w/skill")).toBe(
      '"up" is a link to .., which loops back on itself; it is not followed',
    );
  });
});
