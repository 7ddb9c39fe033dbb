import { createAgent } from "../../src/agents/registry.js";
import { startSim } from "../../src/sim/index.js";
import { agentDouble } from "../agent-double/index.js";
import { describeAgentConformance } from "./conformance.js";

// The claude-code adapter driving the test double: the double passes what the real Claude Code passes.
describeAgentConformance({
  name: "claude-code (test double)",
  createAgent: (options) => createAgent("claude-code", { binary: agentDouble, ...options }),
  startSim: (script) => startSim({ script }),
});
