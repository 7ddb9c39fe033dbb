import { describe, expect, it } from "vitest";
import { modelChoiceOf, modelRefusal } from "../../../src/agents/acp/models.js";

describe("what an ACP session offers for choosing the model", () => {
  it("reads a select config option of category model, its values flat or in groups", () => {
    const choice = modelChoiceOf({
      sessionId: "s",
      configOptions: [
        {
          id: "mode",
          category: "mode",
          type: "select",
          currentValue: "a",
          options: [{ value: "a", name: "A" }],
        },
        {
          id: "llm",
          category: "model",
          type: "select",
          currentValue: "x",
          options: [
            { group: "fast", name: "Fast", options: [{ value: "x", name: "X" }] },
            { group: "big", name: "Big", options: [{ value: "y", name: "Y" }] },
          ],
        },
      ],
    });
    expect(choice?.ids).toEqual(["x", "y"]);
    expect(choice?.request("s", "y")).toEqual({
      method: "session/set_config_option",
      params: { sessionId: "s", configId: "llm", value: "y" },
    });
  });

  it("skips what is no value among a model option's choices; an option without choices offers none", () => {
    const option = (options: unknown) => ({
      sessionId: "s",
      configOptions: [{ id: "model", category: "model", type: "select", currentValue: "x", options }],
    });
    expect(
      modelChoiceOf(option(["x", { name: "No value" }, { value: "x" }, { group: "g", options: [] }]))?.ids,
    ).toEqual(["x"]);
    expect(modelChoiceOf(option(undefined))?.ids).toEqual([]);
  });

  it("reads the older models state, set with session/set_model", () => {
    const choice = modelChoiceOf({
      sessionId: "s",
      models: { currentModelId: "a", availableModels: [{ modelId: "a", name: "A" }, { modelId: "b" }] },
    });
    expect(choice?.ids).toEqual(["a", "b"]);
    expect(choice?.request("s", "b")).toEqual({
      method: "session/set_model",
      params: { sessionId: "s", modelId: "b" },
    });
  });

  it("finds none in a session without either, or with a boolean model option", () => {
    expect(modelChoiceOf({ sessionId: "s" })).toBeUndefined();
    expect(
      modelChoiceOf({
        sessionId: "s",
        configOptions: [{ id: "m", category: "model", type: "boolean", currentValue: true }],
      }),
    ).toBeUndefined();
  });

  it("says which models asked for are not offered, or that none can be chosen", () => {
    const choice = modelChoiceOf({ sessionId: "s", models: { availableModels: [{ modelId: "a" }] } });
    expect(modelRefusal("goose acp", choice, ["a"])).toBeUndefined();
    expect(modelRefusal("goose acp", choice, ["a", "b", "c"])).toBe(
      "--model b,c: goose acp does not offer these models (it offers: a)",
    );
    expect(modelRefusal("goose acp", undefined, ["a"])).toBe(
      "--model a: goose acp offers no model selection over ACP",
    );
  });

  it("leaves out a model entry without an id, and a model option without one", () => {
    const state = modelChoiceOf({
      sessionId: "s",
      models: { availableModels: [{ modelId: "a" }, { name: "no id" }, "b", { modelId: 3 }] },
    });
    expect(state?.ids).toEqual(["a"]);
    expect(
      modelChoiceOf({
        sessionId: "s",
        configOptions: [{ category: "model", type: "select", currentValue: "a", options: [{ value: "a" }] }],
      }),
    ).toBeUndefined();
  });

  it("names every model refused, one or several, and says when the agent offers none", () => {
    const choice = modelChoiceOf({
      sessionId: "s",
      models: { availableModels: [{ modelId: "a" }, { modelId: "b" }] },
    });
    expect(modelRefusal("goose acp", choice, ["c"])).toBe(
      "--model c: goose acp does not offer this model (it offers: a, b)",
    );
    expect(modelRefusal("goose acp", undefined, ["a", "b"])).toBe(
      "--model a,b: goose acp offers no model selection over ACP",
    );
    const empty = modelChoiceOf({ sessionId: "s", models: { availableModels: [] } });
    expect(modelRefusal("goose acp", empty, ["a"])).toBe(
      "--model a: goose acp does not offer this model (it offers: none)",
    );
  });
});
