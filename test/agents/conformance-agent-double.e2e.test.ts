import { createAgent } from "../../src/agents/registry.js";
import { startSim } from "../../src/sim/index.js";
import { agentDouble, doubleProgram } from "../agent-double/index.js";
import { describeAgentConformance } from "./conformance.js";

// The claude-code adapter driving the test double: the double passes what the real Claude Code passes.
describeAgentConformance({
  name: "claude-code (test double)",
  createAgent: (options) => createAgent("claude-code", { binary: agentDouble, ...options }),
  startSim: (script) => startSim({ script }),
});

// Under `npm test` the runs above are the resident double's (test/agent-double/resident.ts); the double's own
// program, which StrykerJS's runs and other platforms start, passes the same suite.
if (agentDouble !== doubleProgram)
  describeAgentConformance({
    name: "claude-code (test double, its own process)",
    createAgent: (options) => createAgent("claude-code", { binary: doubleProgram, ...options }),
    startSim: (script) => startSim({ script }),
  });
