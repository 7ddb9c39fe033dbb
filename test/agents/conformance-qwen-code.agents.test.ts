import { createAgent } from "../../src/agents/registry.js";
import { startSim } from "../../src/sim/index.js";
import { describeAgentConformance } from "./conformance.js";

// Qwen Code over ACP (`qwen --acp`), against the simulator's Chat Completions.
describeAgentConformance({
  name: "qwen-code",
  createAgent: (options) => createAgent("qwen-code", options),
  startSim: (script) => startSim({ script }),
  // Qwen Code takes 10–25 s to start on a loaded machine.
  runTimeoutMs: 180_000,
  startMs: 120_000,
});
