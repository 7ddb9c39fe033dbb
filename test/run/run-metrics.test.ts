import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agents/events.js";
import { runMetrics } from "../../src/run/run-metrics.js";

const events: AgentEvent[] = [
  { kind: "init", model: "m", tools: [], skills: [] },
  { kind: "text", text: "Let me look.", messageId: "m1" },
  { kind: "tool_use", id: "t1", name: "Bash", input: {}, messageId: "m1" },
  { kind: "tool_result", toolUseId: "t1", isError: true, content: "boom" },
  { kind: "tool_use", id: "t2", name: "Bash", input: {}, messageId: "m2" },
  { kind: "tool_use", id: "t3", name: "Write", input: {}, messageId: "m2" },
  { kind: "tool_result", toolUseId: "t2", isError: false, content: "ok" },
  { kind: "tool_result", toolUseId: "t3", isError: true, content: "denied" },
  { kind: "text", text: "no id" },
  { kind: "text", text: "no id either" },
  { kind: "result", isError: false, subtype: "success", text: "done" },
];

describe("runMetrics", () => {
  it("counts tool calls per tool, steps per message, and failed tool results", () => {
    expect(
      runMetrics(
        events,
        { created: ["out/a.txt", "b.md"], modified: ["c.md"], deleted: ["d.md"], chars: 120 },
        5000,
        false,
      ),
    ).toEqual({
      tool_calls: { Bash: 2, Write: 1 },
      total_tool_calls: 3,
      total_steps: 4,
      files_created: ["out/a.txt", "b.md"],
      files_modified: ["c.md"],
      files_deleted: ["d.md"],
      errors_encountered: 2,
      output_chars: 120,
      transcript_chars: 5000,
    });
  });

  it("counts a failed run as one more error", () => {
    expect(
      runMetrics(events, { created: [], modified: [], deleted: [], chars: 0 }, 0, true).errors_encountered,
    ).toBe(3);
  });

  it("is all zeros for a run without events", () => {
    expect(runMetrics([], { created: [], modified: [], deleted: [], chars: 0 }, 0, false)).toEqual({
      tool_calls: {},
      total_tool_calls: 0,
      total_steps: 0,
      files_created: [],
      files_modified: [],
      files_deleted: [],
      errors_encountered: 0,
      output_chars: 0,
      transcript_chars: 0,
    });
  });
});
