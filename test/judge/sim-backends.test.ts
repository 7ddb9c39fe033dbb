import { afterEach, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { createJudge } from "../../src/judge/create.js";
import { type GraderInput, gradeWithJudge } from "../../src/judge/grader.js";
import { type SimServer, startSim } from "../../src/sim/index.js";

const input: GraderInput = {
  prompt: "Write a haiku about autumn into haiku.md",
  expectations: [
    "haiku.md exists",
    "The haiku has three lines in a 5-7-5 syllable pattern",
    "The haiku mentions falling leaves",
  ],
  outputs: [
    {
      path: "haiku.md",
      content: "Crisp air, red maples\nleaves drift down to the still pond\nautumn settles in",
    },
  ],
  transcript: "## Final answer\nWrote haiku.md.",
};

const failSyllables = {
  judge: {
    verdicts: [{ match: "syllable", passed: false, evidence: "Line 1 has 5 syllables, line 2 has 8." }],
  },
};

let sim: SimServer | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(script: unknown): Promise<SimServer> {
  sim = await startSim({ script: SimScript.parse(script) });
  return sim;
}

describe("the sim judge (the anthropic SDK against skillgym sim)", () => {
  it("grades three expectations, failing the one the script's regex names", async () => {
    const { url, log } = await start(failSyllables);
    const judge = await createJudge({ backend: "sim", simulatorUrl: url, env: {} });
    expect([judge.backend, judge.model, judge.simulated]).toEqual(["sim", "skillgym-sim", true]);
    const { graded, response } = await gradeWithJudge(judge, input);
    expect(graded.expectations.map((e) => [e.text, e.passed, e.evidence])).toEqual([
      [input.expectations[0], true, "Simulated verdict (skillgym sim)"],
      [input.expectations[1], false, "Line 1 has 5 syllables, line 2 has 8."],
      [input.expectations[2], true, "Simulated verdict (skillgym sim)"],
    ]);
    expect(response).toMatchObject({ model: "skillgym-sim", costUsd: 0, attempts: 1 });
    expect(response.inputTokens).toBeGreaterThan(100);
    expect(response.outputTokens).toBeGreaterThan(10);
    expect(response.costNote).toBeUndefined();
    expect(log.map((e) => [e.path, e.action])).toEqual([["/v1/messages", "judge grader"]]);
  });

  it('fails every expectation by default when the script says default: "fail"', async () => {
    const { url } = await start({
      judge: { default: "fail", verdicts: [{ match: "exists", passed: true }] },
    });
    const judge = await createJudge({ backend: "sim", simulatorUrl: url });
    const { graded } = await gradeWithJudge(judge, input);
    expect(graded.expectations.map((e) => e.passed)).toEqual([true, false, false]);
  });

  it("is what the anthropic backend becomes when given a simulator URL", async () => {
    const { url } = await start({});
    const judge = await createJudge({ backend: "anthropic", simulatorUrl: url, env: {} });
    expect([judge.backend, judge.simulated]).toEqual(["sim", true]);
  });
});

describe("the anthropic backend against a base URL", () => {
  it("prices a known model from the usage it is sent", async () => {
    const { url } = await start(failSyllables);
    const judge = await createJudge({
      backend: "anthropic",
      baseUrl: url,
      env: { ANTHROPIC_API_KEY: "sk-test" },
    });
    expect([judge.backend, judge.model, judge.simulated]).toEqual(["anthropic", "claude-sonnet-4-5", false]);
    const { graded, response } = await gradeWithJudge(judge, input);
    expect(graded.expectations.map((e) => e.passed)).toEqual([true, false, true]);
    const expected = (response.inputTokens * 3 + response.outputTokens * 15) / 1_000_000;
    expect(response.costUsd).toBeCloseTo(expected, 10);
    expect(response.costUsd).toBeGreaterThan(0);
    expect(response.costNote).toBeUndefined();
  });

  it("counts an unknown model's cost as 0 and says so", async () => {
    const { url } = await start({});
    const judge = await createJudge({
      backend: "anthropic",
      model: "my-fine-tune",
      baseUrl: url,
      env: { ANTHROPIC_AUTH_TOKEN: "token" },
    });
    const { response } = await gradeWithJudge(judge, input);
    expect(response.costUsd).toBe(0);
    expect(response.costNote).toBe("no price is known for my-fine-tune: its cost is counted as 0");
  });
});

describe("the openai backend against the sim's /v1/chat/completions", () => {
  it("grades three expectations through a simulator URL", async () => {
    const { url, log } = await start(failSyllables);
    const judge = await createJudge({ backend: "openai", model: "gpt-test", simulatorUrl: url, env: {} });
    expect([judge.backend, judge.model, judge.simulated]).toEqual(["openai", "gpt-test", true]);
    const { graded, response } = await gradeWithJudge(judge, input);
    expect(graded.expectations.map((e) => [e.passed, e.evidence])).toEqual([
      [true, "Simulated verdict (skillgym sim)"],
      [false, "Line 1 has 5 syllables, line 2 has 8."],
      [true, "Simulated verdict (skillgym sim)"],
    ]);
    expect(response).toMatchObject({ model: "skillgym-sim", costUsd: 0, attempts: 1 });
    expect(response.inputTokens).toBeGreaterThan(100);
    expect(log.map((e) => [e.path, e.action])).toEqual([["/v1/chat/completions", "judge grader"]]);
  });

  it("talks to a local endpoint given as a base URL, with no key, and notes the missing price", async () => {
    const { url } = await start(failSyllables);
    const judge = await createJudge({ backend: "openai", model: "llama", baseUrl: `${url}/v1/`, env: {} });
    expect(judge.simulated).toBe(false);
    const { graded, response } = await gradeWithJudge(judge, input);
    expect(graded.expectations.map((e) => e.passed)).toEqual([true, false, true]);
    expect(response.costNote).toBe("no price was given for llama: its cost is counted as 0");
  });

  it("prices the tokens when given a price", async () => {
    const { url } = await start({});
    const judge = await createJudge({
      backend: "openai",
      model: "llama",
      baseUrl: `${url}/v1`,
      price: { input: 1, output: 2 },
      env: {},
    });
    const { response } = await gradeWithJudge(judge, input);
    expect(response.costUsd).toBeCloseTo((response.inputTokens + 2 * response.outputTokens) / 1_000_000, 12);
    expect(response.costNote).toBeUndefined();
  });

  it("prices a model the price table knows without being given a price", async () => {
    const { url } = await start({});
    const judge = await createJudge({ backend: "openai", model: "gpt-4.1", baseUrl: `${url}/v1`, env: {} });
    const { response } = await gradeWithJudge(judge, input);
    // gpt-4.1: $2 per million input tokens, $8 per million output tokens.
    expect(response.costUsd).toBeGreaterThan(0);
    expect(response.costUsd).toBeCloseTo(
      (2 * response.inputTokens + 8 * response.outputTokens) / 1_000_000,
      12,
    );
    expect(response.costNote).toBeUndefined();
  });
});
