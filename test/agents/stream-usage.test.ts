import { describe, expect, it } from "vitest";
import type { AgentRunResult } from "../../src/agents/agent.js";
import { parseStreamLine } from "../../src/agents/claude-code/parse-stream.js";
import { usageFromStream } from "../../src/agents/stream-usage.js";
import { triggerRunCost } from "../../src/triggers/run-cost.js";

const line = (value: unknown) => JSON.stringify(value);

// Shapes recorded from `claude -p --output-format stream-json --verbose --include-partial-messages`.
const start = (id: string, usage: Record<string, number>) =>
  line({
    type: "stream_event",
    event: {
      type: "message_start",
      message: { id, type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], usage },
    },
    session_id: "b11f621a",
    parent_tool_use_id: null,
    uuid: "67a0f147",
    ttft_ms: 12,
  });
const delta = (output: number) =>
  line({
    type: "stream_event",
    event: {
      type: "message_delta",
      delta: { stop_reason: "tool_use", stop_sequence: null },
      usage: { output_tokens: output },
    },
    session_id: "b11f621a",
    parent_tool_use_id: null,
    uuid: "3f7ea3de",
  });
const blockDelta = line({
  type: "stream_event",
  event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } },
});

describe("streamed token usage", () => {
  it("reads message_start and message_delta usage and nothing else of the partial messages", () => {
    expect(parseStreamLine(start("msg_1", { input_tokens: 30999, output_tokens: 1 }))).toEqual([
      {
        kind: "usage",
        phase: "start",
        messageId: "msg_1",
        usage: {
          inputTokens: 30999,
          outputTokens: 1,
          cacheWriteTokens: 0,
          cacheReadTokens: 0,
        },
      },
    ]);
    expect(parseStreamLine(delta(12))).toEqual([
      {
        kind: "usage",
        phase: "delta",
        usage: {
          inputTokens: 0,
          outputTokens: 12,
          cacheWriteTokens: 0,
          cacheReadTokens: 0,
        },
      },
    ]);
    expect(parseStreamLine(blockDelta)).toEqual([{ kind: "unknown", type: "stream_event" }]);
  });

  it("adds up every message: input and cache from its start, output from its last delta", () => {
    const events = [
      start("msg_1", { input_tokens: 100, cache_creation_input_tokens: 2000, output_tokens: 1 }),
      blockDelta,
      delta(5),
      delta(40),
      start("msg_2", { input_tokens: 30, cache_read_input_tokens: 2000, output_tokens: 1 }),
      // Stopped mid-message: no delta came, the start's output count stands.
    ].flatMap(parseStreamLine);
    expect(usageFromStream(events)).toEqual({
      inputTokens: 130,
      outputTokens: 41,
      cacheWriteTokens: 2000,
      cacheReadTokens: 2000,
    });
    expect(usageFromStream([blockDelta].flatMap(parseStreamLine))).toBeUndefined();
  });
});

function stoppedRun(lines: string[], model: string): AgentRunResult {
  return {
    outcome: "stopped",
    events: lines.flatMap(parseStreamLine),
    init: { kind: "init", model, tools: [], skills: [] },
    process: {} as AgentRunResult["process"],
  };
}

describe("the cost of a trigger run", () => {
  const lines = [start("msg_1", { input_tokens: 30999, output_tokens: 1 }), delta(12)];

  it("prices a run without a result line from its streamed tokens at the model's price", () => {
    // Sonnet: $3 per million input tokens, $15 per million output tokens.
    const cost = triggerRunCost(stoppedRun(lines, "claude-sonnet-4-5-20250929"), { simulated: false });
    expect(cost.cost_source).toBe("stream");
    expect(cost.cost_usd).toBeCloseTo((30999 * 3 + 12 * 15) / 1e6, 12);
  });

  it("keeps the agent's own figure when the result line has one, $0 for simulated runs, and no figure for unpriced ones", () => {
    const finished = stoppedRun(lines, "claude-sonnet-4-5");
    finished.result = { kind: "result", isError: false, subtype: "success", text: "", costUsd: 0.0948 };
    expect(triggerRunCost(finished, { simulated: false })).toEqual({ cost_usd: 0.0948 });
    expect(triggerRunCost(stoppedRun(lines, "claude-sonnet-4-5"), { simulated: true })).toEqual({
      cost_usd: 0,
    });
    expect(triggerRunCost(stoppedRun(lines, "some-unknown-model"), { simulated: false })).toEqual({
      cost_source: "unknown",
    });
  });
});
