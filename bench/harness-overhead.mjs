// The time skillgym spends outside the agent's process per eval run (staging, collecting, records), per agent.
import { join } from "node:path";
import { createAgent, runEvals, startSim } from "../dist/index.js";
import { reportScript, writeReportSkill } from "./eval-suite.mjs";
import { fmt, tempDir } from "./lib.mjs";
import { median, spread } from "./stats.mjs";

async function measure(name, runs) {
  const { dir, cleanup } = await tempDir();
  const sim = await startSim({ script: reportScript });
  try {
    await writeReportSkill(dir, runs);
    const cpu = process.cpuUsage();
    const summary = await runEvals({
      skillPath: join(dir, "bench-skill"),
      runs: 1,
      baseline: "none",
      concurrency: 1,
      timeoutSeconds: 120,
      createAgent: () => createAgent(name, { simulatorUrl: sim.url }),
    });
    const used = process.cpuUsage(cpu);
    const records = summary.records;
    return {
      overheads: records.map((r) => r.overheadMs),
      runMs: records.map((r) => r.durationMs),
      harnessCpuMs: (used.user + used.system) / 1000 / records.length,
      failed: records.filter((r) => r.outcome !== "success").length,
    };
  } finally {
    await sim.close();
    await cleanup();
  }
}

export async function harnessOverhead(log, settings) {
  const runs = settings.quick ? 2 : 5;
  log(
    `\n## harness overhead per eval run (${runs} runs one at a time, sim without latency; median, min–max)\n`,
  );
  log(
    "| agent | overhead ms per run | run ms (agent + overhead) | overhead share | harness CPU ms per run | failed |",
  );
  log("|---|---|---|---|---|---|");
  for (const name of settings.agents) {
    const m = await measure(name, runs);
    log(
      `| ${name} | ${spread(m.overheads, 0)} | ${spread(m.runMs, 0)} | ` +
        `${fmt((100 * median(m.overheads)) / median(m.runMs), 0)} % | ${fmt(m.harnessCpuMs, 0)} | ${m.failed} |`,
    );
  }
}
