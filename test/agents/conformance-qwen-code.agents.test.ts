import { vi } from "vitest";
import { createAgent } from "../../src/agents/registry.js";
import { startSim } from "../../src/sim/index.js";
import { describeAgentConformance } from "./conformance.js";

// Qwen Code over ACP (`qwen --acp`), against the simulator's Chat Completions.
// A test may start Qwen Code twice (the 529 retry), each start half a minute at load 20: beyond vitest's 120 s here.
vi.setConfig({ testTimeout: 400_000 });
describeAgentConformance({
  name: "qwen-code",
  createAgent: (options) => createAgent("qwen-code", options),
  startSim: (script) => startSim({ script }),
  // Qwen Code takes 10–25 s to start on a loaded machine.
  runTimeoutMs: 180_000,
  startMs: 120_000,
});
