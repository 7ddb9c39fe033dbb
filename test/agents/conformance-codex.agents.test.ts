import { createAgent } from "../../src/agents/registry.js";
import { startSim } from "../../src/sim/index.js";
import { describeAgentConformance } from "./conformance.js";

describeAgentConformance({
  name: "codex",
  createAgent: (options) => createAgent("codex", options),
  startSim: (script) => startSim({ script }),
  skillLoad: "read",
});
