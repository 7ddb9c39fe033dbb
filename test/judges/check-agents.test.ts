import { cp } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Judge } from "../../src/judge/judge.js";
import { checkJudgesOfIterations } from "../../src/judges/check-agents.js";
import { parseJudgeSpecs } from "../../src/judges/judge-spec.js";
import { makeIteration, type TempIteration } from "../bench/iteration-fixture.js";

const made: TempIteration[] = [];
afterEach(async () => {
  for (const m of made.splice(0)) await m.cleanup();
});

// A judge that passes every expectation, counting its gradings.
function passingJudge(): Judge & { asked: number } {
  return {
    backend: "sim",
    model: "all",
    simulated: true,
    asked: 0,
    async complete(request) {
      this.asked++;
      const texts = JSON.parse(/<expectations>([\s\S]*?)<\/expectations>/.exec(request.prompt)?.[1] ?? "[]");
      return {
        text: JSON.stringify({
          expectations: texts.map((text: string) => ({ text, passed: true, evidence: "seen" })),
        }),
        model: "all",
        inputTokens: 1,
        outputTokens: 1,
        costUsd: 0,
        durationMs: 1,
      };
    },
  };
}

// The root of `run --agent codex,claude-code`: iteration.json naming both, each agent's iteration in its folder.
async function severalAgents(): Promise<string> {
  const root = await makeIteration({
    record: {
      skill_name: "demo",
      skill_path: "/skills/demo",
      skill_hash: "abc123",
      status: "complete",
      started_at: "2026-01-15T10:30:00Z",
      agents: ["codex", "claude-code"],
      request: {
        evals: [1],
        runs_per_configuration: 1,
        baseline: "without_skill",
        trigger_queries: 0,
        trigger_runs: 1,
      },
    },
    evals: [],
    runs: [],
  });
  made.push(root);
  for (const agent of ["codex", "claude-code"]) {
    const one = await makeIteration({
      evals: [{ id: 1, assertions: [`${agent} wrote it`] }],
      runs: [{ eval: 1, configuration: "with_skill", run: 1, grading: null }],
    });
    made.push(one);
    await cp(one.dir, join(root.dir, agent), { recursive: true });
  }
  return root.dir;
}

const judges = (judge: Judge) => [{ spec: parseJudgeSpecs("sim:all").specs[0]!, judge }];

describe("checking the judges of an iteration of several agents", () => {
  it("checks each agent's iteration in turn, writing a judges.json in each", async () => {
    const root = await severalAgents();
    const judge = passingJudge();
    const parts = await checkJudgesOfIterations({
      iterationDir: root,
      judges: judges(judge),
      repeat: 1,
      concurrency: 1,
    });
    expect(parts.map((p) => [p.agent, p.checked.path])).toEqual([
      ["codex", join(root, "codex", "judges.json")],
      ["claude-code", join(root, "claude-code", "judges.json")],
    ]);
    expect(parts.map((p) => p.checked.report.judges[0]?.verdicts)).toEqual([1, 1]);
    expect(judge.asked).toBe(2);
  });

  it("checks none once cancelled", async () => {
    const root = await severalAgents();
    const judge = passingJudge();
    const parts = await checkJudgesOfIterations({
      iterationDir: root,
      judges: judges(judge),
      repeat: 1,
      concurrency: 1,
      signal: AbortSignal.abort(),
    });
    expect(parts).toEqual([]);
    expect(judge.asked).toBe(0);
  });
});
