import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JudgesReport } from "../../src/contracts/judges.js";
import { skillgymHere } from "../cli/cli-in-process.js";
import { useJudgedIteration } from "./judges-fixture.js";

const judged = useJudgedIteration();

describe("skillgym judges through the built CLI", () => {
  it("writes judges.json, prints the agreement, and gates on it", async () => {
    const args = [
      "judges",
      judged.dir,
      "--judge",
      "sim:strict,sim:lenient",
      "--sim-script",
      judged.scriptFile,
    ];
    const failed = await skillgymHere([...args, "--min-judge-agreement", "0.5"]);
    expect(failed.stdout).toMatch(/sim:strict vs sim:lenient: 41\.2% agree, κ -0\.42 \(95% CI/);
    expect(failed.stdout).toContain('ambiguous: "beta is listed" (eval 1)');
    expect(failed.stdout).toMatch(/FAIL min-judge-agreement: lowest judge agreement 41\.2%/);
    expect(failed.code).toBe(1);
    expect((await skillgymHere([...args, "--min-judge-agreement", "0.4", "--no-reword"])).code).toBe(0);
  });

  it("checks each agent's folder of an iteration that ran several agents", async () => {
    const root = join(judged.dir, "..", "several", "iteration-1");
    const agents = ["claude-code", "codex"];
    await mkdir(root, { recursive: true });
    for (const agent of agents) await cp(judged.dir, join(root, agent), { recursive: true });
    await writeFile(
      join(root, "iteration.json"),
      JSON.stringify({
        skill_name: "demo",
        skill_path: "/skills/demo",
        skill_hash: "h",
        status: "complete",
        started_at: new Date().toISOString(),
        agents,
        request: {
          evals: [1, 2],
          runs_per_configuration: 3,
          baseline: "without_skill",
          trigger_queries: 0,
          trigger_runs: 1,
        },
      }),
    );
    const args = [
      "judges",
      root,
      "--judge",
      "sim:strict,sim:lenient",
      "--sim-script",
      judged.scriptFile,
      "--no-reword",
    ];
    const result = await skillgymHere([...args, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const byAgent = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(byAgent)).toEqual(agents);
    for (const agent of agents) {
      const written = JudgesReport.parse(
        JSON.parse(await readFile(join(root, agent, "judges.json"), "utf8")),
      );
      expect(JudgesReport.parse(byAgent[agent])).toEqual(written);
      expect(written.pairs[0]?.percent_agreement).toBeCloseTo(7 / 17, 3);
    }
    const text = await skillgymHere(args);
    expect(text.stdout).toContain("[claude-code]\n");
    expect(text.stdout).toContain("[codex]\n");
  });

  it("prints judges.json's schema", async () => {
    const schema = await skillgymHere(["schema", "judges"]);
    expect(schema.code).toBe(0);
    expect(JSON.parse(schema.stdout)).toMatchObject({ title: "skillgym judges" });
    JudgesReport.parse(JSON.parse(await readFile(join(judged.dir, "judges.json"), "utf8")));
  });
});
