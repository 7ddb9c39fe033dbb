import { describe, expect, it } from "vitest";
import { attributes } from "../../src/ci/xml.js";

describe("XML attributes", () => {
  it("writes each value escaped, in order, and leaves out an attribute that has no value", () => {
    expect(attributes({ name: 'a "b" & <c>', tests: 3, message: undefined, time: "0.500" })).toBe(
      ' name="a &quot;b&quot; &amp; &lt;c&gt;" tests="3" time="0.500"',
    );
    expect(attributes({ message: undefined })).toBe("");
    expect(attributes({ message: "" })).toBe(' message=""');
  });
});
