import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isRunnable, pathCandidates } from "../src/executables.js";

let dir: string;
const platform = process.platform;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-executables-"));
});
afterEach(async () => {
  Object.defineProperty(process, "platform", { value: platform });
  await rm(dir, { recursive: true, force: true });
});

function pretend(os: NodeJS.Platform): void {
  Object.defineProperty(process, "platform", { value: os });
}

describe("isRunnable", () => {
  it("takes a file of exactly the least size, and refuses one a byte shorter", async () => {
    const file = join(dir, "tool");
    await writeFile(file, Buffer.alloc(32));
    await chmod(file, 0o755);
    expect(await isRunnable(file, 32)).toBe(true);
    expect(await isRunnable(file, 33)).toBe(false);
  });

  it("refuses a file with no execute bit, even to root, and a folder", async () => {
    const file = join(dir, "plain");
    await writeFile(file, "data");
    await chmod(file, 0o644);
    expect(await isRunnable(file)).toBe(false);
    expect(await isRunnable(dir)).toBe(false);
    expect(await isRunnable(join(dir, "missing"))).toBe(false);
  });

  it("on Windows, where there is no execute bit, takes any file that exists", async () => {
    const file = join(dir, "plain.exe");
    await writeFile(file, "data");
    await chmod(file, 0o644);
    pretend("win32");
    expect(await isRunnable(file)).toBe(true);
  });
});

describe("pathCandidates", () => {
  it("names the command in each PATH folder, skipping empty entries", () => {
    pretend("linux");
    expect(pathCandidates("codex", { PATH: "/a::/b" })).toEqual(["/a/codex", "/b/codex"]);
  });

  it("on Windows, names its .exe and .cmd in each folder", () => {
    pretend("win32");
    expect(pathCandidates("codex", { PATH: "/a" })).toEqual(["/a/codex.exe", "/a/codex.cmd"]);
  });

  it("names nothing when PATH is unset", () => {
    expect(pathCandidates("codex", {})).toEqual([]);
  });
});
