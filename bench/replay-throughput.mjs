// Trigger evals with `--screen replay` against the same work through agents: Q queries × R runs at concurrency C with
// the real agent against skillgym sim, wall time of each and whether every verdict is the same.
import { join } from "node:path";
import { agentsWithReplay, createAgent, runTriggers, startSim } from "../dist/index.js";
import { fmt, tempDir, writeTree } from "./lib.mjs";

const HAIKU =
  "---\nname: haiku\ndescription: Writes a haiku. Use when the user asks for a haiku.\n---\n\nWrite a haiku.\n";

// Queries 0–9 load the skill on the first turn; 10–19 answer in text (held-out style) or look around once first.
const scenarios = {
  "held-out (10 load the skill, 10 answer in text)": [
    { match: "^bench query [0-9]:", skill: "~haiku-sg-" },
    { match: "^bench query 1[0-9]:", skill: "none", without_skill: [{ text: "No skill needed." }] },
  ],
  "throughput script (10 load the skill, 10 run ls then answer)": [
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

async function measure({ agentName, rules, latencyMs, queryCount, runs, concurrency, screen }) {
  const { dir, cleanup } = await tempDir();
  try {
    await writeTree(dir, {
      "haiku/SKILL.md": HAIKU,
      "haiku/evals/triggers.json": JSON.stringify(queries(queryCount)),
    });
    const sim = await startSim({ script: { rules }, latencyMs });
    const started = Date.now();
    const summary = await runTriggers({
      skillPath: join(dir, "haiku"),
      workspace: join(dir, "ws"),
      runs,
      threshold: 0.5,
      concurrency,
      timeoutSeconds: 120,
      store: { dir: join(dir, "cache") },
      ...(screen ? { screen: { kind: "replay" } } : {}),
      createAgent: () => createAgent(agentName, { simulatorUrl: sim.url }),
    });
    const wallMs = Date.now() - started;
    await sim.close();
    return {
      wallMs,
      runs: summary.records.length,
      verdicts: JSON.stringify(summary.results.results.map((r) => [r.query, r.pass, r.triggers, r.runs])),
      byReplay: summary.results.screen?.decided_by_replay ?? 0,
      byAgent: summary.results.screen?.decided_by_agent ?? summary.records.length,
      // The capture is one more agent run.
      processes: (summary.results.screen?.decided_by_agent ?? summary.records.length) + (screen ? 1 : 0),
    };
  } finally {
    await cleanup();
  }
}

export async function replayThroughput(log, settings) {
  const { latencyMs, quick } = settings;
  const shape = quick
    ? { queryCount: 4, runs: 2, concurrency: 2 }
    : { queryCount: 20, runs: 3, concurrency: 6 };
  const agents = settings.agents.filter((a) => agentsWithReplay.includes(a));
  log(
    `\n## trigger evals with --screen replay (${shape.queryCount} queries × ${shape.runs} runs, concurrency ` +
      `${shape.concurrency}, sim latency ${latencyMs} ms per model call; agents with replay: ${agents.join(", ") || "none chosen"})\n`,
  );
  log(
    "| agent | scenario | runs | agents: wall s | replay: wall s | replay / agents | decided by replay / agent | agent processes: agents / replay | same verdicts |",
  );
  log("|---|---|---|---|---|---|---|---|---|");
  for (const agentName of agents)
    for (const [name, rules] of Object.entries(scenarios)) {
      const plain = await measure({ agentName, rules, latencyMs, ...shape, screen: false });
      const screened = await measure({ agentName, rules, latencyMs, ...shape, screen: true });
      log(
        `| ${agentName} | ${name} | ${screened.runs} | ${fmt(plain.wallMs / 1000, 1)} | ${fmt(screened.wallMs / 1000, 1)} | ` +
          `${fmt(screened.wallMs / plain.wallMs)}× | ${screened.byReplay} / ${screened.byAgent} | ` +
          `${plain.processes} / ${screened.processes} | ${plain.verdicts === screened.verdicts ? "yes" : "**NO**"} |`,
      );
    }
}
