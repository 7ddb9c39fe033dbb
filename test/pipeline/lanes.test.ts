import { describe, expect, it } from "vitest";
import { lanesOf, recordedAgentName } from "../../src/pipeline/lanes.js";
import { stageSuite } from "../../src/pipeline/stage.js";
import type { Suite } from "../../src/suite/index.js";

describe("the parts of a run of several agents or models", () => {
  it("names a part for its agent when one model (or none) is asked for", () => {
    expect(lanesOf(["claude-code", "codex"], [])).toEqual([
      { agent: "claude-code", dir: "claude-code" },
      { agent: "codex", dir: "codex" },
    ]);
    expect(lanesOf(["claude-code", "codex"], ["m1"])).toEqual([
      { agent: "claude-code", model: "m1", dir: "claude-code" },
      { agent: "codex", model: "m1", dir: "codex" },
    ]);
  });

  it("names a part for its model when one agent runs several, in the order given", () => {
    expect(lanesOf(["claude-code"], ["new", "old"])).toEqual([
      { agent: "claude-code", model: "new", dir: "new" },
      { agent: "claude-code", model: "old", dir: "old" },
    ]);
  });

  it("crosses every agent with every model, agents first", () => {
    expect(lanesOf(["claude-code", "codex"], ["a", "b"]).map((l) => l.dir)).toEqual([
      "claude-code-a",
      "claude-code-b",
      "codex-a",
      "codex-b",
    ]);
  });

  it("makes a folder name of a model name with a vendor prefix or capitals", () => {
    expect(lanesOf(["opencode"], ["anthropic/Claude-Sonnet-4.5", "openai/gpt-5"]).map((l) => l.dir)).toEqual([
      "anthropic-claude-sonnet-4.5",
      "openai-gpt-5",
    ]);
  });

  it("refuses two models that would share a folder, and a model with no folder name", () => {
    expect(() => lanesOf(["claude-code"], ["Old", "old"])).toThrow(
      '--model "Old" and "old" would share the folder old',
    );
    expect(() => lanesOf(["claude-code"], ["a/b", "a:b"])).toThrow("would share the folder a-b");
    expect(() => lanesOf(["claude-code"], ["...", "old"])).toThrow('--model "..." gives no folder name');
  });

  it("makes one dash of a run of characters a folder name cannot hold, and drops leading dots and dashes", () => {
    expect(lanesOf(["claude-code"], ["openai: GPT 5", "..-v1"]).map((l) => l.dir)).toEqual([
      "openai-gpt-5",
      "v1",
    ]);
  });

  it("refuses a model whose folder name would not start with a letter or a digit, saying what to do", () => {
    expect(() => lanesOf(["claude-code"], ["_draft", "old"])).toThrow(
      expect.objectContaining({
        code: "USAGE",
        message: '--model "_draft" gives no folder name',
        hint: "name models that start with a letter or a digit",
      }),
    );
  });

  it("says to name each model once when two would share a folder", () => {
    expect(() => lanesOf(["claude-code"], ["Old", "old"])).toThrow(
      expect.objectContaining({
        code: "USAGE",
        hint: "name each model once; models that differ only in case or punctuation cannot share an iteration",
      }),
    );
  });
});

describe("one stage of the pipeline alone", () => {
  const suite: Suite = {
    dir: "/s",
    via: "skill",
    evalsFile: "/s/evals.json",
    triggersFile: "/s/triggers.json",
    evals: [{ id: 1, prompt: "p", expectations: [], files: [] } as unknown as Suite["evals"][number]],
    triggers: [{ query: "q", should_trigger: true }],
  } as Suite;

  it("leaves the trigger queries out of the evals stage, and the evals out of the triggers stage", () => {
    const evals = stageSuite(suite, "evals");
    expect(evals.triggersFile).toBeUndefined();
    expect(evals.triggers).toEqual([]);
    expect(evals.evals).toHaveLength(1);
    expect(evals.evalsFile).toBe("/s/evals.json");
    const triggers = stageSuite(suite, "triggers");
    expect(triggers.evalsFile).toBeUndefined();
    expect(triggers.evals).toEqual([]);
    expect(triggers.triggers).toHaveLength(1);
    expect(triggers.triggersFile).toBe("/s/triggers.json");
    expect(stageSuite(suite, undefined)).toBe(suite);
  });
});

describe("an ACP agent's part", () => {
  it("is named acp-<program>, its command left to the agent", () => {
    expect(lanesOf(["acp:goose acp", "gemini"], [])).toEqual([
      { agent: "acp:goose acp", dir: "acp-goose" },
      { agent: "gemini", dir: "gemini" },
    ]);
    expect(lanesOf(["acp:gemini --acp", "gemini"], ["m1", "m2"]).map((l) => l.dir)).toEqual([
      "acp-gemini-m1",
      "acp-gemini-m2",
      "gemini-m1",
      "gemini-m2",
    ]);
  });

  it("refuses, before any run, two ACP commands of one program, which would share a folder", () => {
    expect(() => lanesOf(["acp:npx goose acp", "acp:npx qwen --acp"], [])).toThrow(
      expect.objectContaining({
        code: "USAGE",
        message: "--agent acp:npx goose acp and acp:npx qwen --acp would share the folder acp-npx",
        hint: expect.stringContaining("a program of another name"),
      }),
    );
    expect(() => lanesOf(["acp:npx goose acp", "acp:npx qwen --acp"], ["m1", "m2"])).toThrow(
      /would share the folder acp-npx-m1$/,
    );
    expect(lanesOf(["acp:./goose acp", "acp:npx qwen --acp"], []).map((l) => l.dir)).toEqual([
      "acp-goose",
      "acp-npx",
    ]);
  });

  it("records the name its runs record, not its command", () => {
    expect(recordedAgentName("acp:/opt/bin/goose.js acp")).toBe("acp-goose");
    expect(recordedAgentName("claude-code")).toBe("claude-code");
  });
});
