import { describe, expect, it } from "vitest";
import { replayKey } from "../../../src/triggers/replay/adapter.js";
import { replayAdapterFor } from "../../../src/triggers/replay/adapters.js";
import { replayPossible } from "../../../src/triggers/replay/possible.js";

const real = (name: string) => ({ name, simulated: false });

describe("the API key a replay sends", () => {
  it("is any of the variables the agent itself reads its key from", () => {
    expect(replayPossible(real("codex"), { CODEX_API_KEY: "sk-codex" })).toEqual({ possible: true });
    expect(replayPossible(real("codex"), { OPENAI_API_KEY: "sk-openai" })).toEqual({ possible: true });
    expect(replayPossible(real("gemini"), { GOOGLE_API_KEY: "AIza-google" })).toEqual({ possible: true });
    expect(replayPossible(real("gemini"), { GEMINI_API_KEY: "AIza-gemini" })).toEqual({ possible: true });
    expect(replayPossible(real("claude-code"), { ANTHROPIC_API_KEY: "sk-ant" })).toEqual({ possible: true });
  });

  it("is the first one set, in the agent's order", () => {
    const codex = replayAdapterFor("codex")!;
    const gemini = replayAdapterFor("gemini")!;
    expect(replayKey(codex, { CODEX_API_KEY: "b", OPENAI_API_KEY: "a" })).toBe("a");
    expect(replayKey(codex, { CODEX_API_KEY: "b", OPENAI_API_KEY: "" })).toBe("b");
    expect(replayKey(gemini, { GOOGLE_API_KEY: "b", GEMINI_API_KEY: "a" })).toBe("a");
    expect(replayKey(gemini, { GOOGLE_API_KEY: "b" })).toBe("b");
  });

  it("is missing when none is set, and the reason names every variable; another provider's key is not one", () => {
    expect(replayPossible(real("codex"), { ANTHROPIC_API_KEY: "sk-ant", GEMINI_API_KEY: "x" })).toEqual({
      possible: false,
      reason: "no API key (OPENAI_API_KEY or CODEX_API_KEY) for replay to send requests with",
    });
    expect(replayPossible(real("gemini"), { OPENAI_API_KEY: "sk" })).toEqual({
      possible: false,
      reason: "no API key (GEMINI_API_KEY or GOOGLE_API_KEY) for replay to send requests with",
    });
    expect(replayPossible(real("claude-code"), { CLAUDE_CODE_OAUTH_TOKEN: "t" })).toEqual({
      possible: false,
      reason: "no API key (ANTHROPIC_API_KEY) for replay to send requests with",
    });
  });

  it("is not needed under the simulator", () => {
    expect(replayPossible({ name: "gemini", simulated: true }, {})).toEqual({ possible: true });
  });
});
