// Trigger evals: 20 queries × 3 runs at concurrency 8 with the real Claude Code against skillgym sim.
import { join } from "node:path";
import { createAgent, runTriggers, startSim } from "../dist/index.js";
import { fmt, memorySampler, tempDir, writeTree } from "./lib.mjs";

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 2500);

async function measure(queryCount, concurrency) {
  const { dir, cleanup } = await tempDir();
  try {
    const queries = Array.from({ length: queryCount }, (_, i) => ({
      query: `bench query ${i < queryCount / 2 ? i : 10 + i - queryCount / 2}: write a haiku`,
      should_trigger: i < queryCount / 2,
    }));
    await writeTree(dir, {
      "haiku/SKILL.md":
        "---\nname: haiku\ndescription: Writes a haiku. Use when the user asks for a haiku.\n---\n\nWrite a haiku.\n",
      "haiku/evals/triggers.json": JSON.stringify(queries),
    });
    // Half the queries load the skill (the run stops there); the others answer in text after looking around once.
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
    const sim = await startSim({ script, latencyMs: LATENCY_MS });
    const memory = memorySampler();
    const cpu = process.cpuUsage();
    const started = Date.now();
    const summary = await runTriggers({
      skillPath: join(dir, "haiku"),
      runs: 3,
      threshold: 0.5,
      concurrency,
      timeoutSeconds: 120,
      createAgent: () => createAgent("claude-code", { simulatorUrl: sim.url }),
    });
    const wallMs = Date.now() - started;
    const harnessCpuMs = (process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000;
    const peak = memory.stop();
    await sim.close();
    const triggered = summary.records.filter((r) => r.triggered);
    const others = summary.records.filter((r) => !r.triggered && r.error === undefined);
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    return {
      wallMs,
      peak,
      harnessCpuMs,
      runs: summary.records.length,
      errors: summary.results.summary.errors,
      triggered: triggered.length,
      others: others.length,
      msTriggered: mean(triggered.map((r) => r.durationMs)),
      msOthers: mean(others.map((r) => r.durationMs)),
      requestsTriggered: mean(triggered.map((r) => r.record.model_requests ?? 0)),
      requestsOthers: mean(others.map((r) => r.record.model_requests ?? 0)),
    };
  } finally {
    await cleanup();
  }
}

export async function triggerThroughput(log) {
  const single = await measure(2, 1);
  const full = await measure(20, 8);
  // Ideal: each run taking as long as it does alone (concurrency 1), laid end to end, divided by the concurrency.
  const idealMs = (full.triggered * single.msTriggered + full.others * single.msOthers) / 8;
  log(
    `\n## trigger throughput (20 queries × 3 runs, concurrency 8, sim latency ${LATENCY_MS} ms per model call)\n`,
  );
  log(
    `alone (concurrency 1): a triggered run ${fmt(single.msTriggered / 1000)} s, a non-triggered run ${fmt(single.msOthers / 1000)} s`,
  );
  log(
    "| runs | wall s | ideal s | wall / ideal | model requests per triggered run | per non-triggered run | errors | harness CPU ms/run | harness peak MiB |",
  );
  log("|---|---|---|---|---|---|---|---|---|");
  log(
    `| ${full.runs} | ${fmt(full.wallMs / 1000, 1)} | ${fmt(idealMs / 1000, 1)} | ${fmt(full.wallMs / idealMs)}× | ` +
      `${fmt(full.requestsTriggered)} (minimum 1) | ${fmt(full.requestsOthers)} | ${full.errors} | ${fmt(full.harnessCpuMs / full.runs, 0)} | ${fmt(full.peak, 0)} |`,
  );
}
