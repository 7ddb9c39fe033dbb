import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradeIterations, iterationSandboxed } from "../../src/grade/grade-agents.js";
import type { ExpectationGrader } from "../../src/grade/grade-run.js";
import type { Suite } from "../../src/suite/model.js";
import {
  cardRecord,
  cardRunDir,
  loadedCard,
  tempRoot,
  writeCardSkill,
  writeIterationRecord,
  writeRun,
} from "./card-iteration.js";

let root: string;
let cleanup: () => Promise<void>;
let skillDir: string;
beforeAll(async () => {
  ({ root, cleanup } = await tempRoot());
  skillDir = await writeCardSkill(root);
});
afterAll(() => cleanup());

function agentsRecord(agents: string[]) {
  return {
    skill_name: "card",
    skill_path: skillDir,
    skill_hash: "h",
    status: "complete",
    started_at: "2026-01-01T00:00:00Z",
    agents,
    request: {
      evals: [2],
      runs_per_configuration: 1,
      baseline: "without_skill",
      trigger_queries: 0,
      trigger_runs: 1,
    },
  };
}

/** An iteration of one agent: eval 2 run once with the skill, left ungraded. */
async function oneAgent(dir: string, sandbox?: boolean): Promise<void> {
  await writeIterationRecord(
    dir,
    cardRecord(skillDir, {
      evals: [2],
      configurations: ["with_skill"],
      record: sandbox === undefined ? {} : { sandbox },
    }),
  );
  await writeRun(cardRunDir(dir, 2, "with_skill"), { outputs: { "card.txt": "Hi\n" }, events: [loadedCard] });
}

async function severalAgents(name: string, agents: string[], sandboxed: string[] = []): Promise<string> {
  const dir = join(root, name, "iteration-1");
  await writeIterationRecord(dir, agentsRecord(agents));
  for (const agent of agents) await oneAgent(join(dir, agent), sandboxed.includes(agent));
  return dir;
}

const friendly: ExpectationGrader = async (input) => ({
  expectations: input.expectations.map((text) => ({ text, passed: true, evidence: "friendly" })),
  model: "judge",
  costUsd: 0.5,
});

describe("iterationSandboxed", () => {
  it("reads an ordinary iteration's own record", async () => {
    for (const [name, sandbox, expected] of [
      ["sandboxed", true, true],
      ["plain", false, false],
      ["older", undefined, false],
    ] as const) {
      const dir = join(root, `one-${name}`, "iteration-1");
      await oneAgent(dir, sandbox);
      expect(await iterationSandboxed(dir)).toBe(expected);
    }
    expect(await iterationSandboxed(join(root, "no-such-iteration"))).toBe(false);
  });

  it("calls an iteration of several agents sandboxed when any agent's runs were", async () => {
    expect(
      await iterationSandboxed(await severalAgents("some-sandboxed", ["claude-code", "codex"], ["codex"])),
    ).toBe(true);
    expect(await iterationSandboxed(await severalAgents("none-sandboxed", ["claude-code", "codex"]))).toBe(
      false,
    );
  });
});

describe("gradeIterations", () => {
  it("grades an ordinary iteration as it is", async () => {
    const dir = join(root, "ordinary", "iteration-1");
    await oneAgent(dir);
    const relativeDir = relative(process.cwd(), dir);
    const parts = await gradeIterations({ iterationDir: relativeDir, createGrader: async () => friendly });
    expect(parts).toEqual([
      { iterationDir: relativeDir, result: { graded: 1, skipped: 0, errors: [], judgeCostUsd: 0.5 } },
    ]);
  });

  it("grades each agent's iteration in the order they ran, with one judge", async () => {
    const dir = await severalAgents("several", ["gemini", "claude-code"]);
    const suites: Suite[] = [];
    const graded: string[] = [];
    const parts = await gradeIterations({
      iterationDir: dir,
      createGrader: async (suite) => {
        suites.push(suite);
        return friendly;
      },
      onRunGraded: (info) => graded.push(info.runDir),
    });
    expect(parts).toEqual([
      {
        agent: "gemini",
        iterationDir: join(dir, "gemini"),
        result: { graded: 1, skipped: 0, errors: [], judgeCostUsd: 0.5 },
      },
      {
        agent: "claude-code",
        iterationDir: join(dir, "claude-code"),
        result: { graded: 1, skipped: 0, errors: [], judgeCostUsd: 0.5 },
      },
    ]);
    expect(suites).toHaveLength(1);
    expect(graded).toEqual([
      cardRunDir(join(dir, "gemini"), 2, "with_skill"),
      cardRunDir(join(dir, "claude-code"), 2, "with_skill"),
    ]);
  });

  it("grades an iteration of several agents without a judge when none is given", async () => {
    const dir = await severalAgents("no-judge", ["claude-code", "codex"]);
    const parts = await gradeIterations({ iterationDir: dir });
    expect(parts.map((p) => [p.agent, p.result.graded, p.result.errors.length])).toEqual([
      ["claude-code", 0, 1],
      ["codex", 0, 1],
    ]);
  });

  it("stops before the next agent once cancelled", async () => {
    const dir = await severalAgents("cancelled", ["claude-code", "codex"]);
    const controller = new AbortController();
    const parts = await gradeIterations({
      iterationDir: dir,
      signal: controller.signal,
      createGrader: async () => async (input) => {
        controller.abort();
        return friendly(input);
      },
    });
    expect(parts).toEqual([
      {
        agent: "claude-code",
        iterationDir: join(dir, "claude-code"),
        result: { graded: 0, skipped: 0, errors: [], judgeCostUsd: 0 },
      },
    ]);
  });
});
