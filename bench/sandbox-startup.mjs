// The sandbox's cost: the extra wall time of a sandboxed one-answer run over a plain one (bubblewrap's start, the
// forwarder's Node start, the network gate), runs alternating so both see the same machine load.
import { mkdir } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { createAgent, startSim } from "../dist/index.js";
import { tempDir } from "./lib.mjs";
import { median, spread } from "./stats.mjs";

async function oneRun(agent, dir, label, i) {
  const run = join(dir, `${agent.name}-${label}-${i}`);
  await mkdir(join(run, "work"), { recursive: true });
  await mkdir(join(run, "home"), { recursive: true });
  const result = await agent.run({
    prompt: "Hello",
    cwd: join(run, "work"),
    home: join(run, "home"),
    timeoutMs: 60_000,
  });
  if (result.outcome !== "success")
    throw new Error(`${agent.name} (${label}): ${result.outcome} ${result.message ?? ""}`);
  return result.process.durationMs / 1000;
}

export async function sandboxStartup(log, settings) {
  if (process.platform !== "linux") {
    log("\n## sandbox start-up: skipped (bubblewrap, Linux only)");
    return;
  }
  const runs = settings.quick ? 2 : 7;
  // OpenCode takes many CPU-seconds per start: measured only when BENCH_AGENTS names it.
  const agents = settings.agentsNamed ? settings.agents : ["claude-code"];
  const { dir, cleanup } = await tempDir();
  const sim = await startSim({ script: { rules: [{ skill: "none", without_skill: [{ text: "Hi." }] }] } });
  try {
    log(
      `\n## sandbox start-up (one-answer run, plain and --sandbox alternating after a warm-up; median of ${runs})\n`,
    );
    log(
      `load average at the start: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(", ")}\n`,
    );
    log("| agent | plain wall s | sandboxed wall s | extra per run (median of pairs), ms |");
    log("|---|---|---|---|");
    for (const name of agents) {
      const plain = await createAgent(name, { simulatorUrl: sim.url });
      const boxed = await createAgent(name, { simulatorUrl: sim.url, sandbox: true }).catch((error) => {
        log(`| ${name} | – | – | skipped: ${error.message} |`);
        return undefined;
      });
      if (!boxed) continue;
      const walls = { plain: [], boxed: [] };
      const extra = [];
      for (let i = 0; i <= runs; i++) {
        const p = await oneRun(plain, dir, "plain", i);
        const b = await oneRun(boxed, dir, "sandbox", i);
        if (i === 0) continue;
        walls.plain.push(p);
        walls.boxed.push(b);
        extra.push((b - p) * 1000);
      }
      log(`| ${name} | ${spread(walls.plain)} | ${spread(walls.boxed)} | ${median(extra).toFixed(0)} |`);
    }
    log(
      `\nload average at the end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(", ")}`,
    );
  } finally {
    await sim.close();
    await cleanup();
  }
}
