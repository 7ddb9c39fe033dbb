// `npm run bench`: speed as ratios against the ideal. Needs the build (npm run bench builds first).
// BENCH_ONLY=eval, BENCH_ONLY=triggers or BENCH_ONLY=startup runs one part.
import { cpus } from "node:os";
import { agentStartup } from "./agent-startup.mjs";
import { evalThroughput } from "./eval-throughput.mjs";
import { triggerThroughput } from "./trigger-throughput.mjs";

const log = (line) => process.stdout.write(`${line}\n`);
const only = process.env.BENCH_ONLY;
log(`# skillgym benchmark — ${new Date().toISOString()} — ${cpus().length} cores, Node ${process.version}`);
if (!only || only === "eval") await evalThroughput(log);
if (!only || only === "triggers") await triggerThroughput(log);
if (!only || only === "startup") await agentStartup(log);
