import { createAgent } from "../../src/agents/registry.js";
import { startSim } from "../../src/sim/index.js";
import { describeAgentConformance } from "./conformance.js";

describeAgentConformance({
  name: "gemini",
  createAgent: (options) => createAgent("gemini", options),
  startSim: (script) => startSim({ script }),
});
