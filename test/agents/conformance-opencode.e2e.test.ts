import { createAgent } from "../../src/agents/registry.js";
import { startSim } from "../../src/sim/index.js";
import { describeAgentConformance } from "./conformance.js";

describeAgentConformance({
  name: "opencode",
  createAgent: (options) => createAgent("opencode", options),
  startSim: (script) => startSim({ script }),
});
