import { describe, expect, it } from "vitest";
import { escapeHtml } from "../../src/report/escape.js";

describe("escapeHtml", () => {
  it("escapes every character that could open markup or end an attribute", () => {
    expect(escapeHtml(`<a href="x">Tom & 'Jo'</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jo&#39;&lt;/a&gt;",
    );
  });

  it("shows nothing for a missing value, and other values as text", () => {
    expect(escapeHtml(undefined)).toBe("");
    expect(escapeHtml(null)).toBe("");
    expect(escapeHtml(0)).toBe("0");
  });
});
