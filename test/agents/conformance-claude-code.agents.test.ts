import { createAgent } from "../../src/agents/registry.js";
import { startSim } from "../../src/sim/index.js";
import { describeAgentConformance } from "./conformance.js";

describeAgentConformance({
  name: "claude-code",
  createAgent: (options) => createAgent("claude-code", options),
  startSim: (script) => startSim({ script }),
});
