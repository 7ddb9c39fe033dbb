import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserNotFoundError, findBrowser } from "./find-browser.js";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-find-browser-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function executable(path: string): Promise<string> {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, "#!/bin/sh\n");
  await chmod(path, 0o755);
  return path;
}

describe("findBrowser", () => {
  it("takes SKILLGYM_BROWSER first, even when a system browser is on PATH", async () => {
    const explicit = await executable(join(dir, "explicit", "my-chrome"));
    await executable(join(dir, "path-a", "chromium"));
    const found = await findBrowser({ env: { SKILLGYM_BROWSER: explicit, PATH: join(dir, "path-a") } });
    expect(found).toEqual({ path: explicit, source: "SKILLGYM_BROWSER" });
  });

  it("refuses a SKILLGYM_BROWSER that does not exist, naming it", async () => {
    const missing = join(dir, "nowhere", "chrome");
    const error = await findBrowser({ env: { SKILLGYM_BROWSER: missing, PATH: "" } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BrowserNotFoundError);
    expect((error as Error).message).toContain(missing);
    expect((error as Error).message).toContain("fix:");
  });

  it("finds a system browser on PATH, preferring chromium over google-chrome, and skips non-executables", async () => {
    const bin = join(dir, "path-b");
    await executable(join(bin, "google-chrome"));
    await mkdir(join(bin, "chromium-browser"), { recursive: true });
    await writeFile(join(bin, "chromium"), "not executable");
    const found = await findBrowser({ env: { PATH: [join(dir, "empty"), bin].join(":") } });
    expect(found).toEqual({ path: join(bin, "google-chrome"), source: "system" });
    await executable(join(dir, "path-d", "chromium"));
    const preferred = await findBrowser({ env: { PATH: [bin, join(dir, "path-d")].join(":") } });
    expect(preferred).toEqual({ path: join(dir, "path-d", "chromium"), source: "system" });
  });

  it("falls back to the Chromium inside @sparticuz/chromium, unpacked to a runnable binary", async () => {
    const found = await findBrowser({ env: { PATH: join(dir, "empty") } });
    expect(found.source).toBe("@sparticuz/chromium");
    expect(found.path).toMatch(/skillgym-chromium-[\d.]+\/chromium$/);
    expect(execFileSync(found.path, ["--version"], { encoding: "utf8" })).toMatch(/^Chromium \d+\./);
  }, 60_000);

  it("fails saying what it tried when no browser can be found", async () => {
    const error = await findBrowser({
      env: { PATH: join(dir, "empty") },
      packageDir: join(dir, "no-such-package"),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrowserNotFoundError);
    const message = (error as Error).message;
    expect(message).toContain("SKILLGYM_BROWSER: not set");
    expect(message).toContain(
      "chromium, chromium-browser, google-chrome, google-chrome-stable on PATH: none found",
    );
    expect(message).toContain(join(dir, "no-such-package"));
    expect(message).toContain("npm install");
  });
});
