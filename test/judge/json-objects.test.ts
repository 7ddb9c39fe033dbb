import { describe, expect, it } from "vitest";
import { jsonObjectsIn } from "../../src/judge/json-objects.js";

describe("jsonObjectsIn", () => {
  it("finds a bare answer, then again as an object in the text", () => {
    expect(jsonObjectsIn('{"a":1}')).toEqual([{ a: 1 }, { a: 1 }]);
    // Whitespace JSON.parse does not skip (a byte-order mark, a no-break space) is trimmed too.
    expect(jsonObjectsIn('\ufeff{"a":1}\u00a0')).toEqual([{ a: 1 }, { a: 1 }]);
  });

  it("takes only objects: a whole answer that is an array, a number, a string or null is none", () => {
    expect(jsonObjectsIn('[{"a":1}]')).toEqual([{ a: 1 }]);
    expect(jsonObjectsIn("123")).toEqual([]);
    expect(jsonObjectsIn('"text"')).toEqual([]);
    expect(jsonObjectsIn("null")).toEqual([]);
    expect(jsonObjectsIn("```json\nnull\n```\n```\n[1]\n```\n```\n7\n```")).toEqual([]);
  });

  it("puts a fenced object before the objects in the prose, whatever the fence's language tag", () => {
    const text = (fence: string) => `For example {"x":1}.\n${fence}{"a": 1,\n "b": [2]}\n\`\`\`\nDone.`;
    const found = [{ a: 1, b: [2] }, { x: 1 }, { a: 1, b: [2] }];
    expect(jsonObjectsIn(text("```json\n"))).toEqual(found);
    expect(jsonObjectsIn(text("```JSONC\n"))).toEqual(found);
    expect(jsonObjectsIn(text("```\n"))).toEqual(found);
    expect(jsonObjectsIn(text("```json\r\n"))).toEqual(found);
    // A fence holding no object adds nothing; the next fence still counts.
    expect(jsonObjectsIn('```\nnot json\n```\n```json\n {"a":1} \n```')).toEqual([{ a: 1 }, { a: 1 }]);
  });

  it("finds objects amid prose, in order, skipping braces that hold no JSON", () => {
    expect(jsonObjectsIn('{carefully} then {"a":1}')).toEqual([{ a: 1 }]);
    expect(jsonObjectsIn('{carefully} then {"a":1} and {"b":{"c":2}} ok')).toEqual([
      { a: 1 },
      { b: { c: 2 } },
    ]);
    // The object starting the text, though the whole text is not one.
    expect(jsonObjectsIn('{"a":1} is my answer')).toEqual([{ a: 1 }]);
    // A stray closing brace before the first object.
    expect(jsonObjectsIn('Braces close early } then {"a":1}')).toEqual([{ a: 1 }]);
  });

  it("skips braces and escaped quotes inside JSON strings", () => {
    expect(jsonObjectsIn('say {"a":"}"} ok')).toEqual([{ a: "}" }]);
    expect(jsonObjectsIn('say {"a":"{"} ok')).toEqual([{ a: "{" }]);
    expect(jsonObjectsIn('say {"a":"\\"}"} ok')).toEqual([{ a: '"}' }]);
    expect(jsonObjectsIn('say {"a":"\\\\","b":"}"} ok')).toEqual([{ a: "\\", b: "}" }]);
  });

  it("gives none of the inner objects of an answer cut off before its end", () => {
    const cut = 'My grading: {"expectations": [{"text": "a", "passed": true}, {"text": "b", "pass';
    expect(jsonObjectsIn(cut)).toEqual([]);
    expect(jsonObjectsIn('An unclosed { brace, then {"a":1}')).toEqual([]);
  });

  it("stops reading the prose at the limit", () => {
    const text = 'one {"a":1} two {"b":2} three {"c":3}';
    expect(jsonObjectsIn(text, 2)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(jsonObjectsIn(text, 1)).toEqual([{ a: 1 }]);
    expect(jsonObjectsIn(text)).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
    expect(jsonObjectsIn("{} ".repeat(30))).toHaveLength(20);
  });

  it("finds nothing in text without braces", () => {
    expect(jsonObjectsIn("I could not grade this run.")).toEqual([]);
    expect(jsonObjectsIn("")).toEqual([]);
  });
});
