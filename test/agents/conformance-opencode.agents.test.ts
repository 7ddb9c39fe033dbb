import { vi } from "vitest";
import { createAgent } from "../../src/agents/registry.js";
import { startSim } from "../../src/sim/index.js";
import { describeAgentConformance } from "./conformance.js";

// OpenCode spends 10–15 CPU-seconds starting (a Bun binary): on a shared machine its first request can take a minute.
vi.setConfig({ testTimeout: 900_000 });

describeAgentConformance({
  name: "opencode",
  createAgent: (options) => createAgent("opencode", options),
  startSim: (script) => startSim({ script }),
  runTimeoutMs: 300_000,
  startMs: 240_000,
});
