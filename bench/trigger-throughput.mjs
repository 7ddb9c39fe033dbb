// Trigger evals per agent: Q queries × R runs at concurrency C with the real agent against skillgym sim, set
// against the ideal (each run's time alone laid end to end, divided by the concurrency).
import { join } from "node:path";
import { createAgent, runTriggers, startSim } from "../dist/index.js";
import { fmt, memorySampler, tempDir, writeTree } from "./lib.mjs";
import { mean } from "./stats.mjs";

// Queries 0–9 load the skill (the run stops there); 10–19 answer in text after looking around once.
const SHOULD_TRIGGER = /bench query [0-9]:/;
const script = {
  rules: [
    { match: "^bench query [0-9]:", skill: "~haiku-sg-" },
    {
      match: "^bench query 1[0-9]:",
      skill: "none",
      without_skill: [{ bash: "ls" }, { text: "No skill needed." }],
    },
  ],
};

function queries(count) {
  return Array.from({ length: count }, (_, i) => ({
    query: `bench query ${i < count / 2 ? i : 10 + i - count / 2}: write a haiku`,
    should_trigger: i < count / 2,
  }));
}

// Model requests the simulator answered per run, split by whether the run's query should trigger.
function simRequestsPerRun(log) {
  const sessions = new Map();
  for (const entry of log) {
    const seen = sessions.get(entry.session) ?? { count: 0, trigger: SHOULD_TRIGGER.test(entry.prompt) };
    seen.count += 1;
    sessions.set(entry.session, seen);
  }
  const counts = (trigger) => [...sessions.values()].filter((s) => s.trigger === trigger).map((s) => s.count);
  return { triggered: mean(counts(true)), others: mean(counts(false)) };
}

async function measure({ agentName, latencyMs, queryCount, runs, concurrency }) {
  const { dir, cleanup } = await tempDir();
  try {
    await writeTree(dir, {
      "haiku/SKILL.md":
        "---\nname: haiku\ndescription: Writes a haiku. Use when the user asks for a haiku.\n---\n\nWrite a haiku.\n",
      "haiku/evals/triggers.json": JSON.stringify(queries(queryCount)),
    });
    const sim = await startSim({ script, latencyMs });
    const memory = memorySampler();
    const cpu = process.cpuUsage();
    const started = Date.now();
    const summary = await runTriggers({
      skillPath: join(dir, "haiku"),
      runs,
      threshold: 0.5,
      concurrency,
      timeoutSeconds: 120,
      createAgent: () => createAgent(agentName, { simulatorUrl: sim.url }),
    });
    const wallMs = Date.now() - started;
    const used = process.cpuUsage(cpu);
    const peak = memory.stop();
    await sim.close();
    const triggered = summary.records.filter((r) => r.triggered);
    const others = summary.records.filter((r) => !r.triggered && r.error === undefined);
    return {
      wallMs,
      peak,
      harnessCpuMs: (used.user + used.system) / 1000,
      runs: summary.records.length,
      errors: summary.results.summary.errors,
      wrong: summary.records.filter((r) => r.error === undefined && r.triggered !== r.spec.shouldTrigger)
        .length,
      triggered: triggered.length,
      others: others.length,
      msTriggered: mean(triggered.map((r) => r.durationMs)),
      msOthers: mean(others.map((r) => r.durationMs)),
      requestsTriggered: mean(triggered.map((r) => r.record.model_requests ?? 0)),
      requestsOthers: mean(others.map((r) => r.record.model_requests ?? 0)),
      sim: simRequestsPerRun(sim.log),
    };
  } finally {
    await cleanup();
  }
}

export async function triggerThroughput(log, settings) {
  const { latencyMs, quick } = settings;
  const shape = quick
    ? { queryCount: 4, runs: 2, concurrency: 2 }
    : { queryCount: 20, runs: 3, concurrency: 6 };
  log(
    `\n## trigger evals (${shape.queryCount} queries × ${shape.runs} runs, concurrency ${shape.concurrency}, ` +
      `sim latency ${latencyMs} ms per model call)\n`,
  );
  log(
    "Alone: each kind of run at concurrency 1 (2 queries × " +
      `${shape.runs} runs). Requests: answers in the agent's stream / requests the simulator answered.\n`,
  );
  log(
    "| agent | runs | alone s: triggered / not | wall s | ideal s | wall / ideal | requests per triggered run | per non-triggered run | wrong | errors | harness CPU ms/run | harness peak MiB |",
  );
  log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const agentName of settings.agents) {
    const single = await measure({ agentName, latencyMs, queryCount: 2, runs: shape.runs, concurrency: 1 });
    const full = await measure({ agentName, latencyMs, ...shape });
    const idealMs = (full.triggered * single.msTriggered + full.others * single.msOthers) / shape.concurrency;
    log(
      `| ${agentName} | ${full.runs} | ${fmt(single.msTriggered / 1000)} / ${fmt(single.msOthers / 1000)} | ` +
        `${fmt(full.wallMs / 1000, 1)} | ${fmt(idealMs / 1000, 1)} | ${fmt(full.wallMs / idealMs)}× | ` +
        `${fmt(full.requestsTriggered)} / ${fmt(full.sim.triggered)} | ${fmt(full.requestsOthers)} / ${fmt(full.sim.others)} | ` +
        `${full.wrong} | ${full.errors} | ${fmt(full.harnessCpuMs / full.runs, 0)} | ${fmt(full.peak, 0)} |`,
    );
  }
}
