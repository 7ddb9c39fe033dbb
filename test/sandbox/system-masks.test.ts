import { statSync } from "node:fs";
import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { systemMasks, unreadableUnder } from "../../src/sandbox/index.js";
import { tempDir } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await chmod(join(dir, "etc", "private"), 0o755).catch(() => {});
  await cleanup();
});

async function file(path: string, mode: number): Promise<string> {
  const full = join(dir, "etc", path);
  await mkdir(join(full, ".."), { recursive: true });
  await writeFile(full, "x");
  await chmod(full, mode);
  return full;
}

describe("the masks of a system folder", () => {
  it("lists the files others may not read and the folders they may not list or enter, and no more", async () => {
    const root = join(dir, "etc");
    const secret = await file("security/opasswd", 0o600);
    const groupOnly = await file("db/hba.conf", 0o640);
    await file("hostname", 0o644);
    await file("security/limits.conf", 0o644);
    await file("bin/run", 0o755);
    await file("private/key.pem", 0o600);
    await file("listable-not/inner", 0o644);
    await chmod(join(root, "private"), 0o700);
    await chmod(join(root, "listable-not"), 0o711);
    await symlink(secret, join(root, "link-to-secret"));

    const masks = unreadableUnder(root);
    expect(masks.files.sort()).toEqual([groupOnly, secret].sort());
    // A covered folder is not walked: its files are not listed one by one.
    expect(masks.folders.sort()).toEqual([join(root, "listable-not"), join(root, "private")]);
  });

  it("walks each folder once per process, and another folder for itself", async () => {
    const secret = await file("shadow", 0o600);
    const root = join(dir, "etc");
    const masks = systemMasks(root);
    expect(systemMasks(root)).toBe(masks);
    expect(masks).toEqual({ files: [secret], folders: [] });
    expect(systemMasks(dir)).not.toBe(masks);
  });

  it("lists nothing under a folder that does not exist", () => {
    expect(unreadableUnder(join(dir, "none"))).toEqual({ files: [], folders: [] });
  });

  // /etc/shadow is kept from others on the usual Linux system.
  const shadow = statSync("/etc/shadow", { throwIfNoEntry: false });
  it.skipIf(!shadow || (shadow.mode & 0o004) !== 0)(
    "covers what others may not read under /etc, and only there",
    () => {
      const masks = systemMasks();
      expect(masks.files).toContain("/etc/shadow");
      expect([...masks.files, ...masks.folders].every((path) => path.startsWith("/etc/"))).toBe(true);
    },
  );
});
