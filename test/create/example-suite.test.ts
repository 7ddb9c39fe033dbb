import { describe, expect, it } from "vitest";
import { exampleEvals, exampleSimScript, exampleTriggers } from "../../src/create/example-suite.js";

describe("the example suite init writes", () => {
  it("has one eval that needs the skill and saves result.md", () => {
    expect(exampleEvals("csv-tables")).toEqual({
      skill_name: "csv-tables",
      evals: [
        {
          id: "example",
          prompt:
            "A realistic task a user would give that needs csv-tables; replace it with a real one. Save the result to result.md.",
          expected_output: "result.md holds what a good answer produces, in a sentence or two.",
          expectations: ["result.md states the result the user asked for"],
          checks: [
            { type: "skill_invoked", description: "the skill was loaded" },
            { type: "file_exists", path: "result.md" },
          ],
        },
      ],
    });
  });

  it("has three should-trigger queries in the skill's words and three near misses", () => {
    expect(exampleTriggers("csv-tables")).toEqual([
      { query: "can you csv tables for me? the files are in this folder", should_trigger: true },
      { query: "I need to csv tables before friday, where do I start", should_trigger: true },
      { query: "please csv tables again, last time it missed a step", should_trigger: true },
      { query: "what's the weather like in Lisbon tomorrow", should_trigger: false },
      { query: "rename the variables in utils.ts to camelCase", should_trigger: false },
      { query: 'explain in two lines what "csv tables" means, no need to do it', should_trigger: false },
    ]);
  });

  it("has a sim script that writes result.md only with the skill and loads it for the should-trigger queries", () => {
    expect(exampleSimScript("csv-tables")).toEqual({
      rules: [
        {
          match: "A realistic task a user would give",
          skill: "csv-tables",
          steps: [
            {
              write: {
                path: "result.md",
                content:
                  "# Result\n\nWhat csv-tables produced for the task (simulated: edit evals/sim-script.json).\n",
              },
            },
            { text: "Wrote result.md." },
          ],
          without_skill: [{ text: "Here is a short answer in the chat; I did not write a file." }],
        },
        {
          match: "the files are in this folder|before friday, where do I start|last time it missed a step",
          skill: "~csv-tables-sg-",
        },
        { match: "weather like in Lisbon|utils\\.ts to camelCase|no need to do it", skill: "none" },
      ],
    });
  });
});
