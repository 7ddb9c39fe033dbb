import { describe, expect, it } from "vitest";
import { useWorkspace } from "../compare/fixtures.js";
import { chatReply, scriptedEndpoint } from "../judge/scripted-endpoint.js";
import { cli } from "./command-fixture.js";

const ws = useWorkspace();

const compareJudgedBy = (model: string, url: string) =>
  cli([
    "compare",
    ws.withSkill,
    ws.withoutSkill,
    "--judge",
    "openai",
    "--judge-model",
    model,
    "--judge-base-url",
    url,
  ]);

describe("skillgym compare with a judge that cannot be reached", () => {
  it("says the judge failed, exits 3 and prints no comparison", async () => {
    // Nothing listens on the discard port: every request of the judge fails at once.
    const result = await compareJudgedBy("gpt-x", "http://127.0.0.1:9");
    expect(result).toEqual({
      code: 3,
      stdout: "",
      stderr:
        "skillgym: the judge failed: the judge (gpt-x at http://127.0.0.1:9/chat/completions) failed: could not reach it: fetch failed\n",
    });
  });

  it("says what the judge's unusable answers cost", async () => {
    // Each answer: 1000 input and 200 output tokens of gpt-4.1, $0.0036.
    const endpoint = await scriptedEndpoint([chatReply("I cannot decide.")]);
    try {
      const result = await compareJudgedBy("gpt-4.1", endpoint.url);
      expect(result).toEqual({
        code: 3,
        stdout: "",
        stderr:
          "skillgym: the judge failed: the comparator's answer could not be used after 2 attempts: it contains no JSON object ($0.0072 spent on the judge)\n",
      });
    } finally {
      await endpoint.close();
    }
  });
});
