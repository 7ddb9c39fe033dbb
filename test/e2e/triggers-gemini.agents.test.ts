import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent } from "../../src/agents/registry.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { TriggerResults } from "../../src/contracts/trigger-results.js";
import { chooseSkill, defaultChoice, startSim } from "../../src/sim/index.js";
import { runTriggers } from "../../src/triggers/index.js";
import { fastRetry, readJson, skillMd, tempDir, writeTree } from "./helpers.js";
import { smallExample } from "./small-example.js";

const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "bin", "skillgym.js");

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

function frontmatterDescription(skillMdText: string): string {
  const line = /^description:\s*(.+)$/m.exec(skillMdText)?.[1] ?? "";
  return line.replace(/^"|"$/g, "");
}

function skillgym(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    encoding: "utf8",
    timeout: 240_000,
    env,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("--agent", () => {
  it("rejects an unknown agent with exit 2, listing the known ones", () => {
    const result = skillgym(["triggers", "examples/csv-summary", "--agent", "nope", "--simulate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("known agents: claude-code, codex, gemini");
  });

  it("stops with exit 3 before any run when Gemini CLI has no API key", () => {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir };
    delete env.GEMINI_API_KEY;
    delete env.GOOGLE_API_KEY;
    const result = skillgym(
      ["triggers", "examples/csv-summary", "--agent", "gemini", "--workspace", dir],
      env,
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("GEMINI_API_KEY");
    expect(result.stdout).not.toContain("[1/");
  });
});

describe("trigger evals with the real Gemini CLI against skillgym sim", () => {
  it("`triggers examples/csv-summary --agent gemini --simulate` gives the rates the sim script dictates", async () => {
    // 4 of the example's 20 queries, one of each: should trigger and does, should and does not (the simulator's choice
    // misses it), should not and does not, should not and does.
    const skill = await smallExample(dir, "csv-summary", [0, 7, 10, 16]);
    const result = skillgym([
      "triggers",
      skill,
      "--agent",
      "gemini",
      "--simulate",
      "--runs",
      "1",
      "--workspace",
      join(dir, "ws"),
    ]);
    expect(result.code, result.stderr).toBeLessThanOrEqual(1);
    const results = TriggerResults.parse(
      await readJson(join(dir, "ws", "iteration-1", "triggers", "trigger-results.json")),
    );
    // The example's script leaves the choice to the simulator ("auto"); the next test checks patterns over runs.
    const description = frontmatterDescription(
      await readFile(join(root, "examples/csv-summary/SKILL.md"), "utf8"),
    );
    const skills = [{ name: "csv-summary", description }];
    const expected = results.results.map((r) =>
      chooseSkill(r.query, skills, defaultChoice) === "csv-summary" ? 1 : 0,
    );
    expect(results.results.map((r) => r.trigger_rate)).toEqual(expected);
    expect(results.results.every((r) => r.runs === 1 && r.errors === 0)).toBe(true);
    expect(results.results.map((r) => r.should_trigger)).toEqual([true, true, false, false]);
    expect(expected).toEqual([1, 0, 0, 1]);
    expect(results.simulated).toBe(true);
  }, 300_000);

  it("gives exactly the scripted trigger patterns, stops at the activation, and one session per run", async () => {
    await writeTree(dir, {
      "project/skills/haiku/SKILL.md": skillMd(
        "haiku",
        "Writes a haiku poem. Use when the user asks for a haiku.",
        "Write a haiku.",
      ),
    });
    const groups = [
      { should: true, pattern: [true, true, true] },
      { should: true, pattern: [true, false, false] },
      { should: false, pattern: [true, true, false] },
      { should: false, pattern: [false, false, false] },
    ];
    // One query a pattern: the patterns are over a query's runs, so more queries would only repeat them.
    const queries = groups.map((g, n) => ({
      query: `group ${n} request ${n}: something in verse`,
      should_trigger: g.should,
    }));
    await writeTree(dir, { "project/skills/haiku/evals/triggers.json": JSON.stringify(queries) });
    const script = SimScript.parse({
      rules: groups.map((g, n) => ({
        match: `^group ${n} `,
        skill: "~haiku-sg-",
        trigger_pattern: g.pattern,
      })),
    });
    const sim = await startSim({ script });
    try {
      const summary = await runTriggers({
        skillPath: join(dir, "project", "skills", "haiku"),
        workspace: join(dir, "ws"),
        runs: 3,
        allRuns: true,
        threshold: 0.5,
        concurrency: 4,
        timeoutSeconds: 60,
        retry: fastRetry,
        createAgent: () => createAgent("gemini", { simulatorUrl: sim.url }),
      });
      const expectedRates = [1, 1 / 3, 2 / 3, 0];
      expect(summary.results.results).toHaveLength(4);
      summary.results.results.forEach((r, i) => {
        expect(r.trigger_rate).toBeCloseTo(expectedRates[i]!, 10);
        expect(r.errors).toBe(0);
      });
      const triggered = summary.records.filter((r) => r.triggered);
      expect(triggered).toHaveLength(6);
      expect(triggered.every((r) => r.record.model_requests === 1 && r.outcome === "stopped")).toBe(true);
      expect(new Set(sim.log.map((e) => e.session)).size).toBe(12);
    } finally {
      await sim.close();
    }
  }, 300_000);
});
