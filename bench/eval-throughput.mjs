// Throughput of `eval` with one real agent (Claude Code unless not selected) against skillgym sim at a fixed
// latency per model call.
import { join } from "node:path";
import { createAgent, runEvals, startSim } from "../dist/index.js";
import { reportScript, writeReportSkill } from "./eval-suite.mjs";
import { fmt, memorySampler, tempDir } from "./lib.mjs";
import { mean } from "./stats.mjs";

async function measure({ agentName, latencyMs, runs, concurrency }) {
  const { dir, cleanup } = await tempDir();
  try {
    await writeReportSkill(dir, runs);
    const sim = await startSim({ latencyMs, script: reportScript });
    const memory = memorySampler();
    const cpu = process.cpuUsage();
    const started = Date.now();
    const summary = await runEvals({
      skillPath: join(dir, "bench-skill"),
      runs: 1,
      baseline: "none",
      concurrency,
      timeoutSeconds: 120,
      createAgent: () => createAgent(agentName, { simulatorUrl: sim.url }),
    });
    const wallMs = Date.now() - started;
    const used = process.cpuUsage(cpu);
    const peakMiB = memory.stop();
    await sim.close();
    const records = summary.records;
    return {
      runs,
      concurrency,
      wallMs,
      failed: records.filter((r) => r.outcome !== "success").length,
      meanRunMs: mean(records.map((r) => r.durationMs)),
      meanAgentMs: mean(records.map((r) => r.durationMs - r.overheadMs)),
      meanOverheadMs: mean(records.map((r) => r.overheadMs)),
      peakMiB,
      harnessCpuMs: (used.user + used.system) / 1000,
    };
  } finally {
    await cleanup();
  }
}

export async function evalThroughput(log, settings) {
  const agentName = settings.agents.includes("claude-code") ? "claude-code" : settings.agents[0];
  const { latencyMs } = settings;
  log(
    `\n## eval throughput, ${agentName} (sim latency ${latencyMs} ms per model call, 3 model calls per run)\n`,
  );
  const single = await measure({ agentName, latencyMs, runs: settings.quick ? 2 : 4, concurrency: 1 });
  const perRunMs = single.meanRunMs;
  log(`per-run time at concurrency 1: ${fmt(perRunMs / 1000)} s (agent ${fmt(single.meanAgentMs / 1000)} s)`);
  log(
    "| concurrency | runs | wall s | runs/min | ideal runs/min | wall / ideal | overhead ms/run | harness CPU ms/run | harness peak MiB | failed |",
  );
  log("|---|---|---|---|---|---|---|---|---|---|");
  const rows = [single];
  const shapes = settings.quick
    ? [[4, 4]]
    : [
        [16, 4],
        [16, 8],
        [32, 8],
      ];
  for (const [runs, concurrency] of shapes) {
    rows.push(await measure({ agentName, latencyMs, runs, concurrency }));
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
