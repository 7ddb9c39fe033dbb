import { readdir, readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import { type FinishedRun, type RunRecord, runEvals } from "../../src/run/index.js";
import { readJson } from "../e2e/helpers.js";
import { type EvalBench, evalOptions, exists, GREETER_EVALS, startBench } from "./eval-fixtures.js";

// runEvals in this process, its agent the claude-code adapter on the test double, against one sim for the file.
let bench: EvalBench;
beforeAll(async () => {
  bench = await startBench({
    "project/notes.txt": "project notes\n",
    "greeter/evals/setup/base.txt": "from the suite's base overlay\n",
    "greeter/evals/evals.json": JSON.stringify({ env: ["GREETER_TOKEN"], ...GREETER_EVALS }),
  });
});
afterAll(() => bench.close());

const runOf = (r: RunRecord) => `${r.spec.evalName} ${r.spec.configuration}`;

describe("runEvals records", () => {
  it("writes the iteration, each eval's metadata and each run's files, and hands each success to afterRun", async () => {
    const finished: FinishedRun[] = [];
    const seenOnFinish: Record<string, boolean> = {};
    const attemptGoneAtEnd: Record<string, boolean> = {};
    const checks: Promise<void>[] = [];
    const plans: unknown[] = [];
    const base = await createClaudeCodeAgent({ binary: bench.binary, simulatorUrl: bench.sim.url });
    const agent = {
      ...base,
      version: "9.9.9",
      mode: "default",
      simScript: null,
      sandboxed: true,
      sandbox: { bwrap: "/opt/bwrap", network: { kind: "simulator" as const, url: bench.sim.url } },
    };
    const evalsPath = join(bench.dir, "greeter", "evals", "evals.json");
    const summary = await runEvals(
      evalOptions(bench, "ws-records", {
        model: "sim-x",
        evalsPath,
        projectRoot: join(bench.dir, "project"),
        createAgent: async () => agent,
        afterRun: async (run) => {
          finished.push(run);
          const name = `${run.spec.evalName} ${run.spec.configuration}`;
          seenOnFinish[name] =
            (await exists(join(run.workspaceDir, "notes.txt"))) &&
            (await exists(join(run.workspaceDir, "base.txt"))) &&
            (run.spec.configuration !== "with_skill" ||
              run.spec.eval.id !== 1 ||
              (await exists(join(run.workspaceDir, "card.txt"))));
          // Only the with_skill runs were judged.
          return run.spec.configuration === "with_skill" ? { judgeCostUsd: 0.25 } : {};
        },
        reporter: {
          onPlan: (info) => plans.push(info),
          onRunEnd: (record) => {
            const run = finished.find((f) => f.spec === record.spec);
            if (run)
              checks.push(
                exists(dirname(run.workspaceDir)).then((found) => {
                  attemptGoneAtEnd[runOf(record)] = !found;
                }),
              );
          },
        },
      }),
    );
    await Promise.all(checks);
    const iterationDir = join(bench.dir, "ws-records", "iteration-1");
    expect(summary).toEqual({
      iterationDir,
      iteration: 1,
      resumed: false,
      simulated: true,
      simScript: null,
      records: expect.any(Array),
      cancelled: false,
    });
    expect(plans).toEqual([{ iterationDir, total: 4, skipped: 0, resumed: false, simulated: true }]);
    expect(
      summary.records
        .map((r) => [
          runOf(r),
          r.outcome,
          r.attempts,
          r.skipped,
          r.costUsd,
          "judgeCostUsd" in r && r.judgeCostUsd,
        ])
        .sort(),
    ).toEqual([
      ["eval-1 with_skill", "success", 1, false, 0, 0.25],
      ["eval-1 without_skill", "success", 1, false, 0, false],
      ["eval-farewell note with_skill", "success", 1, false, 0, 0.25],
      ["eval-farewell note without_skill", "success", 1, false, 0, false],
    ]);
    for (const r of summary.records) {
      expect(r.tokens).toBeGreaterThan(0);
      // The time around the agent's process: staging, collecting and writing take some, never the whole run.
      expect(r.overheadMs).toBeGreaterThan(0);
      expect(r.overheadMs).toBeLessThan(r.durationMs);
      expect(r.durationMs).toBeLessThan(60_000);
    }

    expect(await readJson(join(iterationDir, "iteration.json"))).toEqual({
      skill_name: "greeter",
      skill_path: join(bench.dir, "greeter"),
      skill_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      status: "complete",
      started_at: expect.any(String),
      finished_at: expect.any(String),
      simulated: true,
      sandbox: true,
      agent: { name: "claude-code", version: "9.9.9", mode: "default" },
      sim_script: null,
      model: "sim-x",
      project_root: join(bench.dir, "project"),
      evals_path: evalsPath,
      plan: {
        evals: [1, "farewell note"],
        configurations: ["with_skill", "without_skill"],
        runs_per_configuration: 1,
      },
    });
    expect((await readdir(iterationDir)).sort()).toEqual(["eval-1", "eval-farewell_note", "iteration.json"]);
    expect(await readJson(join(iterationDir, "eval-1", "eval_metadata.json"))).toEqual({
      eval_id: 1,
      eval_name: "eval-1",
      prompt: "card: a greeting card for Ada",
      assertions: ["card.txt greets Ada"],
    });
    expect(await readJson(join(iterationDir, "eval-farewell_note", "eval_metadata.json"))).toEqual({
      eval_id: 2,
      eval_name: "farewell note",
      prompt: "quiet: a farewell note",
      assertions: ["says goodbye"],
    });

    const withRun = join(iterationDir, "eval-1", "with_skill", "run-1");
    expect((await readdir(withRun)).sort()).toEqual([
      "activation.json",
      "events.jsonl",
      "outputs",
      "timing.json",
      "transcript.jsonl",
      "transcript.md",
    ]);
    expect((await readdir(join(withRun, "outputs"))).sort()).toEqual(["card.txt", "metrics.json"]);
    expect(await readFile(join(withRun, "outputs", "card.txt"), "utf8")).toBe("Hello, Ada!\n");
    const timing = await readJson(join(withRun, "timing.json"));
    expect(timing).toEqual({
      total_tokens: summary.records.find((r) => runOf(r) === "eval-1 with_skill")?.tokens,
      duration_ms: expect.any(Number),
      total_duration_seconds: expect.any(Number),
      executor_start: expect.any(String),
      executor_end: expect.any(String),
      executor_duration_seconds: expect.any(Number),
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
      cost_usd: 0,
      num_turns: 4,
      model: "sim-x",
      outcome: "success",
      attempts: 1,
      simulated: true,
    });
    expect(timing.duration_ms as number).toBeGreaterThan(0);
    expect(timing.total_duration_seconds).toBe((timing.duration_ms as number) / 1000);
    expect(timing.executor_duration_seconds).toBe(timing.total_duration_seconds);
    expect(timing.input_tokens as number).toBeGreaterThan(0);
    expect(timing.output_tokens as number).toBeGreaterThan(0);
    const transcript = await readFile(join(withRun, "transcript.md"), "utf8");
    expect(transcript.startsWith("# eval-1 — with_skill — run 1\n")).toBe(true);
    expect(await readJson(join(withRun, "outputs", "metrics.json"))).toEqual({
      tool_calls: { Skill: 1, Write: 1 },
      total_tool_calls: 2,
      total_steps: 3,
      files_created: ["card.txt"],
      files_modified: [],
      files_deleted: [],
      errors_encountered: 0,
      output_chars: 12,
      transcript_chars: transcript.length,
    });
    expect(await readFile(join(withRun, "events.jsonl"), "utf8")).toContain('"tool":"write"');
    expect(await readJson(join(withRun, "activation.json"))).toEqual({
      skill: "greeter",
      configuration: "with_skill",
      agent: "claude-code",
      fired: [{ skill: "greeter", via: "tool", turn: 1, tool_use_id: expect.any(String) }],
      skill_fired: true,
      bundled_files: ["SKILL.md"],
      files_opened: [],
      unexpected_skills: [],
      contaminated: false,
      contamination: [],
    });

    // Each success was handed over while its workspace (the project, the suite's overlay, what the agent wrote) existed.
    expect(finished.map((f) => `${f.spec.evalName} ${f.spec.configuration}`).sort()).toEqual(
      summary.records.map(runOf).sort(),
    );
    expect(Object.values(seenOnFinish)).toEqual([true, true, true, true]);
    expect(attemptGoneAtEnd).toEqual({
      "eval-1 with_skill": true,
      "eval-1 without_skill": true,
      "eval-farewell note with_skill": true,
      "eval-farewell note without_skill": true,
    });
    const card = finished.find((f) => f.spec.eval.id === 1 && f.spec.configuration === "with_skill");
    expect(card).toMatchObject({
      skillName: "greeter",
      passEnv: ["GREETER_TOKEN"],
      sandbox: { bwrap: "/opt/bwrap" },
      result: { outcome: "success" },
      changes: { created: ["card.txt"], modified: [], deleted: [] },
    });
    expect(card?.redactor).toBe(agent.redactor);
    // Each attempt's folder is named after its eval (made safe for a path), configuration and run.
    expect(finished.map((f) => basename(dirname(f.workspaceDir))).sort()).toEqual([
      "1-with_skill-1.run-1.a1",
      "1-without_skill-1.run-1.a1",
      "farewell_note-with_skill-1.run-1.a1",
      "farewell_note-without_skill-1.run-1.a1",
    ]);
    // The run's temp root is gone once every run has ended.
    expect(await exists(dirname(dirname(card?.workspaceDir ?? "")))).toBe(false);
  });
});
