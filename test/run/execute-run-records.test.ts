import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent, AgentRunResult } from "../../src/agents/agent.js";
import type { AgentEvent } from "../../src/agents/events.js";
import { runEvals } from "../../src/run/index.js";
import { fastRetry, readJson, skillMd, tempDir, writeTree } from "../e2e/helpers.js";
import { fakeAgent, finishedProcess } from "../tune/fake-agent.js";

// What a run's records say of what its agent reported: runEvals in this process on an agent that answers with the
// given events, result line and sandbox facts.
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "cards/SKILL.md": skillMd("cards", "Writes greeting cards.", "Write card.txt."),
    "cards/evals/evals.json": JSON.stringify({
      evals: [{ id: 1, prompt: "a card", expectations: ["a card"] }],
    }),
  });
});
afterAll(() => cleanup());

function answering(events: AgentEvent[], extra: Partial<AgentRunResult>): Agent {
  return {
    ...fakeAgent([]).agent,
    async run() {
      return { outcome: "success", events, process: finishedProcess(), ...extra };
    },
  };
}

async function runOnce(workspace: string, agent: Agent) {
  const summary = await runEvals({
    skillPath: join(dir, "cards"),
    workspace: join(dir, workspace),
    baseline: "none",
    runs: 1,
    concurrency: 1,
    timeoutSeconds: 60,
    retry: fastRetry,
    createAgent: async () => agent,
  });
  const runDir = join(summary.iterationDir, "eval-1", "with_skill", "run-1");
  return {
    record: summary.records[0],
    timing: await readJson(join(runDir, "timing.json")),
    activation: await readJson(join(runDir, "activation.json")),
  };
}

describe("a run's records", () => {
  it("leave a cost the agent did not report unknown, never 0, and say so", async () => {
    const result = { kind: "result", isError: false, subtype: "success", text: "done", numTurns: 2 } as const;
    const { record, timing } = await runOnce("ws-cost", answering([result], { result }));
    expect(record).toMatchObject({ outcome: "success", costUsd: 0, costUnknown: true });
    expect(timing).not.toHaveProperty("cost_usd");
    expect(timing).toMatchObject({ num_turns: 2 });
  });

  it("mark a run whose agent listed skills that were not staged contaminated, in the record and timing.json", async () => {
    const init: AgentEvent = { kind: "init", model: "m", tools: [], skills: ["cards", "stranger"] };
    const { record, timing, activation } = await runOnce("ws-stranger", answering([init], {}));
    expect(record).toMatchObject({ contaminated: true });
    expect(record).not.toHaveProperty("costUnknown");
    expect(timing).toMatchObject({ contaminated: true, cost_usd: 0 });
    expect(activation).toMatchObject({ contaminated: true, unexpected_skills: ["stranger"] });
  });

  it("keep the hosts a sandboxed run's network filter refused in activation.json, and nothing for a clean run", async () => {
    const refused = await runOnce(
      "ws-refused",
      answering([], { sandbox: { refusedHosts: ["evil.example"] } }),
    );
    expect(refused.activation).toMatchObject({ sandbox_refused: { hosts: ["evil.example"] } });
    const clean = await runOnce("ws-clean", answering([], {}));
    expect(clean.activation).not.toHaveProperty("sandbox_refused");
    expect(clean.record).not.toHaveProperty("contaminated");
    expect(clean.timing).not.toHaveProperty("contaminated");
  });
});
