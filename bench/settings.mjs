// What `npm run bench` measures, read once from the environment and passed down to every part.
import { agentNames } from "../dist/index.js";

const PARTS = [
  "startup",
  "overhead",
  "triggers",
  "replay",
  "optimize-replay",
  "eval",
  "sandbox",
  "project-copy",
];

function listed(value, known, variable) {
  const names = value
    .split(",")
    .map((n) => n.trim())
    .filter((n) => n !== "");
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0 || names.length === 0)
    throw new Error(
      `${variable}=${value}: unknown ${unknown.join(", ") || "(empty)"} (known: ${known.join(", ")})`,
    );
  return names;
}

export function benchSettings(env) {
  const quick = env.BENCH_QUICK === "1";
  return {
    agents: env.BENCH_AGENTS ? listed(env.BENCH_AGENTS, agentNames, "BENCH_AGENTS") : [...agentNames],
    parts: env.BENCH_ONLY ? listed(env.BENCH_ONLY, PARTS, "BENCH_ONLY") : PARTS,
    agentsNamed: Boolean(env.BENCH_AGENTS),
    quick,
    latencyMs: Number(env.BENCH_LATENCY_MS ?? (quick ? 500 : 2500)),
  };
}
