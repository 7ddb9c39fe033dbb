import { mkdir, realpath, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inside, installFolders, maskedPaths, systemEntries } from "../../src/sandbox/layout.js";
import { systemMasks, unreadableUnder } from "../../src/sandbox/system-masks.js";
import { tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  const made = await tempDir();
  // The real path: the install folders found are real paths.
  dir = await realpath(made.dir);
  cleanup = made.cleanup;
});
afterEach(() => cleanup());

describe("a path inside a folder", () => {
  it("is the folder itself or anything under it, never a sibling or a parent", () => {
    expect(inside("/a/b", "/a/b")).toBe(true);
    expect(inside("/a/b/c/d", "/a/b")).toBe(true);
    expect(inside("/a", "/a/b")).toBe(false);
    expect(inside("/a/bc", "/a/b")).toBe(false);
    expect(inside("/x/b", "/a/b")).toBe(false);
  });
});

describe("the system folders of a host", () => {
  it("binds a real folder, makes a link again, and leaves out a file or a folder the host lacks", async () => {
    await mkdir(join(dir, "usr", "lib"), { recursive: true });
    await symlink("usr/lib", join(dir, "lib"));
    await writeFile(join(dir, "lib32"), "not a folder");
    const entries = await systemEntries([
      join(dir, "usr"),
      join(dir, "lib"),
      join(dir, "lib32"),
      join(dir, "libx32"),
    ]);
    expect(entries).toEqual([{ path: join(dir, "usr") }, { path: join(dir, "lib"), link: "usr/lib" }]);
  });

  it("are this host's /usr and /etc at least", async () => {
    const entries = await systemEntries();
    expect(entries).toContainEqual({ path: "/usr" });
    expect(entries).toContainEqual({ path: "/etc" });
  });
});

describe("the secrets a sandbox covers", () => {
  it("are the named files that exist, once each, and the unreadable files outside a covered folder", async () => {
    await writeTree(dir, { shadow: "x", gshadow: "x", "closed/key": "x", "open/secret": "x" });
    await mkdir(join(dir, "sudoers.d"));
    const found = {
      files: [join(dir, "gshadow"), join(dir, "open", "secret"), join(dir, "closed", "key")],
      folders: [join(dir, "closed"), join(dir, "closed-too")],
    };
    const paths = await maskedPaths(
      [join(dir, "shadow"), join(dir, "gshadow"), join(dir, "sudoers"), join(dir, "sudoers.d")],
      found,
    );
    expect(paths).toEqual({
      masked: [join(dir, "shadow"), join(dir, "gshadow"), join(dir, "open", "secret")],
      maskedFolders: [join(dir, "closed"), join(dir, "closed-too")],
    });
  });

  it("are, by default, this host's named secrets and what /etc's modes close", async () => {
    const paths = await maskedPaths();
    const etc = unreadableUnder("/etc");
    expect(paths.maskedFolders).toEqual(etc.folders);
    for (const file of etc.files) expect(paths.masked).toContain(file);
    expect(new Set(paths.masked).size).toBe(paths.masked.length);
  });

  it("walks /etc once per process", () => {
    expect(systemMasks()).toBe(systemMasks());
    expect(systemMasks()).toEqual(unreadableUnder("/etc"));
  });
});

describe("the folders a command needs to read", () => {
  // The Node running these tests: its own folder, or the node_modules holding it (an npm-installed Node).
  const node = async () => (await installFolders({ command: process.execPath, args: [] }, []))[0];

  it("are an npm agent's node_modules, a script's folder, and the Node skillgym runs on", async () => {
    await writeTree(dir, {
      "pkg/node_modules/@scope/agent/bin/agent.js": "",
      "tools/run.sh": "",
      "tools/other.sh": "",
      "tools/deep/inner.sh": "",
      "plain/bin/tool": "",
    });
    const agent = join(dir, "pkg/node_modules/@scope/agent/bin/agent.js");
    const folders = await installFolders(
      {
        command: agent,
        args: [
          "relative.sh",
          "package.json",
          join(dir, "tools/run.sh"),
          join(dir, "tools/deep/inner.sh"),
          join(dir, "tools/other.sh"),
          join(dir, "missing.sh"),
          join(dir, "plain"),
          join(dir, "plain/bin/tool"),
        ],
      },
      [],
    );
    expect(folders).toEqual([
      join(dir, "pkg/node_modules"),
      await node(),
      join(dir, "tools"),
      join(dir, "plain/bin"),
    ]);
  });

  it("follow a linked command to its real file", async () => {
    await writeTree(dir, { "real/bin/agent": "" });
    await symlink(join(dir, "real/bin/agent"), join(dir, "agent"));
    const folders = await installFolders({ command: join(dir, "agent"), args: [] }, []);
    expect(folders).toContain(join(dir, "real/bin"));
    expect(folders).not.toContain(dir);
  });

  it("leave out what a bound system folder already shows, but not what lies under a system link", async () => {
    await writeTree(dir, { "sys/bin/tool": "" });
    const command = { command: join(dir, "sys/bin/tool"), args: [] };
    expect(await installFolders(command, [{ path: join(dir, "sys") }])).not.toContain(join(dir, "sys/bin"));
    expect(await installFolders(command, [{ path: join(dir, "sys"), link: "usr" }])).toContain(
      join(dir, "sys/bin"),
    );
    expect(await installFolders(command, [{ path: (await node()) ?? "" }])).toEqual([join(dir, "sys/bin")]);
  });

  it("stop at the root when no node_modules holds the file", async () => {
    await writeTree(dir, { "a/b/c/tool": "" });
    expect(await installFolders({ command: join(dir, "a/b/c/tool"), args: [] }, [])).toContain(
      join(dir, "a/b/c"),
    );
  });
});
