import { createAgent } from "../../src/agents/registry.js";
import { startSim } from "../../src/sim/index.js";
import { describeAgentConformance } from "./conformance.js";

// Gemini CLI in ACP mode (its --acp flag; --experimental-acp is the deprecated spelling), driven by the acp adapter.
describeAgentConformance({
  name: "acp:gemini --acp",
  createAgent: (options) => createAgent("acp:gemini --acp", options),
  startSim: (script) => startSim({ script }),
});
