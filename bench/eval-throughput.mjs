// Throughput of `eval` with the real Claude Code against skillgym sim at a fixed latency per model call.
import { join } from "node:path";
import { createAgent, runEvals, startSim } from "../dist/index.js";
import { fmt, memorySampler, tempDir, writeTree } from "./lib.mjs";

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 2500);

async function setUp(dir, evalCount) {
  await writeTree(dir, {
    "bench-skill/SKILL.md":
      "---\nname: bench-skill\ndescription: Writes a benchmark report file. Use when the user asks for a benchmark report.\n---\n\nWrite report.txt.\n",
    "bench-skill/evals/evals.json": JSON.stringify({
      evals: Array.from({ length: evalCount }, (_, i) => ({
        id: i + 1,
        prompt: `Write benchmark report number ${i + 1}`,
        expectations: ["report.txt exists"],
      })),
    }),
  });
}

async function measure({ runs, concurrency }) {
  const { dir, cleanup } = await tempDir();
  try {
    await setUp(dir, runs);
    const sim = await startSim({
      latencyMs: LATENCY_MS,
      script: {
        rules: [{ match: "benchmark report", steps: [{ write: { path: "report.txt", content: "ok\n" } }] }],
      },
    });
    const memory = memorySampler();
    const cpu = process.cpuUsage();
    const started = Date.now();
    const summary = await runEvals({
      skillPath: join(dir, "bench-skill"),
      runs: 1,
      baseline: "none",
      concurrency,
      timeoutSeconds: 120,
      createAgent: () => createAgent("claude-code", { simulatorUrl: sim.url }),
    });
    const wallMs = Date.now() - started;
    const harnessCpuMs = (process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000;
    const peakMiB = memory.stop();
    await sim.close();
    const records = summary.records;
    const failed = records.filter((r) => r.outcome !== "success").length;
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return {
      runs,
      concurrency,
      wallMs,
      failed,
      meanRunMs: mean(records.map((r) => r.durationMs)),
      meanAgentMs: mean(records.map((r) => r.durationMs - r.overheadMs)),
      meanOverheadMs: mean(records.map((r) => r.overheadMs)),
      peakMiB,
      harnessCpuMs,
    };
  } finally {
    await cleanup();
  }
}

export async function evalThroughput(log) {
  log(`\n## eval throughput (sim latency ${LATENCY_MS} ms per model call, 3 model calls per run)\n`);
  const single = await measure({ runs: 4, concurrency: 1 });
  const perRunMs = single.meanRunMs;
  log(`per-run time at concurrency 1: ${fmt(perRunMs / 1000)} s (agent ${fmt(single.meanAgentMs / 1000)} s)`);
  log(
    "| concurrency | runs | wall s | runs/min | ideal runs/min | wall / ideal | overhead ms/run | harness CPU ms/run | harness peak MiB | failed |",
  );
  log("|---|---|---|---|---|---|---|---|---|---|");
  const rows = [single];
  for (const [runs, concurrency] of [
    [16, 4],
    [16, 8],
    [32, 8],
  ]) {
    rows.push(await measure({ runs, concurrency }));
  }
  for (const row of rows) {
    const idealMs = (row.runs * perRunMs) / row.concurrency;
    log(
      `| ${row.concurrency} | ${row.runs} | ${fmt(row.wallMs / 1000, 1)} | ${fmt((row.runs / row.wallMs) * 60000, 1)} | ` +
        `${fmt((row.runs / idealMs) * 60000, 1)} | ${fmt(row.wallMs / idealMs)}× | ${fmt(row.meanOverheadMs, 0)} | ` +
        `${fmt(row.harnessCpuMs / row.runs, 0)} | ${fmt(row.peakMiB, 0)} | ${row.failed} |`,
    );
  }
  return rows;
}
