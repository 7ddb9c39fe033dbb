// Start-up cost per agent: a one-answer run against skillgym sim (no latency), run alone, after a warm-up.
import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { createAgent, startSim } from "../dist/index.js";
import { tempDir } from "./lib.mjs";
import { spread } from "./stats.mjs";

// CPU seconds of this process's waited-for children (Linux): the agent and whatever it started and waited for.
function childCpuSeconds() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

async function measure(name, simUrl, dir, runs) {
  const agent = await createAgent(name, { simulatorUrl: simUrl });
  const walls = [];
  const cpus = [];
  for (let i = 0; i <= runs; i++) {
    const run = join(dir, `${name}-${i}`);
    await mkdir(join(run, "work"), { recursive: true });
    await mkdir(join(run, "home"), { recursive: true });
    const before = childCpuSeconds();
    const result = await agent.run({
      prompt: "Hello",
      cwd: join(run, "work"),
      home: join(run, "home"),
      timeoutMs: 60_000,
    });
    if (result.outcome !== "success") throw new Error(`${name}: ${result.outcome} ${result.message ?? ""}`);
    if (i === 0) continue;
    walls.push(result.process.durationMs / 1000);
    cpus.push(childCpuSeconds() - before);
  }
  return { version: agent.version ?? "?", walls, cpus };
}

export async function agentStartup(log, settings) {
  if (process.platform !== "linux") {
    log("\n## agent start-up: skipped (CPU accounting reads /proc, Linux only)");
    return;
  }
  const runs = settings.quick ? 2 : 5;
  const { dir, cleanup } = await tempDir();
  const sim = await startSim({ script: { rules: [{ skill: "none", without_skill: [{ text: "Hi." }] }] } });
  try {
    log(
      `\n## agent start-up (one-answer run against the sim, run alone after a warm-up; median of ${runs}, min–max)\n`,
    );
    log("| agent | version | wall s per run | CPU s per run (agent's process tree) |");
    log("|---|---|---|---|");
    for (const name of settings.agents) {
      const m = await measure(name, sim.url, dir, runs);
      log(`| ${name} | ${m.version} | ${spread(m.walls)} | ${spread(m.cpus)} |`);
    }
  } finally {
    await sim.close();
    await cleanup();
  }
}
