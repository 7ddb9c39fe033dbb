// `optimize` with 3 rounds on the examples under the simulator, with replay (the default: the train runs, and with 3
// runs each test query's first run) and without
// (`screen: { mode: "none" }`): agent processes started, wall time, and whether the chosen description is the same.
// Agent processes are counted where they start: every call of the agent's `run` (trigger runs and capture runs).
// Two scenarios per example: its own sim script (which routes by the query alone: the original is perfect on train and
// the loop stops after iteration 0), and the sim's word-overlap routing from a vague description, where the improver
// has failures to work on and the loop runs its rounds.
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createAgent, createJudge, loadSimScript, runOptimize, startSim } from "../dist/index.js";
import { fmt, tempDir } from "./lib.mjs";

const EXAMPLES = ["release-notes", "csv-summary"];

const VAGUE = "Helps with files in the project.";

const SCENARIOS = {
  "its sim script": { script: true },
  "word overlap, vague start": { script: false },
};

function counted(agent, tally) {
  return {
    ...agent,
    run: (request) => {
      tally.processes += 1;
      return agent.run(request);
    },
  };
}

async function measure({ example, scenario, agentName, latencyMs, rounds, runs, concurrency, replay }) {
  const { dir, cleanup } = await tempDir();
  try {
    const skillDir = join(dir, example);
    await cp(join(import.meta.dirname, "..", "examples", example), skillDir, { recursive: true });
    const script = scenario.script
      ? await loadSimScript(join(skillDir, "evals", "sim-script.json"))
      : undefined;
    if (!scenario.script) {
      const skillMd = join(skillDir, "SKILL.md");
      await writeFile(
        skillMd,
        (await readFile(skillMd, "utf8")).replace(/^description: .*$/m, `description: ${VAGUE}`),
      );
    }
    const sim = await startSim({ ...(script ? { script } : {}), latencyMs });
    const tally = { processes: 0 };
    const started = Date.now();
    try {
      const { results } = await runOptimize({
        skillPath: skillDir,
        workspace: join(dir, "ws"),
        maxIterations: rounds,
        holdout: 0.4,
        runs,
        threshold: 0.5,
        seed: 42,
        concurrency,
        timeoutSeconds: 120,
        store: { dir: join(dir, "cache") },
        ...(replay ? {} : { screen: { mode: "none" } }),
        createAgent: async () => counted(await createAgent(agentName, { simulatorUrl: sim.url }), tally),
        createImprover: () => createJudge({ backend: "sim", simulatorUrl: sim.url }),
      });
      const made = results.iterations.flatMap((it) => (it.replay ? [it.replay] : []));
      return {
        wallMs: Date.now() - started,
        processes: tally.processes,
        triggerRuns: results.iterations.reduce((n, it) => n + it.trigger_runs, 0),
        byReplay: made.reduce((n, r) => n + r.decided_by_replay, 0),
        trainRuns: made.reduce((n, r) => n + r.train_runs, 0),
        testByReplay: made.reduce((n, r) => n + (r.test_decided_by_replay ?? 0), 0),
        testFirstRuns: made.reduce((n, r) => n + (r.test_first_runs ?? 0), 0),
        evaluations: results.iterations.filter((it) => it.repeat_of === undefined && it.train).length,
        chosen: results.best_description,
        scores: JSON.stringify(results.iterations.map((it) => [it.train?.score, it.test?.score])),
      };
    } finally {
      await sim.close();
    }
  } finally {
    await cleanup();
  }
}

export async function optimizeReplay(log, settings) {
  const { latencyMs, quick } = settings;
  const shape = quick ? { rounds: 1, runs: 1, concurrency: 4 } : { rounds: 3, runs: 3, concurrency: 6 };
  const agents = settings.agents.filter((a) => a === "claude-code");
  log(
    `\n## optimize with replay (train runs; with 3 runs, each test query's first run too) (examples ${EXAMPLES.join(", ")}; ${shape.rounds} rounds, ${shape.runs} runs ` +
      `per query, concurrency ${shape.concurrency}, sim latency ${latencyMs} ms per model call; agents with replay: ${agents.join(", ") || "none chosen"})\n`,
  );
  log(
    "| agent | example | sim | evaluations | trigger runs: agents / replay | train runs decided by replay | first test runs decided by replay | agent processes: agents / replay | fewer | wall s: agents / replay | same description | same scores |",
  );
  log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const agentName of agents)
    for (const example of EXAMPLES)
      for (const [name, scenario] of Object.entries(SCENARIOS)) {
        const shared = { example, scenario, agentName, latencyMs, ...shape };
        const plain = await measure({ ...shared, replay: false });
        const screened = await measure({ ...shared, replay: true });
        log(
          `| ${agentName} | ${example} | ${name} | ${plain.evaluations} / ${screened.evaluations} | ${plain.triggerRuns} / ${screened.triggerRuns} | ` +
            `${screened.byReplay} of ${screened.trainRuns} | ${screened.testByReplay} of ${screened.testFirstRuns} | ` +
            `${plain.processes} / ${screened.processes} | ` +
            `${fmt(plain.processes / Math.max(1, screened.processes))}× | ${fmt(plain.wallMs / 1000, 1)} / ${fmt(screened.wallMs / 1000, 1)} | ` +
            `${plain.chosen === screened.chosen ? "yes" : "**NO**"} | ${plain.scores === screened.scores ? "yes" : "**NO**"} |`,
        );
      }
}
