import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ExpectationGrader } from "../../src/grade/index.js";
import { executeSkill } from "../../src/tune/execute-skill.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { type FakeRun, fakeAgent } from "./fake-agent.js";
import { skillMd } from "./tune-helpers.js";

// executeSkill with runEvals for real, an agent in this process and a scripted judge: how grading, its failures,
// cancelling and the caller's options reach the result.
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "greeter/SKILL.md": skillMd("greeter", "Writes cards.", "Write card.txt."),
    "greeter/evals/evals.json": JSON.stringify({
      evals: [
        { id: 1, prompt: "card for Ada", expectations: ["The card greets Ada"] },
        { id: 2, prompt: "card for Bo", expectations: ["The card greets Bo"] },
      ],
    }),
  });
});
afterEach(() => cleanup());

/** A judge that plays `answers` in order (the last again): an Error is thrown, a number is a passing verdict's cost. */
function scriptedJudge(answers: (Error | number | (() => Error | number))[]) {
  const calls: string[] = [];
  const grader: ExpectationGrader = async (input) => {
    calls.push(input.prompt);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)] ?? 0;
    const settled = typeof answer === "function" ? answer() : answer;
    if (settled instanceof Error) throw settled;
    return {
      expectations: input.expectations.map((text) => ({ text, passed: true, evidence: "greets" })),
      model: "judge-1",
      costUsd: settled,
    };
  };
  return { grader, calls };
}

function execute(
  runs: FakeRun[],
  grader: ExpectationGrader,
  extra: Partial<Parameters<typeof executeSkill>[0]> = {},
) {
  const fake = fakeAgent(runs);
  const result = executeSkill({
    skillDir: join(dir, "greeter"),
    evalsPath: join(dir, "greeter", "evals", "evals.json"),
    workspace: join(dir, "ws"),
    runs: 1,
    concurrency: 1,
    timeoutSeconds: 30,
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    createAgent: async () => fake.agent,
    createGrader: async () => grader,
    ...extra,
  });
  return { result, requests: fake.requests };
}

const iterationDir = () => join(dir, "ws", "iteration-1");

