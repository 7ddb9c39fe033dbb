import { describe, it } from "vitest";
import { createClaudeCodeAgent } from "../../../src/agents/index.js";
import { fidelityCase } from "./fidelity-case.js";

// The fidelity case (fidelity-case.ts) through the real Claude Code.
const fidelity = fidelityCase({ createAgent: (simulatorUrl) => createClaudeCodeAgent({ simulatorUrl }) });

describe("--screen replay through the real Claude Code", () => {
  it("decides first-turn runs by replay, hands the rest to the agent, and every verdict equals the all-agent run", async () => {
    const { capture, replays } = await fidelity.run();
    // Claude Code's own first request, byte for byte but for the query, is what each replay sent.
    fidelity.expectSentAsCaptured(capture, replays, fidelity.queries);
  });
});
