import { chmod, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { locateBinary, packageDir } from "../../../src/agents/binary-lookup.js";
import { bundledCandidates, claudeSearch, locateClaude } from "../../../src/agents/claude-code/binary.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-claude-bin-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const exe = process.platform === "win32" ? ".exe" : "";
const notBundled = { ...claudeSearch, bundled: async () => undefined };

describe("finding the Claude Code binary", () => {
  it("looks in the npm package's bin/claude.exe first, then in its platform packages (glibc, then musl)", () => {
    const main = packageDir("@anthropic-ai/claude-code");
    const platform = `${process.platform}-${process.arch}`;
    const expected = [
      ...(main ? [join(main, "bin", "claude.exe")] : []),
      ...["", "-musl"].flatMap((suffix) => {
        const found = packageDir(`@anthropic-ai/claude-code-${platform}${suffix}`);
        return found ? [join(found, `claude${exe}`)] : [];
      }),
    ];
    expect(bundledCandidates()).toEqual(expected);
    // Installed with skillgym here: the main package and this platform's.
    expect(expected.length).toBeGreaterThanOrEqual(2);
    expect(expected[1]).toMatch(
      /[\\/]@anthropic-ai[\\/]claude-code-[a-z0-9]+-[a-z0-9]+(-musl)?[\\/]claude(\.exe)?$/,
    );
  });

  it("takes the real binary npm installed, not a placeholder", async () => {
    const found = await claudeSearch.bundled();
    expect(found).toBe(bundledCandidates()[0]);
    expect((await stat(found as string)).size).toBeGreaterThan(1_000_000);
    expect(await locateClaude(undefined, { PATH: "" })).toBe(found);
  });

  it("falls back to `claude` on PATH", async () => {
    const onPath = join(dir, `claude${exe}`);
    await writeFile(onPath, "#!/bin/sh\n");
    await chmod(onPath, 0o755);
    expect(await locateBinary(undefined, { PATH: dir }, notBundled)).toBe(onPath);
  });

  it("says how to install Claude Code when it is found nowhere (exit 3)", async () => {
    await expect(locateBinary(undefined, { PATH: dir }, notBundled)).rejects.toMatchObject({
      code: "AGENT_UNAVAILABLE",
      message: "Claude Code was not found",
      hint: "run `npm install @anthropic-ai/claude-code`, put `claude` on PATH, or pass --agent-bin",
    });
  });

  it("refuses an --agent-bin that does not exist, saying what to pass (exit 3)", async () => {
    const missing = join(dir, "nope");
    await expect(locateClaude(missing, { PATH: "" })).rejects.toMatchObject({
      code: "AGENT_UNAVAILABLE",
      message: `the agent binary ${missing} does not exist`,
      hint: "pass the path of a Claude Code binary to --agent-bin, or install it: npm install @anthropic-ai/claude-code",
    });
  });
});
