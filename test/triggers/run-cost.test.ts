import { describe, expect, it } from "vitest";
import type { AgentRunResult } from "../../src/agents/agent.js";
import type { AgentEvent, TokenUsage } from "../../src/agents/events.js";
import { costAt, priceOf } from "../../src/agents/pricing.js";
import { triggerRunCost } from "../../src/triggers/run-cost.js";

const usage = (input: number, output: number): TokenUsage => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});
const streamed: AgentEvent[] = [
  { kind: "usage", phase: "start", usage: usage(1000, 1) },
  { kind: "usage", phase: "delta", usage: usage(0, 200) },
];
const init = (model: string): AgentEvent & { kind: "init" } => ({
  kind: "init",
  model,
  tools: [],
  skills: [],
});
const result = (fields: { costUsd?: number; usage?: TokenUsage }): AgentEvent & { kind: "result" } => ({
  kind: "result",
  isError: false,
  subtype: "success",
  text: "",
  ...fields,
});

function run(parts: Partial<AgentRunResult>): AgentRunResult {
  return { outcome: "stopped", events: [], process: {} as AgentRunResult["process"], ...parts };
}

const SONNET = "claude-sonnet-4-5";
const OPUS = "claude-opus-4-1";
const at = (model: string, tokens: TokenUsage) => costAt(priceOf(model)!, tokens);

describe("what a trigger run cost", () => {
  it("is nothing for a simulated run or one that never ran", () => {
    expect(triggerRunCost(run({ result: result({ costUsd: 0.5 }) }), { simulated: true })).toEqual({
      cost_usd: 0,
    });
    expect(triggerRunCost(undefined, { simulated: false, model: SONNET })).toEqual({ cost_usd: 0 });
  });

  it("is the agent's own figure when its result line gives one", () => {
    const finished = run({ events: streamed, init: init(SONNET), result: result({ costUsd: 0.42 }) });
    expect(triggerRunCost(finished, { simulated: false })).toEqual({ cost_usd: 0.42 });
    expect(triggerRunCost(run({ result: result({ costUsd: 0 }) }), { simulated: false })).toEqual({
      cost_usd: 0,
    });
  });

  it("is priced from the streamed tokens by the run's model, else by the model asked for", () => {
    const tokens = usage(1000, 200);
    expect(
      triggerRunCost(run({ events: streamed, init: init(SONNET) }), { simulated: false, model: OPUS }),
    ).toEqual({
      cost_usd: at(SONNET, tokens),
      cost_source: "stream",
    });
    expect(triggerRunCost(run({ events: streamed }), { simulated: false, model: OPUS })).toEqual({
      cost_usd: at(OPUS, tokens),
      cost_source: "stream",
    });
    expect(
      triggerRunCost(run({ events: streamed, init: init("") }), { simulated: false, model: OPUS }),
    ).toEqual({
      cost_usd: at(OPUS, tokens),
      cost_source: "stream",
    });
    expect(at(SONNET, tokens)).not.toBe(at(OPUS, tokens));
  });

  it("is priced from the result line's tokens when the stream carried none, and unknown when nothing prices it", () => {
    const tokens = usage(5000, 700);
    expect(
      triggerRunCost(run({ init: init(SONNET), result: result({ usage: tokens }) }), { simulated: false }),
    ).toEqual({ cost_usd: at(SONNET, tokens) });
    expect(
      triggerRunCost(run({ events: streamed, init: init("no-such-model") }), { simulated: false }),
    ).toEqual({
      cost_source: "unknown",
    });
    expect(triggerRunCost(run({ init: init(SONNET) }), { simulated: false })).toEqual({
      cost_source: "unknown",
    });
    expect(triggerRunCost(run({}), { simulated: false })).toEqual({ cost_source: "unknown" });
  });
});
