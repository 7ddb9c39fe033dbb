import { describe, expect, it } from "vitest";
import { parseJudgeSpecs } from "../../src/judges/judge-spec.js";

describe("--judge a,b:model", () => {
  it("reads each judge and its model, the model's own colons kept, spaces and empty entries dropped", () => {
    expect(parseJudgeSpecs(" sim:strict , ,anthropic:claude:opus:4,codex ")).toEqual({
      specs: [
        { id: "sim:strict", backend: "sim", model: "strict" },
        { id: "anthropic:claude:opus:4", backend: "anthropic", model: "claude:opus:4" },
        { id: "codex", backend: "codex" },
      ],
      problems: [],
    });
  });

  it("names each problem and keeps the judges that are fine", () => {
    const { specs, problems } = parseJudgeSpecs("gpt4,sim:,sim:a,sim:a,sim:b");
    expect(specs.map((s) => s.id)).toEqual(["sim:a", "sim:b"]);
    expect(problems).toEqual([
      'unknown judge "gpt4" in "gpt4"; expected one of claude-code, codex, gemini, opencode, copilot, anthropic, openai, sim',
      '"sim:" names no model after the colon',
      "sim:a named twice; name each judge once",
    ]);
  });
});

describe("a judge named with nothing before the colon", () => {
  it("is an unknown judge named by the empty backend", () => {
    expect(parseJudgeSpecs(":opus").problems[0]).toMatch(/^unknown judge "" in ":opus"; expected one of /);
  });
});
