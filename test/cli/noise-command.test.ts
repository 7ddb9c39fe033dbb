import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useReleaseNotes } from "./command-fixture.js";

// `skillgym noise` in this process on a copy of examples/release-notes, on the test double.
const { workspace, command: noise } = useReleaseNotes("noise");

describe("skillgym noise", () => {
  it("runs the skill against itself, prints the A/A spread and writes noise.json, closing its simulator", async () => {
    const folder = workspace("text");
    const result = await noise("--only", "1", "--runs", "2", "--workspace", folder);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      "A/A spread: 0.00 (two identical arms, 2 runs each)\n" +
        "false calls at ±0.05: 0 of 1 evals would have been called helps or hurts\n" +
        `wrote ${join(folder, "noise.json")}: later verdicts in this workspace hold a lift against ±0.05\n`,
    );
    const written = JSON.parse(await readFile(join(folder, "noise.json"), "utf8"));
    expect(written).toMatchObject({ spread: 0, runs_per_arm: 2, effect_floor: 0.05, false_calls: 0 });
    expect(result.stderr).toContain(`writing ${join(folder, "noise", "iteration-1")}: 4 runs`);
  });

  it("prints noise.json with --json, held against the flag's effect floor", async () => {
    const folder = workspace("json");
    const result = await noise(
      "--only",
      "1",
      "--runs",
      "2",
      "--workspace",
      folder,
      "--json",
      "--effect-floor",
      "0.2",
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(await readFile(join(folder, "noise.json"), "utf8")));
    expect(JSON.parse(result.stdout).effect_floor).toBe(0.2);
  });

  it("refuses --baseline, and says when no eval had two graded runs in each arm", async () => {
    const baseline = await noise("--baseline", "none");
    expect(baseline.code).toBe(2);
    expect(baseline.stderr).toBe(
      "skillgym: noise runs the skill against itself: --baseline does not apply\n  fix: leave out --baseline\n",
    );
    const once = await noise("--only", "1", "--runs", "1", "--workspace", workspace("once"));
    expect(once.code).toBe(2);
    expect(once.stderr).toContain("skillgym: no eval had two graded runs in both arms: no noise floor\n");
    expect(once.stderr).toContain("  fix: give the evals expectations or checks, and --runs 2 or more\n");
  });
});
