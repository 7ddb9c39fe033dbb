import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exitCodeFor, SkillgymError } from "../../src/errors.js";
import { locateBwrap } from "../../src/sandbox/index.js";
import { tempDir } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

async function refusal(promise: Promise<unknown>): Promise<SkillgymError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillgymError);
  return error as SkillgymError;
}

describe("finding bubblewrap", () => {
  it("is an agent that cannot run (exit 3) when no bwrap is on PATH, and says how to install it", async () => {
    const error = await refusal(locateBwrap({ PATH: join(dir, "empty") }, "linux"));
    expect(exitCodeFor(error)).toBe(3);
    expect(error.message).toBe("--sandbox needs bubblewrap (`bwrap`), which is not on PATH");
    expect(error.hint).toBe(
      "install it: `apt-get install bubblewrap` (Debian, Ubuntu) or `dnf install bubblewrap` (Fedora, RHEL)",
    );
  });

  it("is a usage error (exit 2) on macOS and Windows, whatever is on PATH", async () => {
    for (const platform of ["darwin", "win32"] as const) {
      const error = await refusal(locateBwrap(process.env, platform));
      expect(exitCodeFor(error)).toBe(2);
      expect(error.message).toBe(`--sandbox is not supported on ${platform}`);
      expect(error.hint).toBe(
        "the sandbox is bubblewrap's, Linux only: run without --sandbox (and without `sandbox` in evals.json), or on Linux",
      );
    }
  });

  it("takes the bwrap on PATH", async () => {
    await mkdir(join(dir, "bin"));
    await writeFile(join(dir, "bin", "bwrap"), "#!/bin/sh\n");
    await chmod(join(dir, "bin", "bwrap"), 0o755);
    expect(await locateBwrap({ PATH: join(dir, "bin") }, "linux")).toBe(join(dir, "bin", "bwrap"));
  });
});
