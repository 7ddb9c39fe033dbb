import { createAgent } from "../../src/agents/registry.js";
import { startSim } from "../../src/sim/index.js";
import { describeAgentConformance } from "./conformance.js";

describeAgentConformance({
  name: "copilot",
  createAgent: (options) => createAgent("copilot", options),
  startSim: (script) => startSim({ script }),
});
