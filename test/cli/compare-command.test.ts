import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useWorkspace } from "../compare/fixtures.js";
import { cli } from "./command-fixture.js";
import { interrupted } from "./interrupted.js";

// `skillgym compare` in this process on a workspace of one eval's with_skill and without_skill runs, judged by the sim.
const ws = useWorkspace();

const compare = (...flags: string[]) => cli(["compare", ws.withSkill, ws.withoutSkill, ...flags]);

describe("skillgym compare", () => {
  it("prints the comparison as JSON with --json, written into --out, its labels drawn from --seed", async () => {
    const out = join(ws.root, "out");
    const result = await compare("--simulate", "--json", "--seed", "5", "--out", out);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      winner: "TIE",
      comparison_path: join(out, "comparison-1.json"),
      mapping_path: join(out, "comparison-1.mapping.json"),
      judge_model: "skillgym-sim",
      simulated: true,
    });
    expect(result.stdout.startsWith('{\n  "winner": "TIE",\n')).toBe(true);
    const mapping = JSON.parse(await readFile(join(out, "comparison-1.mapping.json"), "utf8"));
    expect(mapping).toMatchObject({ seed: 5, judge_model: "skillgym-sim", simulated: true });
  });

  it("judges with the simulator under --judge sim as under --simulate, whatever --judge says then", async () => {
    // An agent judge would need its binary; under --simulate the simulator judges instead.
    for (const flags of [["--simulate"], ["--judge", "sim"], ["--simulate", "--judge", "claude-code"]]) {
      const result = await compare(...flags, "--no-analyze");
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("(simulated: skillgym sim stood in for the judge)\n");
      expect(result.stdout).toContain("  judge: skillgym-sim, $0.0000\n");
    }
  });

  for (const flag of ["--skill-a", "--skill-b"])
    it(`reads the skill ${flag} names, refusing a folder with no SKILL.md`, async () => {
      const nowhere = join(ws.root, "nowhere");
      const result = await compare("--simulate", flag, nowhere);
      expect(result).toEqual({
        code: 2,
        stdout: "",
        stderr:
          `skillgym: ${nowhere}: no SKILL.md there\n` +
          "  fix: pass a skill folder (one holding SKILL.md) or the SKILL.md file itself\n",
      });
    });

  it("says it is cancelling on Ctrl-C", async () => {
    const result = await interrupted(() => compare("--simulate"));
    expect(result.stderr).toContain("\ncancelling the comparison\n");
  });
});
