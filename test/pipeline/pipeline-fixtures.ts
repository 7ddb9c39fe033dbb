import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import type { ExpectationGrader } from "../../src/grade/index.js";
import type { PipelineOptions } from "../../src/pipeline/options.js";
import type { AgentsPipelineOptions } from "../../src/pipeline/run-agents.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { executableDouble } from "../agent-double/index.js";
import { fastRetry, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// "Make card …" writes card.txt with the skill, not without it; "q1 …" loads the card skill; anything else loads nothing.
export const cardScript = SimScript.parse({
  rules: [
    {
      match: "Make card",
      skill: "card",
      steps: [{ write: { path: "card.txt", content: "Hello Ada" } }],
      without_skill: [{ text: "What card?" }],
    },
    { match: "^q1 ", skill: "~card-sg-", steps: [{ text: "A card." }] },
    { skill: "none", without_skill: [{ text: "Sure." }] },
  ],
});

export const CARD_DESCRIPTION = "Writes greeting cards. Use when the user asks for a card.";

/**
 * A card skill under `dir`: eval 1 (one expectation for the judge) and eval 2 (checks only), each checking that
 * card.txt exists; two trigger queries, one that should load it and one that should not; evals/checks-only.json (evals 2 and 3, checks only); a `library/` folder of
 * one more skill to install beside it, and a `shelf/` of another.
 */
export async function writeCardSkill(dir: string): Promise<void> {
  await writeTree(dir, {
    "card/SKILL.md": skillMd("card", CARD_DESCRIPTION, "Write card.txt."),
    "card/evals/evals.json": JSON.stringify({
      skill_name: "card",
      evals: [
        {
          id: 1,
          prompt: "Make card 1",
          expectations: ["The card greets someone"],
          checks: [{ type: "file_exists", path: "card.txt" }],
        },
        {
          id: 2,
          prompt: "Make card 2",
          expectations: [],
          checks: [{ type: "file_exists", path: "card.txt" }],
        },
      ],
    }),
    "card/evals/triggers.json": JSON.stringify([
      { query: "q1 make me a greeting card", should_trigger: true },
      { query: "q3 what is 2+2", should_trigger: false },
    ]),
    "card/evals/checks-only.json": JSON.stringify({
      skill_name: "card",
      evals: [2, 3].map((id) => ({
        id,
        prompt: `Make card ${id}`,
        expectations: [],
        checks: [{ type: "file_exists", path: "card.txt" }],
      })),
    }),
    "library/poem/SKILL.md": skillMd("poem", "Writes poems.", "Write one."),
    "shelf/verse/SKILL.md": skillMd("verse", "Writes verse.", "Write some."),
  });
}

/** A judge that passes every expectation, at a quarter dollar a call. */
export const passingGrader = async (): Promise<ExpectationGrader> => async (input) => ({
  expectations: input.expectations.map((text) => ({ text, passed: true, evidence: "It does." })),
  model: "judge",
  costUsd: 0.25,
});

/** The options of `skillgym run` on the card skill: one run per configuration, one per trigger query. */
export function cardPipelineOptions(
  dir: string,
  createAgent: PipelineOptions["createAgent"],
  overrides: Partial<PipelineOptions> = {},
): PipelineOptions {
  return {
    skillPath: join(dir, "card"),
    workspace: join(dir, "ws"),
    runs: 1,
    baseline: "without_skill",
    triggerRuns: 1,
    threshold: 0.5,
    concurrency: 4,
    timeoutSeconds: 60,
    triggerTimeoutSeconds: 60,
    retry: { ...fastRetry, attempts: 1 },
    grade: true,
    gates: {},
    createAgent,
    createGrader: passingGrader,
    ...overrides,
  };
}

/** The test bench of a pipeline test file: {@link writeCardSkill} in a temporary folder, the test double and one sim. */
export interface CardBench {
  dir: string;
  binary: string;
  sim: SimServer;
  /** The claude-code adapter on the test double, against the file's sim. */
  simulated(): Promise<Agent>;
}

/** A {@link CardBench} made before the file's tests and removed after them. */
export function useCardBench(): CardBench {
  let cleanup: () => Promise<void> = async () => {};
  const bench = {
    dir: "",
    binary: "",
    sim: undefined as unknown as SimServer,
    simulated: () => createClaudeCodeAgent({ binary: bench.binary, simulatorUrl: bench.sim.url }),
  };
  beforeAll(async () => {
    ({ dir: bench.dir, cleanup } = await tempDir());
    bench.binary = await executableDouble(bench.dir);
    await writeCardSkill(bench.dir);
    bench.sim = await startSim({ script: cardScript });
  });
  afterAll(async () => {
    await bench.sim?.close();
    await cleanup();
  });
  return bench;
}

/**
 * The options of `skillgym run --agent claude-code --model m1,m2` on the card skill of `bench`, into
 * `<bench>/<workspace>`: eval 2 once without a baseline and each trigger query once, three runs a part.
 */
export function agentsPipelineOptions(
  bench: CardBench,
  workspace: string,
  overrides: Partial<AgentsPipelineOptions> = {},
): AgentsPipelineOptions {
  const { createAgent: _one, ...single } = cardPipelineOptions(bench.dir, () => bench.simulated(), {
    workspace: join(bench.dir, workspace),
    only: ["2"],
    baseline: "none",
  });
  return {
    ...single,
    agents: ["claude-code"],
    models: ["m1", "m2"],
    createAgent: () => bench.simulated(),
    ...overrides,
  };
}
