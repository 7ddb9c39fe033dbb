import { describe, expect, test } from "vitest";
import { z } from "zod";
import { hintFor } from "../../src/suite/schema-hints.js";

// The first issue zod reports for the input, with the value found at its path.
function hintOf(schema: z.ZodType, input: unknown, message = "expected something else"): string {
  const result = schema.safeParse(input);
  const issue = result.error?.issues[0];
  if (!issue) throw new Error("the input was expected to fail the schema");
  const value = issue.path.reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown>)?.[key], input);
  return hintFor(issue, value, message);
}

const sentence = 'write each as a plain sentence, or as {"text": …}';

describe("hints for an entry of a list", () => {
  test("asks for a sentence for an entry of expectations or assertions", () => {
    expect(hintOf(z.object({ expectations: z.array(z.string()) }), { expectations: ["ok", 3] })).toBe(
      sentence,
    );
    expect(hintOf(z.object({ assertions: z.array(z.string()) }), { assertions: [3] })).toBe(sentence);
  });

  test("does not ask for a sentence for a named field inside expectations", () => {
    const schema = z.object({ expectations: z.object({ text: z.string() }) });
    expect(hintOf(schema, { expectations: { text: 3 } })).toBe(
      "correct `text` as the message says, or remove it if it is optional",
    );
  });

  test("asks to correct an entry of any other list", () => {
    expect(hintOf(z.object({ tags: z.array(z.string()) }), { tags: [3] })).toBe(
      "correct this entry as the message says, or remove it",
    );
    expect(hintOf(z.object({ tags: z.array(z.string()) }), { tags: [3] }, "required")).toBe(
      "correct this entry as the message says, or remove it",
    );
  });
});

describe("hints for a quoted value", () => {
  const settings = z.object({ timeout: z.number(), should_trigger: z.boolean() });
  const timeoutHint = "give the timeout in seconds, as a number above 0";
  const triggerHint = "write true or false, without quotes";

  test("asks to remove the quotes around a number", () => {
    expect(hintOf(settings, { timeout: "30", should_trigger: true })).toBe(
      "remove the quotes around the number",
    );
  });

  test("asks to remove the quotes around true or false", () => {
    expect(hintOf(settings, { timeout: 30, should_trigger: "true" })).toBe(
      "remove the quotes around true or false",
    );
    expect(hintOf(settings, { timeout: 30, should_trigger: "false" })).toBe(
      "remove the quotes around true or false",
    );
  });

  test("gives the field's own hint for a quoted text that is not a number", () => {
    expect(hintOf(settings, { timeout: "soon", should_trigger: true })).toBe(timeoutHint);
    expect(hintOf(settings, { timeout: "true", should_trigger: true })).toBe(timeoutHint);
    expect(hintOf(settings, { timeout: "  ", should_trigger: true })).toBe(timeoutHint);
  });

  test("gives the field's own hint for a quoted text that is not true or false", () => {
    expect(hintOf(settings, { timeout: 30, should_trigger: "yes" })).toBe(triggerHint);
    expect(hintOf(settings, { timeout: 30, should_trigger: "1" })).toBe(triggerHint);
  });
});

describe("hints for a field with no hint of its own", () => {
  const schema = z.object({ mystery: z.string() });

  test("asks to add a field the message calls required", () => {
    expect(hintOf(schema, {}, "required field missing")).toBe("add `mystery`");
  });

  test("asks to correct the field for any other message", () => {
    expect(hintOf(schema, { mystery: 3 }, "expected a string, this one is required")).toBe(
      "correct `mystery` as the message says, or remove it if it is optional",
    );
  });
});

describe("hints for the file as a whole", () => {
  test("shows a trigger file's shape when a list was expected", () => {
    expect(hintOf(z.array(z.string()), {})).toBe(
      'a trigger file is a list: [{"query": "…", "should_trigger": true}]',
    );
  });

  test("shows an evals file's shape when an object was expected", () => {
    expect(hintOf(z.object({}), [])).toBe(
      'an evals file is an object: {"evals": [{"id": 1, "prompt": "…"}]}',
    );
  });

  test("asks to correct the file for any other error", () => {
    expect(hintOf(z.string(), 3)).toBe("correct the file as the message says");
    expect(hintOf(z.array(z.string()).min(1), [])).toBe("correct the file as the message says");
  });
});
