// `npm run bench`: speed as ratios against the ideal. Needs the build (npm run bench builds first).
// BENCH_AGENTS=codex,gemini picks agents (default: every registered one); BENCH_ONLY=eval, overhead, triggers, replay, optimize-replay or
// startup, sandbox, project-copy (comma-separated) runs some parts; BENCH_QUICK=1 runs fewer, shorter runs for a smoke check;
// BENCH_LATENCY_MS sets the simulator's latency per model call (default 2500, quick 500).
import { cpus } from "node:os";
import { agentStartup } from "./agent-startup.mjs";
import { evalThroughput } from "./eval-throughput.mjs";
import { harnessOverhead } from "./harness-overhead.mjs";
import { optimizeReplay } from "./optimize-replay.mjs";
import { projectCopy } from "./project-copy.mjs";
import { replayThroughput } from "./replay-throughput.mjs";
import { sandboxStartup } from "./sandbox-startup.mjs";
import { benchSettings } from "./settings.mjs";
import { triggerThroughput } from "./trigger-throughput.mjs";

const log = (line) => process.stdout.write(`${line}\n`);
const settings = benchSettings(process.env);
const parts = {
  startup: agentStartup,
  overhead: harnessOverhead,
  triggers: triggerThroughput,
  replay: replayThroughput,
  "optimize-replay": optimizeReplay,
  eval: evalThroughput,
  sandbox: sandboxStartup,
  "project-copy": projectCopy,
};
log(
  `# skillgym benchmark — ${new Date().toISOString()} — ${cpus().length} cores, Node ${process.version}` +
    ` — agents ${settings.agents.join(", ")}${settings.quick ? " — QUICK (smoke check, not figures)" : ""}`,
);
for (const [name, part] of Object.entries(parts)) {
  if (settings.parts.includes(name)) await part(log, settings);
}