describe("executeSkill's grading", () => {
  it("counts what the judge cost beside what the runs cost", async () => {
    const judge = scriptedJudge([0.125]);
    const { result } = execute([{ write: { "card.txt": "Hi" }, costUsd: 0.25 }], judge.grader);
    expect(await result).toMatchObject({
      status: "done",
      costUsd: 0.75,
      measured: { passRate: 1, graded: 2 },
    });
  });

  it("grades again the runs whose grading failed as they finished, reports the failure, and counts that cost", async () => {
    const judge = scriptedJudge([new Error("judge busy"), new Error("judge busy"), 0.125]);
    const failures: [string, string][] = [];
    const { result, requests } = execute([{ write: { "card.txt": "Hi" }, costUsd: 0.25 }], judge.grader, {
      onGradingError: (runDir, error) => failures.push([runDir, (error as Error).message]),
    });
    expect(await result).toMatchObject({
      status: "done",
      attempts: 1,
      costUsd: 0.75,
      measured: { graded: 2 },
    });
    expect(requests).toHaveLength(2);
    expect(failures).toEqual([
      [join(iterationDir(), "eval-1", "with_skill", "run-1"), "judge busy"],
      [join(iterationDir(), "eval-2", "with_skill", "run-1"), "judge busy"],
    ]);
  });

  it("when no run can be graded, runs the suite again from scratch and then fails naming each grading error", async () => {
    const judge = scriptedJudge([new Error("judge down")]);
    const { result, requests } = execute([{ write: { "card.txt": "Hi" } }], judge.grader);
    const run = (n: number) => join(iterationDir(), `eval-${n}`, "with_skill", "run-1");
    const failed = await result;
    expect(failed).toMatchObject({ status: "failed", iterationDir: iterationDir(), attempts: 2 });
    const error = (failed as { error: string }).error;
    expect(error).toMatch(/^no run was graded \(/);
    expect(error).toContain(`; grading ${run(1)}: judge down`);
    expect(error).toContain(`; grading ${run(2)}: judge down`);
    // The second attempt ran every eval again: nothing of the first was kept.
    expect(requests).toHaveLength(4);
    // The last attempt's runs are kept, to be looked at.
    expect((await readdir(run(1))).length).toBeGreaterThan(0);
  });
});

describe("executeSkill's options", () => {
  it("continues an iteration in place: runs finished before are not made again", async () => {
    const judge = scriptedJudge([0]);
    const first = execute([{ write: { "card.txt": "Hi" } }], judge.grader);
    expect(await first.result).toMatchObject({ status: "done", iterationDir: iterationDir() });
    const again = execute([{ write: { "card.txt": "Hi" } }], judge.grader);
    expect(await again.result).toMatchObject({ status: "done", iterationDir: iterationDir(), attempts: 1 });
    expect(again.requests).toEqual([]);
  });

  it("hands the runs the model, the retry policy, the output limits and the run reporter", async () => {
    const judge = scriptedJudge([0]);
    const reported: string[] = [];
    const { result, requests } = execute(
      [
        { outcome: "rate_limited", message: "slow down" },
        { write: { "a.txt": "1", "b.txt": "2" } },
        { write: { "card.txt": "Hi" } },
      ],
      judge.grader,
      {
        model: "model-x",
        // One attempt a run: the rate-limited run is not tried again.
        retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
        outputLimits: { files: 1 },
        reporter: {
          onRunStart: (spec) => reported.push(`start ${spec.eval.id}`),
          onGradeStart: (spec) => reported.push(`grade ${spec.eval.id}`),
          onRunEnd: (record) => reported.push(`end ${record.spec.eval.id} ${record.outcome}`),
        },
      },
    );
    expect(await result).toMatchObject({ status: "done", attempts: 2, measured: { graded: 2 } });
    expect(requests.map((r) => r.model)).toEqual(["model-x", "model-x", "model-x", "model-x"]);
    expect(reported).toEqual([
      "start 1",
      "end 1 rate_limited",
      "start 2",
      "end 2 output_limit",
      "start 1",
      "grade 1",
      "end 1 success",
      "start 2",
      "grade 2",
      "end 2 success",
    ]);
  });
});

describe("executeSkill cancelled", () => {
  it("starts no other run once cancelled", async () => {
    const controller = new AbortController();
    const judge = scriptedJudge([0]);
    const { result, requests } = execute(
      [{ write: { "card.txt": "Hi" }, onStart: () => controller.abort() }],
      judge.grader,
      { signal: controller.signal },
    );
    expect(await result).toMatchObject({ status: "cancelled" });
    expect(requests).toHaveLength(1);
  });

  it("a grading cut short is not a grading error", async () => {
    const controller = new AbortController();
    const failures: string[] = [];
    const judge = scriptedJudge([
      new Error("judge busy"),
      () => {
        controller.abort();
        return new Error("aborted");
      },
    ]);
    const { result, requests } = execute([{ write: { "card.txt": "Hi" } }], judge.grader, {
      signal: controller.signal,
      onGradingError: (runDir) => failures.push(runDir),
    });
    expect(await result).toMatchObject({ status: "cancelled" });
    expect(requests).toHaveLength(2);
    expect(failures).toEqual([join(iterationDir(), "eval-1", "with_skill", "run-1")]);
  });

  it("cancelled while the failed gradings are graded again: the finished runs are kept for a resume", async () => {
    const controller = new AbortController();
    const judge = scriptedJudge([
      new Error("judge busy"),
      new Error("judge busy"),
      () => {
        controller.abort();
        return new Error("aborted");
      },
    ]);
    const { result, requests } = execute([{ write: { "card.txt": "Hi" } }], judge.grader, {
      signal: controller.signal,
    });
    expect(await result).toMatchObject({ status: "cancelled" });
    expect(requests).toHaveLength(2);
    for (const n of [1, 2])
      expect(await readdir(join(iterationDir(), `eval-${n}`, "with_skill", "run-1", "outputs"))).toContain(
        "card.txt",
      );
  });

  it("cancelled while the failed gradings are graded again: a verdict that comes after the cancel is not kept", async () => {
    const controller = new AbortController();
    const judge = scriptedJudge([
      new Error("judge busy"),
      new Error("judge busy"),
      () => {
        controller.abort();
        return 0;
      },
    ]);
    const { result } = execute([{ write: { "card.txt": "Hi" } }], judge.grader, {
      signal: controller.signal,
    });
    expect(await result).toMatchObject({ status: "cancelled" });
    for (const n of [1, 2])
      expect(await readdir(join(iterationDir(), `eval-${n}`, "with_skill", "run-1"))).not.toContain(
        "grading.json",
      );
  });

  it("a signal aborted before anything ran ends cancelled, no run made", async () => {
    const controller = new AbortController();
    controller.abort();
    const judge = scriptedJudge([0]);
    const { result, requests } = execute([{ write: { "card.txt": "Hi" } }], judge.grader, {
      signal: controller.signal,
    });
    expect(await result).toEqual({ status: "cancelled", costUsd: 0 });
    expect(requests).toEqual([]);
  });

  it("a run the agent reports cancelled (Ctrl-C in its own terminal) ends it cancelled", async () => {
    const judge = scriptedJudge([0]);
    const { result } = execute([{ outcome: "cancelled" }, { write: { "card.txt": "Hi" } }], judge.grader);
    expect(await result).toEqual({ status: "cancelled", costUsd: 0 });
  });
});
