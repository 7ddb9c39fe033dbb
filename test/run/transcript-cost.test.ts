import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agents/events.js";
import { transcriptMarkdown } from "../../src/run/transcript-md.js";

// Claude Code prices a simulated run as if a model had answered it.
const events: AgentEvent[] = [
  { kind: "result", isError: false, subtype: "success", text: "Done.", numTurns: 2, costUsd: 0.2125 },
];

describe("the cost line of transcript.md", () => {
  it("shows Claude Code's cost for a real run and $0 for a simulated one", () => {
    expect(transcriptMarkdown("p", events, "h")).toContain("after 2 turns, cost $0.2125.");
    const simulated = transcriptMarkdown("p", events, "h", { simulated: true });
    expect(simulated).toContain("after 2 turns, cost $0 (simulated).");
    expect(simulated).not.toContain("0.2125");
  });
});
