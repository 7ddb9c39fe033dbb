import { copyFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { binaryPath } from "../../src/cli/options.js";
import { useReleaseNotes } from "./command-fixture.js";

// The agent starts in its run's workspace, not where the command was typed: a relative --agent-bin is resolved first.
const fixture = useReleaseNotes("triggers");

describe("--agent-bin", () => {
  it("takes a path with a folder in it from the current folder, and leaves a bare name and an absolute path", () => {
    expect(binaryPath("./bin/claude")).toBe(resolve("bin/claude"));
    expect(binaryPath("bin/claude")).toBe(resolve("bin/claude"));
    expect(binaryPath("../claude")).toBe(resolve("../claude"));
    expect(binaryPath("claude-beta")).toBe("claude-beta");
    expect(binaryPath("/opt/claude")).toBe("/opt/claude");
  });

  it("starts the agent a relative path names, from the command's folder", async () => {
    await copyFile(fixture.at.binary, join(fixture.at.dir, "my-claude.mjs"));
    const before = process.cwd();
    process.chdir(fixture.at.dir);
    try {
      const result = await fixture.command(
        "--runs",
        "1",
        "--workspace",
        "ws",
        "--agent-bin",
        "./my-claude.mjs",
      );
      expect(result.stdout).toContain("2/2 queries passed, 0 failed, 0 errored;");
    } finally {
      process.chdir(before);
    }
  });
});
