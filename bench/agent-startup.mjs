// Start-up cost per agent: a one-answer run against skillgym sim (no latency), run alone, median of 5 after a warm-up.
import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { agentNames, createAgent } from "../dist/agents/registry.js";
import { startSim } from "../dist/index.js";
import { fmt, tempDir } from "./lib.mjs";

// CPU seconds of this process's waited-for children (Linux): the agent and whatever it started.
function childCpuSeconds() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(name, simUrl, dir) {
  const agent = await createAgent(name, { simulatorUrl: simUrl });
  const walls = [];
  const cpus = [];
  for (let i = 0; i < 6; i++) {
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
    walls.push(result.process.durationMs);
    cpus.push(childCpuSeconds() - before);
  }
  return { version: agent.version ?? "?", wall: median(walls), cpu: median(cpus) };
}

export async function agentStartup(log) {
  if (process.platform !== "linux") return;
  const { dir, cleanup } = await tempDir();
  const sim = await startSim({ script: { rules: [{ skill: "none", without_skill: [{ text: "Hi." }] }] } });
  try {
    log("\n## agent start-up (one-answer run against the sim, median of 5)\n");
    log("| agent | version | wall s per run | CPU s per run |");
    log("|---|---|---|---|");
    for (const name of agentNames) {
      const m = await measure(name, sim.url, dir);
      log(`| ${name} | ${m.version} | ${fmt(m.wall / 1000)} | ${fmt(m.cpu)} |`);
    }
  } finally {
    await sim.close();
    await cleanup();
  }
}
