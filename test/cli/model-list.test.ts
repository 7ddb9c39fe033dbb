import { describe, expect, it } from "vitest";
import { modelList, modelsOf } from "../../src/cli/options.js";
import { cli } from "./command-fixture.js";

describe("--model as a list", () => {
  it("keeps the models in order, trimmed", () => {
    expect(modelList("old, new")).toBe("old,new");
    expect(modelsOf({ model: modelList("old, new") })).toEqual(["old", "new"]);
    expect(modelsOf({})).toEqual([]);
  });

  it("names each model given twice once, however often it repeats", () => {
    expect(() => modelList("old,new,old,new,old")).toThrow(/^old, new named twice; name each model once$/);
  });

  it("refuses a model named twice or an empty name in run, eval and triggers, before anything starts", async () => {
    for (const command of ["run", "eval", "triggers"]) {
      const twice = await cli([command, "examples/release-notes", "--model", "old,old", "--simulate"]);
      expect(twice.code, command).toBe(2);
      expect(twice.stderr).toContain("old named twice; name each model once");
      const empty = await cli([command, "examples/release-notes", "--model", "old,,new", "--simulate"]);
      expect(empty.code, command).toBe(2);
      expect(empty.stderr).toContain('"old,,new" names an empty model');
    }
  });

  it("refuses models that would share a folder, naming both", async () => {
    const result = await cli([
      "run",
      "examples/release-notes",
      "--model",
      "Old,old",
      "--simulate",
      "--dry-run",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--model "Old" and "old" would share the folder old');
  });

  it("plans each model of run --model a,b --dry-run apart, starting nothing", async () => {
    const result = await cli([
      "run",
      "examples/release-notes",
      "--model",
      "old,new",
      "--simulate",
      "--dry-run",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("per model (old, new)");
    expect(result.stdout).toContain("all 2 models: estimated wall time");
    expect(result.stdout).toContain("nothing was started");
  });
});
