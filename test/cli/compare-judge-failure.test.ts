import { describe, expect, it } from "vitest";
import { useWorkspace } from "../compare/fixtures.js";
import { cli } from "./command-fixture.js";

const ws = useWorkspace();

describe("skillgym compare with a judge that cannot be reached", () => {
  it("says the judge failed, exits 3 and prints no comparison", async () => {
    // Nothing listens on the discard port: every request of the judge fails at once.
    const result = await cli([
      "compare",
      ws.withSkill,
      ws.withoutSkill,
      "--judge",
      "openai",
      "--judge-model",
      "gpt-x",
      "--judge-base-url",
      "http://127.0.0.1:9",
    ]);
    expect(result).toEqual({
      code: 3,
      stdout: "",
      stderr: expect.stringMatching(
        /^skillgym: the judge failed: the judge \(gpt-x at http:\/\/127\.0\.0\.1:9\/chat\/completions\) failed: [^\n]*\n$/,
      ),
    });
  });
});
