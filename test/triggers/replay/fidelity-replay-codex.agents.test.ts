import { describe, expect, it } from "vitest";
import { createCodexAgent } from "../../../src/agents/codex/agent.js";
import { fidelityCase } from "./fidelity-case.js";

// The fidelity case (fidelity-case.ts) through the real Codex CLI, whose first-turn load is a `cat` of SKILL.md.
const fidelity = fidelityCase({ createAgent: (simulatorUrl) => createCodexAgent({ simulatorUrl }) });

describe("--screen replay through the real Codex CLI", () => {
  it("decides first-turn runs by replay, hands the rest to the agent, and every verdict equals the all-agent run", async () => {
    const { capture, replays } = await fidelity.run();
    // Codex's own first request, byte for byte but for the query, is what each replay sent; its headers too, but its
    // thread's and the turn's, which each replay has of its own.
    fidelity.expectSentAsCaptured(capture, replays, fidelity.queries);
    const agentHeaders = capture.headers!;
    for (const { headers } of replays) {
      for (const name of ["originator", "user-agent", "x-codex-beta-features", "accept", "content-type"])
        expect(headers![name]).toBe(agentHeaders[name]);
      for (const name of ["session-id", "thread-id", "x-client-request-id", "x-codex-window-id"])
        expect(headers![name]).not.toBe(agentHeaders[name]);
      expect(headers!["x-codex-turn-metadata"]).toBeUndefined();
    }
    expect(new Set(replays.map((e) => e.session)).size).toBe(replays.length);
  });
});
