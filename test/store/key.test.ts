import { rename, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hashFileIfAny, hashTree, storeKey } from "../../src/store/index.js";
import { tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe("storeKey", () => {
  it("is the same for the same parts in any key order, at every level", () => {
    const key = storeKey({ kind: "eval-run", agent: { name: "claude-code", version: "2" }, run: 1 });
    expect(storeKey({ run: 1, agent: { version: "2", name: "claude-code" }, kind: "eval-run" })).toBe(key);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
  });

  it("changes with any value, and with the order of a list", () => {
    const key = storeKey({ prompt: "Make a card", files: ["a", "b"] });
    expect(storeKey({ prompt: "Make a blue card", files: ["a", "b"] })).not.toBe(key);
    expect(storeKey({ prompt: "Make a card", files: ["b", "a"] })).not.toBe(key);
  });
});

describe("hashTree", () => {
  it("is the same for the same content and changes with a file's bytes, its name, or a link's target", async () => {
    const ws = join(dir, "ws");
    await writeTree(ws, { "a.txt": "one", "sub/b.txt": "two", "c.txt": "three" });
    await symlink("a.txt", join(ws, "link"));
    const first = await hashTree(ws);
    expect(await hashTree(ws)).toBe(first);

    await writeFile(join(ws, "a.txt"), "ONE");
    const edited = await hashTree(ws);
    expect(edited).not.toBe(first);

    await rename(join(ws, "sub", "b.txt"), join(ws, "sub", "renamed.txt"));
    const renamed = await hashTree(ws);
    expect(renamed).not.toBe(edited);

    await rm(join(ws, "link"));
    await symlink("c.txt", join(ws, "link"));
    expect(await hashTree(ws)).not.toBe(renamed);
  });
});

describe.skipIf(process.platform === "win32")("hashTree with a backslash in a name", () => {
  it("tells a file named a\\b from a file b in a folder a", async () => {
    await writeTree(join(dir, "flat"), { "a\\b": "same" });
    await writeTree(join(dir, "nested"), { "a/b": "same" });
    expect(await hashTree(join(dir, "flat"))).not.toBe(await hashTree(join(dir, "nested")));
  });
});

describe("hashFileIfAny", () => {
  it("hashes a file's bytes, and is null for no file or a missing one", async () => {
    await writeTree(dir, { "script.json": "{}" });
    const hash = await hashFileIfAny(join(dir, "script.json"));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    await writeFile(join(dir, "script.json"), "{ }");
    expect(await hashFileIfAny(join(dir, "script.json"))).not.toBe(hash);
    expect(await hashFileIfAny(join(dir, "absent.json"))).toBeNull();
    expect(await hashFileIfAny(undefined)).toBeNull();
  });
});
