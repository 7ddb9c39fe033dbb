import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundledVersion } from "../../src/agents/claude-code/binary.js";
import { codexVersion } from "../../src/agents/codex/binary.js";
import { builtinSkillsDir, commandLine, geminiVersion } from "../../src/agents/gemini/binary.js";
import {
  INSTALL_COMMAND,
  locateQwen,
  qwenPackageDir,
  qwenVersion,
} from "../../src/agents/qwen-code/binary.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-binary-versions-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// A fake package: `file` (package.json by default) in `root`, the binary `depth` folders below it.
async function fakePackage(
  name: string,
  content: object,
  depth: number,
  file = "package.json",
): Promise<string> {
  const root = join(dir, name);
  const bin = join(root, ...Array.from({ length: depth }, (_, i) => `d${i}`));
  await mkdir(bin, { recursive: true });
  await writeFile(join(root, file), JSON.stringify(content));
  return join(bin, "binary");
}

describe("the version beside each agent's binary", () => {
  it("Claude Code: its package or a platform package, up to one folder above", async () => {
    expect(
      await bundledVersion(
        await fakePackage("cc-1", { name: "@anthropic-ai/claude-code", version: "2.1.0" }, 1),
      ),
    ).toBe("2.1.0");
    expect(
      await bundledVersion(
        await fakePackage("cc-2", { name: "@anthropic-ai/claude-code-linux-x64", version: "2.2.0" }, 0),
      ),
    ).toBe("2.2.0");
    expect(
      await bundledVersion(await fakePackage("cc-3", { name: "@anthropic-ai/claude-code", version: "2" }, 2)),
    ).toBeUndefined();
    expect(
      await bundledVersion(
        await fakePackage("cc-4", { name: "x@anthropic-ai/claude-code", version: "2" }, 0),
      ),
    ).toBeUndefined();
  });

  it("Gemini CLI: its package, up to two folders above", async () => {
    expect(
      await geminiVersion(await fakePackage("g-1", { name: "@google/gemini-cli", version: "0.61.0" }, 2)),
    ).toBe("0.61.0");
    expect(
      await geminiVersion(await fakePackage("g-2", { name: "@google/gemini-cli", version: "0.61.0" }, 3)),
    ).toBeUndefined();
    expect(
      await geminiVersion(await fakePackage("g-3", { name: "@google/gemini-cli-core", version: "1" }, 0)),
    ).toBeUndefined();
    expect(
      await geminiVersion(await fakePackage("g-4", { name: "@google/gemini-cli", version: 1 }, 0)),
    ).toBeUndefined();
  });

  it("Codex CLI: codex-package.json or its package, up to three folders above, without a pre-release tag", async () => {
    expect(
      await codexVersion(
        await fakePackage("c-1", { variant: "codex", version: "0.169.0-alpha.3" }, 3, "codex-package.json"),
      ),
    ).toBe("0.169.0");
    expect(
      await codexVersion(
        await fakePackage("c-2", { name: "@openai/codex-linux-x64", version: "0.170.1" }, 0),
      ),
    ).toBe("0.170.1");
    expect(
      await codexVersion(await fakePackage("c-3", { name: "@openai/codex", version: "0.1.0" }, 4)),
    ).toBeUndefined();
    expect(
      await codexVersion(await fakePackage("c-4", { variant: "other", version: "1.0.0" }, 0)),
    ).toBeUndefined();
    expect(await codexVersion(await fakePackage("c-5", { name: "@openai/codex" }, 0))).toBeUndefined();
    expect(
      await codexVersion(await fakePackage("c-6", { name: "@openai/codex", version: "1.2.3-1" }, 0)),
    ).toBe("1.2.3-1");
    // Another package's version is not Codex's.
    expect(
      await codexVersion(await fakePackage("c-7", { name: "left-pad", version: "9.9.9" }, 0)),
    ).toBeUndefined();
  });

  it("Codex CLI: a codex-package.json without a version passes on to the package above it", async () => {
    const binary = await fakePackage("c-8", { name: "@openai/codex", version: "2.0.0" }, 1);
    await writeFile(join(dir, "c-8", "d0", "codex-package.json"), JSON.stringify({ variant: "codex" }));
    expect(await codexVersion(binary)).toBe("2.0.0");
  });

  it("Qwen Code: its package, up to one folder above", async () => {
    expect(
      await qwenVersion(await fakePackage("q-1", { name: "@qwen-code/qwen-code", version: "0.24.4" }, 1)),
    ).toBe("0.24.4");
    expect(
      await qwenVersion(await fakePackage("q-2", { name: "@qwen-code/qwen-code", version: "0.24.4" }, 2)),
    ).toBeUndefined();
    expect(
      await qwenVersion(await fakePackage("q-3", { name: "@qwen-code/qwen-code-core", version: "1" }, 0)),
    ).toBeUndefined();
  });
});

describe("locateQwen", () => {
  it("an explicit path, else the installed package's entry script, else qwen on PATH, else the install hint", async () => {
    const bin = join(dir, "qwen-bin");
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, "qwen"), "#!/bin/sh\n", { mode: 0o755 });
    expect(await locateQwen(join(bin, "qwen"), { PATH: "" })).toBe(join(bin, "qwen"));
    expect(INSTALL_COMMAND).toBe("npm install @qwen-code/qwen-code");
    const installed = qwenPackageDir();
    if (installed !== undefined)
      expect(await locateQwen(undefined, { PATH: bin })).toBe(join(installed, "cli-entry.js"));
    const none = async () => undefined;
    expect(await locateQwen(undefined, { PATH: bin }, none)).toBe(join(bin, "qwen"));
    await expect(locateQwen(undefined, { PATH: join(dir, "nothing") }, none)).rejects.toMatchObject({
      code: "AGENT_UNAVAILABLE",
      message: "Qwen Code was not found",
      hint: "run `npm install @qwen-code/qwen-code`, put `qwen` on PATH, or pass --agent-bin",
    });
  });
});

describe("Gemini CLI's command line and built-in skills", () => {
  it("runs a JavaScript entry under this Node", () => {
    expect(commandLine("/p/gemini.js", ["-p"])).toEqual({
      command: process.execPath,
      args: ["/p/gemini.js", "-p"],
    });
    expect(commandLine("/p/gemini.mjs", [])).toEqual({ command: process.execPath, args: ["/p/gemini.mjs"] });
    expect(commandLine("/p/gemini", ["-p"])).toEqual({ command: "/p/gemini", args: ["-p"] });
    expect(commandLine("/p/gemini.json", [])).toEqual({ command: "/p/gemini.json", args: [] });
    expect(builtinSkillsDir("/p/bundle/gemini.js")).toBe(join("/p/bundle", "builtin"));
  });
});
