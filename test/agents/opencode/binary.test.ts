import { mkdir, mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageDir } from "../../../src/agents/binary-lookup.js";
import {
  bundledCandidates,
  INSTALL_COMMAND,
  locateOpenCode,
  openCodeVersion,
} from "../../../src/agents/opencode/binary.js";
import { findRipgrep, RIPGREP_WARNING } from "../../../src/agents/opencode/ripgrep.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-opencode-bin-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function executable(path: string, bytes = 0): Promise<string> {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, "#!/bin/sh\n", { mode: 0o755 });
  if (bytes > 0) await truncate(path, bytes);
  return path;
}

describe("locateOpenCode", () => {
  it("an explicit path as given, a missing one refused with the install command", async () => {
    const fake = await executable(join(dir, "explicit", "opencode"));
    expect(await locateOpenCode(fake, { PATH: "" })).toBe(fake);
    await expect(locateOpenCode(join(dir, "missing"), { PATH: "" })).rejects.toMatchObject({
      code: "AGENT_UNAVAILABLE",
      hint: "pass the path of a OpenCode binary to --agent-bin, or install it: npm install opencode-ai",
    });
    expect(INSTALL_COMMAND).toBe("npm install opencode-ai");
  });

  it("the native binary of the platform package npm installed comes before PATH", async () => {
    const os = process.platform === "win32" ? "windows" : process.platform;
    const base = `opencode-${os}-${process.arch}`;
    const native = [base, `${base}-baseline`, `${base}-musl`, `${base}-baseline-musl`]
      .map((name) => packageDir(name))
      .find((found) => found !== undefined);
    if (!native) return;
    const onPath = await executable(join(dir, "path-big", "opencode"), 1_000_000);
    expect(await locateOpenCode(undefined, { PATH: join(onPath, "..") })).toBe(
      join(native, "bin", "opencode"),
    );
    expect(await openCodeVersion(join(native, "bin", "opencode"))).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("then opencode on PATH, a stub smaller than the real binary skipped; else a hint naming both", async () => {
    const stub = await executable(join(dir, "path-stub", "opencode"), 1000);
    const real = await executable(join(dir, "path-real", "opencode"), 1_000_000);
    const PATH = [join(stub, ".."), join(real, "..")].join(delimiter);
    expect(await locateOpenCode(undefined, { PATH }, () => [])).toBe(real);
    await expect(locateOpenCode(undefined, { PATH: join(stub, "..") }, () => [])).rejects.toMatchObject({
      code: "AGENT_UNAVAILABLE",
      message: "OpenCode was not found",
      hint: "run `npm install opencode-ai`, put `opencode` on PATH, or pass --agent-bin",
    });
  });
});

describe("bundledCandidates", () => {
  const installed = (names: string[]) => (name: string) =>
    names.includes(name) ? join("/nm", name) : undefined;
  const base = `opencode-linux-${process.arch}`;

  it("each platform package's binary in order, then the one opencode-ai links", () => {
    const all = [base, `${base}-baseline`, `${base}-musl`, `${base}-baseline-musl`, "opencode-ai"];
    expect(bundledCandidates("linux", installed(all))).toEqual([
      join("/nm", base, "bin", "opencode"),
      join("/nm", `${base}-baseline`, "bin", "opencode"),
      join("/nm", `${base}-musl`, "bin", "opencode"),
      join("/nm", `${base}-baseline-musl`, "bin", "opencode"),
      join("/nm", "opencode-ai", "bin", "opencode.exe"),
    ]);
    expect(bundledCandidates("linux", installed([`${base}-musl`]))).toEqual([
      join("/nm", `${base}-musl`, "bin", "opencode"),
    ]);
    expect(bundledCandidates("linux", installed([]))).toEqual([]);
  });

  it("names Windows' packages windows and their binaries opencode.exe", () => {
    const win = `opencode-windows-${process.arch}`;
    expect(bundledCandidates("win32", installed([win, "opencode-ai"]))).toEqual([
      join("/nm", win, "bin", "opencode.exe"),
      join("/nm", "opencode-ai", "bin", "opencode.exe"),
    ]);
    expect(bundledCandidates("darwin", installed([`opencode-darwin-${process.arch}`]))).toEqual([
      join("/nm", `opencode-darwin-${process.arch}`, "bin", "opencode"),
    ]);
  });
});

describe("openCodeVersion", () => {
  it("reads the package.json of opencode-ai or a platform package up to two folders above, and no other", async () => {
    const write = async (folder: string, pkg: object) => {
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, "package.json"), JSON.stringify(pkg));
    };
    await write(join(dir, "v-platform"), { name: "opencode-darwin-arm64", version: "1.2.3" });
    expect(await openCodeVersion(join(dir, "v-platform", "bin", "opencode"))).toBe("1.2.3");
    await write(join(dir, "v-wrapper"), { name: "opencode-ai", version: "2.0.0" });
    expect(await openCodeVersion(join(dir, "v-wrapper", "bin", "opencode.exe"))).toBe("2.0.0");
    await write(join(dir, "v-other"), { name: "my-opencode-tool", version: "3" });
    expect(await openCodeVersion(join(dir, "v-other", "bin", "opencode"))).toBeUndefined();
    await write(join(dir, "v-deep"), { name: "opencode-ai", version: "4" });
    expect(await openCodeVersion(join(dir, "v-deep", "a", "b", "opencode"))).toBeUndefined();
    await write(join(dir, "v-nameless"), { version: "5" });
    expect(await openCodeVersion(join(dir, "v-nameless", "opencode"))).toBeUndefined();
  });
});

