import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundledCandidates, INSTALL_COMMAND, locateCodex } from "../../../src/agents/codex/binary.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-codex-bin-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("locateCodex", () => {
  it("an explicit path as given, a missing one refused with the install command", async () => {
    const fake = join(dir, "explicit", "codex");
    await mkdir(join(fake, ".."), { recursive: true });
    await writeFile(fake, "#!/bin/sh\n", { mode: 0o755 });
    expect(await locateCodex(fake, { PATH: "" })).toBe(fake);
    await expect(locateCodex(join(dir, "missing"), { PATH: "" })).rejects.toMatchObject({
      code: "AGENT_UNAVAILABLE",
      hint: "pass the path of a Codex CLI binary to --agent-bin, or install it: npm install @openai/codex",
    });
    expect(INSTALL_COMMAND).toBe("npm install @openai/codex");
  });

  it("then codex on PATH; else a hint naming both", async () => {
    const onPath = join(dir, "path", "codex");
    await mkdir(join(onPath, ".."), { recursive: true });
    await writeFile(onPath, "#!/bin/sh\n", { mode: 0o755 });
    expect(await locateCodex(undefined, { PATH: join(onPath, "..") }, () => [])).toBe(onPath);
    await expect(locateCodex(undefined, { PATH: dir }, () => [])).rejects.toMatchObject({
      code: "AGENT_UNAVAILABLE",
      message: "Codex CLI was not found",
      hint: "run `npm install @openai/codex`, put `codex` on PATH, or pass --agent-bin",
    });
  });
});

describe("bundledCandidates", () => {
  const installed = (names: string[]) => (name: string) =>
    names.includes(name) ? join("/nm", name) : undefined;
  const linux = `@openai/codex-linux-${process.arch}`;
  const target = process.arch === "arm64" ? "aarch64-unknown-linux-musl" : "x86_64-unknown-linux-musl";

  it("the platform package's native binary, then the one in @openai/codex, each only when installed", () => {
    expect(bundledCandidates("linux", installed([linux, "@openai/codex"]))).toEqual([
      join("/nm", linux, "vendor", target, "bin", "codex"),
      join("/nm", "@openai/codex", "vendor", target, "bin", "codex"),
    ]);
    expect(bundledCandidates("linux", installed(["@openai/codex"]))).toEqual([
      join("/nm", "@openai/codex", "vendor", target, "bin", "codex"),
    ]);
    expect(bundledCandidates("linux", installed([]))).toEqual([]);
  });

  it("codex.exe on Windows, and none on a platform Codex ships no binary for", () => {
    const win = `@openai/codex-win32-${process.arch}`;
    const winTarget = process.arch === "arm64" ? "aarch64-pc-windows-msvc" : "x86_64-pc-windows-msvc";
    expect(bundledCandidates("win32", installed([win]))).toEqual([
      join("/nm", win, "vendor", winTarget, "bin", "codex.exe"),
    ]);
    expect(
      bundledCandidates("aix", installed([`@openai/codex-aix-${process.arch}`, "@openai/codex"])),
    ).toEqual([]);
  });
});
