import { mkdir, symlink } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hashTree, storeKey } from "../../src/store/index.js";
import { tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

// A change to how keys are made throws away every store users have: these values are fixed on purpose.
describe("the key format", () => {
  it("gives a fixed key for fixed parts", () => {
    expect(
      storeKey({ kind: "eval-run", run: 2, agent: { name: "claude-code", flags: ["a", "b"] }, off: null }),
    ).toBe(
      storeKey({ off: null, agent: { flags: ["a", "b"], name: "claude-code" }, run: 2, kind: "eval-run" }),
    );
    expect(storeKey({ b: 1, a: { d: [2, { f: true, e: "x" }], c: "y" } })).toBe(
      "4687150f0f4fdf92604f528f76dac3d54b05bd55f26d402ad21e11874e28bca4",
    );
  });

  it("tells apart a list, an object with its indices, a string and its characters, and two numbers", () => {
    expect(storeKey({ x: ["a"] })).not.toBe(storeKey({ x: { 0: "a" } }));
    expect(storeKey({ x: "ab" })).not.toBe(storeKey({ x: { 0: "a", 1: "b" } }));
    expect(storeKey({ run: 1 })).not.toBe(storeKey({ run: 2 }));
    expect(storeKey({ on: true })).not.toBe(storeKey({ on: false }));
  });

  it("leaves out a part that is undefined, as if it were not given", () => {
    expect(storeKey({ a: 1, b: undefined })).toBe(storeKey({ a: 1 }));
  });

  it("gives a fixed workspace hash, the same wherever the folder is", async () => {
    const tree = {
      "b.txt": "two",
      "a.txt": "one",
      "sub/c.txt": "three",
      "sub/deeper/d.txt": "",
      "z.md": "z",
    };
    const first = join(dir, "one", "ws");
    const second = join(dir, "elsewhere-with-a-longer-name");
    await writeTree(first, tree);
    await writeTree(second, tree);
    for (const root of [first, second]) {
      await mkdir(join(root, "empty"));
      await symlink("a.txt", join(root, "link"));
    }
    expect(await hashTree(first)).toBe(await hashTree(second));
    expect(await hashTree(first)).toBe("a34dbbe3293d8a8205af9545040d2404b219d2c43f179e0352343f02f595fdc9");
  });

  it("changes the workspace hash with an empty folder", async () => {
    await writeTree(dir, { "a.txt": "one" });
    const before = await hashTree(dir);
    await mkdir(join(dir, "empty"));
    expect(await hashTree(dir)).not.toBe(before);
  });

  it("leaves out what is neither a file, a link nor a folder (a socket)", async () => {
    await writeTree(dir, { "a.txt": "one" });
    const before = await hashTree(dir);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(dir, "agent.sock"), resolve));
    try {
      expect(await hashTree(dir)).toBe(before);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
