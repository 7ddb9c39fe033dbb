import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent, AgentRunRequest, AgentRunResult } from "../../src/agents/agent.js";
import type { AgentEvent } from "../../src/agents/events.js";
import { type EvalOptions, runEvals } from "../../src/run/index.js";
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
    // The skill under test in a folder not named after it, and an earlier version of it.
    "my-cards/SKILL.md": skillMd("cards", "Writes greeting cards.", "Write card.txt."),
    "my-cards/evals/evals.json": JSON.stringify({
      evals: [{ id: 1, prompt: "a card", expectations: ["a card"] }],
    }),
    "cards-v1/SKILL.md": skillMd("cards", "Writes greeting cards.", "Write card.md."),
    "cards/evals/evals.json": JSON.stringify({
      evals: [{ id: 1, prompt: "a card", expectations: ["a card"] }],
    }),
  });
});
afterAll(() => cleanup());

function answering(
  events: AgentEvent[],
  extra: Partial<AgentRunResult>,
  onRun?: (request: AgentRunRequest) => Promise<void>,
): Agent {
  return {
    ...fakeAgent([]).agent,
    async run(request) {
      await onRun?.(request);
      return { outcome: "success", events, process: finishedProcess(), ...extra };
    },
  };
}

async function runOnce(
  workspace: string,
  agent: Agent,
  options: Partial<EvalOptions> = {},
  configuration = "with_skill",
) {
  const summary = await runEvals({
    skillPath: join(dir, "cards"),
    workspace: join(dir, workspace),
    baseline: "none",
    runs: 1,
    concurrency: 1,
    timeoutSeconds: 60,
    retry: fastRetry,
    createAgent: async () => agent,
    ...options,
  });
  const runDir = join(summary.iterationDir, "eval-1", configuration, "run-1");
  return {
    record: summary.records.find((r) => r.spec.configuration === configuration),
    timing: await readJson(join(runDir, "timing.json")),
    activation: await readJson(join(runDir, "activation.json")),
    runDir,
    summary,
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

  it("record no error for a run that succeeded, whatever its agent said", async () => {
    const { record, timing } = await runOnce("ws-said", answering([], { message: "all went well" }));
    expect(record).toMatchObject({ outcome: "success" });
    expect(record).not.toHaveProperty("error");
    expect(timing).not.toHaveProperty("error");
  });

  it("give both reasons of a failed run whose outputs were also over the limit", async () => {
    const agent = answering([], { outcome: "agent_error", message: "the agent gave up" }, async (request) => {
      await writeFile(join(request.cwd, "big.txt"), "x".repeat(2000));
    });
    const { record, timing } = await runOnce("ws-reasons", agent, { outputLimits: { totalBytes: 1000 } });
    const error =
      "the agent gave up; outputs over the limit: the files created or changed come to 2.0 KB or more (apparent size; counting stopped after 1 file), the total allowed is 1000 B (--max-output)";
    expect(record).toMatchObject({ outcome: "agent_error", error });
    expect(timing).toMatchObject({ outcome: "agent_error", error });
  });

  it("keep the transcript the agent wrote, and hand the agent the user's signal", async () => {
    const controller = new AbortController();
    const signals: (AbortSignal | undefined)[] = [];
    const agent = answering([], {}, async (request) => {
      signals.push(request.signal);
      await writeFile(request.transcriptPath ?? join(dir, "lost"), '{"type":"result"}\n');
    });
    const { runDir } = await runOnce("ws-transcript", agent, { signal: controller.signal });
    expect(await readFile(join(runDir, "transcript.jsonl"), "utf8")).toBe('{"type":"result"}\n');
    expect(signals).toEqual([controller.signal]);
  });

  it("mark a without_skill run contaminated when its agent lists the skill, and the with_skill run not", async () => {
    const init: AgentEvent = { kind: "init", model: "m", tools: [], skills: ["cards"] };
    const agent = answering([init], {});
    const without = await runOnce("ws-baseline", agent, { baseline: "without_skill" }, "without_skill");
    expect(without.record).toMatchObject({ contaminated: true });
    expect(without.activation).toMatchObject({ contaminated: true, unexpected_skills: ["cards"] });
    const withSkill = await runOnce("ws-baseline-2", agent, { baseline: "without_skill" });
    expect(withSkill.record).not.toHaveProperty("contaminated");
  });

  it("count an old_skill run's read of the skill under test in the user's folder as an opened file", async () => {
    const read: AgentEvent = {
      kind: "tool_use",
      id: "t1",
      name: "Read",
      tool: "read",
      input: { file_path: join(dir, "my-cards", "SKILL.md") },
    };
    const { activation } = await runOnce(
      "ws-old-read",
      answering([read], {}),
      { skillPath: join(dir, "my-cards"), baseline: join(dir, "cards-v1") },
      "old_skill",
    );
    expect(activation.files_opened).toEqual([
      { path: "SKILL.md", kind: "skill_md", how: "read", turn: 1, tool_use_id: "t1" },
    ]);
  });

  it("count a rate-limited attempt in the summary and in iteration.json", async () => {
    const { agent } = fakeAgent([{ outcome: "rate_limited" }, {}]);
    const { record, summary } = await runOnce("ws-limited", agent, { concurrency: 2 });
    expect(record).toMatchObject({ outcome: "success", attempts: 2 });
    // Halved to 1 on the 429, raised back after one clean attempt.
    const rateLimits = {
      events: 1,
      reductions: 1,
      lowest_concurrency: 1,
      final_concurrency: 2,
      max_concurrency: 2,
    };
    expect(summary.rateLimits).toEqual(rateLimits);
    expect((await readJson(join(summary.iterationDir, "iteration.json"))).rate_limits).toEqual(rateLimits);
  });
});