describe("findRipgrep", () => {
  it("takes rg on PATH first", async () => {
    const rg = await executable(join(dir, "rg-path", "rg"));
    const cache = await executable(join(dir, "xdg", "opencode", "bin", "rg"));
    expect(cache).toBe(join(dir, "xdg", "opencode", "bin", "rg"));
    expect(await findRipgrep({ PATH: join(dir, "rg-path"), XDG_CACHE_HOME: join(dir, "xdg") })).toEqual({
      path: rg,
      onPath: true,
    });
  });

  it("then the copy OpenCode downloaded into the user's cache (XDG_CACHE_HOME, else HOME/.cache)", async () => {
    expect(await findRipgrep({ PATH: join(dir, "nothing"), XDG_CACHE_HOME: join(dir, "xdg") })).toEqual({
      path: join(dir, "xdg", "opencode", "bin", "rg"),
      onPath: false,
    });
    const userHome = join(dir, "user");
    const rg = await executable(join(userHome, ".cache", "opencode", "bin", "rg"));
    expect(await findRipgrep({ PATH: "", XDG_CACHE_HOME: "", HOME: userHome })).toEqual({
      path: rg,
      onPath: false,
    });
  });

  it("looks for rg.exe on Windows", async () => {
    const rg = await executable(join(dir, "xdg-win", "opencode", "bin", "rg.exe"));
    expect(await findRipgrep({ PATH: "", XDG_CACHE_HOME: join(dir, "xdg-win") }, "win32")).toEqual({
      path: rg,
      onPath: false,
    });
  });

  it("then the one Codex CLI's platform package ships, else nothing", async () => {
    const codex = packageDir(`@openai/codex-${process.platform}-${process.arch}`);
    const found = await findRipgrep({ PATH: "", HOME: join(dir, "nobody") });
    if (codex) {
      expect(found?.onPath).toBe(false);
      expect(found?.path.startsWith(join(codex, "vendor"))).toBe(true);
      expect(found?.path.endsWith(join("codex-path", "rg"))).toBe(true);
    } else expect(found).toBeUndefined();
    expect(RIPGREP_WARNING).toBe(
      "ripgrep (rg) was not found: OpenCode's skill, glob and grep tools need it, so OpenCode downloads it from GitHub " +
        "in every run (each run has its own home) and a skill load fails offline; install ripgrep or put rg on PATH",
    );
  });
});
