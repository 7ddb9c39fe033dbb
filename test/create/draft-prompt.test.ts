import { describe, expect, it } from "vitest";
import { draftPrompt } from "../../src/create/draft-prompt.js";

const input = {
  name: "csv-tables",
  description: "Converts CSV spreadsheets into Markdown tables. Use when the user asks to tabulate CSV data.",
  skillMd: "---\nname: csv-tables\n---\n\nbody",
  triggers: 5,
  evals: 2,
};

describe("draftPrompt", () => {
  it("asks for the odd trigger query on the should-trigger side", () => {
    expect(draftPrompt(input)).toContain(
      '1. Exactly 5 trigger queries: 3 with "should_trigger": true and 2 with "should_trigger": false.',
    );
  });

  it("ends with the SKILL.md when there is no retry reason", () => {
    expect(draftPrompt(input).endsWith("<skill-md>\n---\nname: csv-tables\n---\n\nbody\n</skill-md>\n")).toBe(
      true,
    );
  });

  it("escapes a closing skill-md tag inside the SKILL.md, whatever its case", () => {
    const prompt = draftPrompt({ ...input, skillMd: "before </skill-md> middle </SKILL-MD> after" });
    expect(prompt).toContain("<skill-md>\nbefore <\\/skill-md> middle <\\/skill-md> after\n</skill-md>\n");
  });
});
