import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerCompare } from "../../src/cli/commands/compare.js";
import { captureIo } from "../../src/cli/io.js";
import { writeComparison } from "../../src/compare/write-comparison.js";
import { Analysis } from "../../src/contracts/analysis.js";
import { Comparison } from "../../src/contracts/comparison.js";
import { SkillgymError } from "../../src/errors.js";
import { createJudge } from "../../src/judge/create.js";
import { startSim } from "../../src/sim/index.js";
import { EXPECTATIONS, TOKENS, useWorkspace } from "./fixtures.js";

const ws = useWorkspace();

describe("comparison through skillgym sim", () => {
  it("gets a comparison and an analysis from the real sim judge", async () => {
    // Scripted to prefer the with_skill output wherever it is shown: a verdict that survives both orders.
    const sim = await startSim({
      script: { rules: [], judge: { default: "pass", prefer: TOKENS.with_skill } },
    });
    try {
      const judge = await createJudge({ backend: "sim", simulatorUrl: sim.url });
      const written = await writeComparison({
        runDirA: ws.withSkill,
        runDirB: ws.withoutSkill,
        judge,
        seed: 3,
      });
      expect(written.winnerRunDir).toBe(ws.withSkill);
      expect(written.comparison.position_bias).toBe(false);
      expect(written.simulated).toBe(true);
      expect(written.comparison.expectation_results?.A.details?.map((d) => d.text)).toEqual(EXPECTATIONS);
      Comparison.parse(JSON.parse(await readFile(written.comparisonPath, "utf8")));
      const analysis = Analysis.parse(JSON.parse(await readFile(written.analysisPath ?? "", "utf8")));
      expect(analysis.comparison_summary.winner).toBe(written.comparison.winner);
      expect(sim.log.map((entry) => entry.action)).toEqual([
        "judge comparator",
        "judge comparator",
        "judge analyzer",
      ]);
    } finally {
      await sim.close();
    }
  });
});

describe("skillgym compare", () => {
  async function run(args: string[]) {
    const io = captureIo();
    const program = new Command("skillgym").exitOverride();
    registerCompare(program, io);
    await program.parseAsync(["compare", ...args], { from: "user" });
    return io;
  }

  it("compares two runs with --simulate and prints JSON: the unscripted sim always picks A, a position bias", async () => {
    const io = await run([ws.withSkill, ws.withoutSkill, "--simulate", "--json", "--seed", "5"]);
    const result = JSON.parse(io.stdout()) as Record<string, unknown>;
    expect(result).toMatchObject({
      winner: "TIE",
      position_bias: true,
      winner_run_dir: null,
      simulated: true,
      comparison_path: path.join(ws.evalDir, "comparison-1.json"),
      analysis_path: null,
      analysis_skipped: "tie",
    });
    expect(io.exitCode()).toBe(0);
  });

  it("says in plain text that the verdict is simulated, and skips the analysis with --no-analyze", async () => {
    const io = await run([ws.withSkill, ws.withoutSkill, "--simulate", "--no-analyze"]);
    expect(io.stdout()).toMatch(/^tie \(position bias: .*\(simulated: skillgym sim stood in for the judge\)/);
    expect(io.stdout()).toContain("comparison-1.json");
    expect(io.stdout()).not.toContain("analysis:");
  });

  it("rejects a folder that is not a run before judging", async () => {
    const error = await run([ws.evalDir, ws.withoutSkill, "--simulate"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillgymError);
    expect((error as SkillgymError).code).toBe("BAD_INPUT");
    expect((error as SkillgymError).message).toContain(ws.evalDir);
  });
});
