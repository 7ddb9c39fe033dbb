import { describe, expect, it } from "vitest";
import { type FormatName, formatNames, formats, jsonSchemaOf } from "../../src/contracts/index.js";

const expectedNames: FormatName[] = [
  "evals",
  "activation",
  "triggers",
  "eval-metadata",
  "grading",
  "timing",
  "metrics",
  "benchmark",
  "diff",
  "noise",
  "comparison",
  "analysis",
  "history",
  "feedback",
  "judges",
  "trigger-results",
  "trigger-run",
  "catalog",
  "iteration-state",
  "iteration",
  "agents-iteration",
  "matrix",
  "sim-script",
  "optimize-results",
  "context",
];

type JsonSchema = {
  $schema?: string;
  title?: string;
  type?: string;
  required?: string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
};

describe("the format registry", () => {
  it("names every format", () => {
    expect([...formatNames].sort()).toEqual([...expectedNames].sort());
    expect(Object.keys(formats)).toHaveLength(expectedNames.length);
  });

  it.each(expectedNames)("gives %s a JSON Schema with its title", (name) => {
    const schema = jsonSchemaOf(name) as JsonSchema;
    expect(schema.title).toBe(`skillgym ${name}`);
    expect(schema.$schema).toMatch(/json-schema\.org/);
    expect(() => JSON.stringify(schema)).not.toThrow();
    expect(schema.type).toBe(name === "triggers" || name === "context" ? "array" : "object");
  });

  it("describes files as written: evals.json may say assertions and omit checks", () => {
    const schema = jsonSchemaOf("evals") as JsonSchema;
    const evalCase = schema.properties?.evals?.items;
    expect(evalCase?.properties).toHaveProperty("assertions");
    expect(evalCase?.required).toEqual(["id", "prompt"]);
  });

  it("marks what the seed requires", () => {
    expect((jsonSchemaOf("grading") as JsonSchema).required).toEqual(["expectations", "summary"]);
    const benchmark = jsonSchemaOf("benchmark") as JsonSchema;
    expect(benchmark.properties?.runs?.items?.required).toContain("configuration");
    expect(benchmark.properties?.runs?.items?.properties?.result?.required).toContain("pass_rate");
  });

  it("documents the columns run adds to history.json, all optional, beside skill-creator's required ones", () => {
    const row = (jsonSchemaOf("history") as JsonSchema).properties?.iterations?.items;
    expect(row?.properties).toHaveProperty("regressed_evals");
    expect(row?.properties).toHaveProperty("delta");
    expect(row?.required?.sort()).toEqual(
      ["expectation_pass_rate", "grading_result", "is_current_best", "parent", "version"].sort(),
    );
  });

  it("leaves defaulted fields optional for writers of trigger-results.json", () => {
    const schema = jsonSchemaOf("trigger-results") as JsonSchema;
    expect(schema.properties?.summary?.required).toEqual(["total", "passed", "failed"]);
  });
});
