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
    const flagSets = [
      ["--simulate"],
      ["--judge", "sim"],
      ["--simulate", "--judge", "claude-code"],
      // The openai judge would need --judge-model.
      ["--simulate", "--judge", "openai"],
    ];
    for (const flags of flagSets) {
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

  it("says it is cancelling on Ctrl-C, and stops listening for Ctrl-C once it returns", async () => {
    const listening = () => [process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")];
    const before = listening();
    const result = await interrupted(() => compare("--simulate"));
    expect(result.stderr).toContain("\ncancelling the comparison\n");
    expect(listening()).toEqual(before);
  });
});

describe("skillgym help compare", () => {
  it("describes the two run folders and the judge's flags", async () => {
    const help = await cli(["help", "compare"]);
    expect(help.code).toBe(0);
    // Commander wraps a long description onto indented lines: compare the words.
    const words = help.stdout.replace(/\s+/g, " ");
    for (const text of [
      " run-dir-a a run folder, e.g. <workspace>/iteration-1/eval-1/with_skill/run-1 ",
      " run-dir-b the run folder to compare it with ",
      " who judges (default: claude-code)",
      " --judge-model <model> the judge's model ",
    ])
      expect(words).toContain(text);
  });
});
