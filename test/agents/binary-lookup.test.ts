import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  explicitBinary,
  installedVersion,
  locateBinary,
  packageDir,
} from "../../src/agents/binary-lookup.js";
import { bundledVersion, locateClaude } from "../../src/agents/claude-code/binary.js";
import { codexVersion, locateCodex } from "../../src/agents/codex/binary.js";
import { geminiVersion, locateGemini } from "../../src/agents/gemini/binary.js";
import { firstRunnable, pathCandidates } from "../../src/executables.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-binary-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("finding an agent's binary", () => {
  it("refuses an --agent-bin that does not exist, naming it (exit 3)", async () => {
    const missing = join(dir, "nope");
    await expect(explicitBinary(missing, "the hint")).rejects.toMatchObject({
      code: "AGENT_UNAVAILABLE",
      message: expect.stringContaining(missing),
    });
  });

  it("says how to get an agent found nowhere (exit 3)", async () => {
    const search = {
      label: "Some CLI",
      command: "some",
      install: "npm install some",
      bundled: async () => undefined,
    };
    await expect(locateBinary(undefined, { PATH: dir }, search)).rejects.toMatchObject({
      code: "AGENT_UNAVAILABLE",
      message: "Some CLI was not found",
      hint: "run `npm install some`, put `some` on PATH, or pass --agent-bin",
    });
  });

  it("finds an npm package's folder, none for a package not installed", () => {
    expect(packageDir("vitest")).toMatch(/[\\/]node_modules[\\/]vitest$/);
    expect(packageDir("no-such-package-of-skillgym")).toBeUndefined();
  });

  it("skips files too small to be the real binary and files it may not run", async () => {
    const placeholder = join(dir, "placeholder");
    const plain = join(dir, "plain");
    const real = join(dir, "real");
    await writeFile(placeholder, "#!/bin/sh\n");
    await chmod(placeholder, 0o755);
    await writeFile(plain, Buffer.alloc(64));
    await writeFile(real, Buffer.alloc(64));
    await chmod(real, 0o755);
    expect(await firstRunnable([placeholder, real], 32)).toBe(real);
    expect(await firstRunnable([plain])).toBeUndefined();
  });

  it("looks for the command in every PATH folder", () => {
    const found = pathCandidates("codex", {
      PATH: ["/a", "", "/b"].join(process.platform === "win32" ? ";" : ":"),
    });
    expect(found.length).toBe(process.platform === "win32" ? 4 : 2);
  });

  it("reads the version of the package a binary belongs to, and none for a stranger's", async () => {
    await mkdir(join(dir, "pkg", "bin"), { recursive: true });
    await writeFile(join(dir, "pkg", "package.json"), JSON.stringify({ name: "ours", version: "1.2.3" }));
    const binary = join(dir, "pkg", "bin", "tool");
    expect(await installedVersion(binary, 2, (pkg) => pkg.name === "ours")).toBe("1.2.3");
    expect(await installedVersion(binary, 2, (pkg) => pkg.name === "theirs")).toBeUndefined();
  });

  it("finds the three agents installed with skillgym and their versions", async () => {
    const claude = await locateClaude(undefined, { PATH: "" });
    const codex = await locateCodex(undefined, { PATH: "" });
    const gemini = await locateGemini(undefined, { PATH: "" });
    expect(await bundledVersion(claude)).toMatch(/^2\.\d+\.\d+$/);
    expect(await codexVersion(codex)).toMatch(/^0\.\d+\.\d+$/);
    expect(await geminiVersion(gemini)).toMatch(/^0\.\d+\.\d+$/);
  });
});
