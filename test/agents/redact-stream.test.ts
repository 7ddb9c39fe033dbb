import { describe, expect, it } from "vitest";
import { createRedactor } from "../../src/redact.js";

const KEY = "sk-test-SECRET-0123456789abcdef";
const MARKER = "[redacted:ANTHROPIC_API_KEY]";

function streamed(redactor: ReturnType<typeof createRedactor>, chunks: readonly string[]): string {
  const stream = redactor.byteStream();
  const out = chunks.map((chunk) => stream.push(Buffer.from(chunk, "utf8")));
  out.push(stream.end());
  return Buffer.concat(out).toString("utf8");
}

describe("Redactor.byteStream", () => {
  const redactor = createRedactor([{ name: "ANTHROPIC_API_KEY", value: KEY }]);

  it("masks a value split across two chunks, at every split point", () => {
    const text = `before ${KEY} after`;
    for (let split = 1; split < text.length; split++) {
      expect(streamed(redactor, [text.slice(0, split), text.slice(split)])).toBe(`before ${MARKER} after`);
    }
  });

  it("masks a value spread over many one-byte chunks, and values in adjacent chunks", () => {
    const text = `${KEY}${KEY} x ${KEY}`;
    expect(streamed(redactor, [...text])).toBe(`${MARKER}${MARKER} x ${MARKER}`);
    expect(streamed(redactor, [`a${KEY}`, `${KEY}b`])).toBe(`a${MARKER}${MARKER}b`);
  });

  it("gives the same bytes as masking the whole file, for binary and escaped spellings", () => {
    const escaped = createRedactor([{ name: "OPENAI_API_KEY", value: 'ab"cd\\ef-ghij' }]);
    const once = JSON.stringify('ab"cd\\ef-ghij').slice(1, -1);
    const whole = Buffer.concat([Buffer.from([0, 255, 1]), Buffer.from(`x${once}y ab"cd\\ef-ghij z`)]);
    for (let size = 1; size <= whole.length; size++) {
      const stream = escaped.byteStream();
      const parts: Buffer[] = [];
      for (let at = 0; at < whole.length; at += size) parts.push(stream.push(whole.subarray(at, at + size)));
      parts.push(stream.end());
      expect(Buffer.concat(parts)).toEqual(escaped.bytes(whole));
    }
  });

  it("holds back no more than the longest value less one byte", () => {
    const stream = createRedactor([{ name: "ANTHROPIC_API_KEY", value: KEY }]).byteStream();
    const written = stream.push(Buffer.from("x".repeat(100)));
    expect(written.length).toBe(100 - (KEY.length - 1));
    expect(stream.end().length).toBe(KEY.length - 1);
  });

  it("masks a value whose start is another value whole, wherever a chunk ends in it", () => {
    const nested = createRedactor([
      { name: "SHORT_KEY", value: "abcdefgh" },
      { name: "LONG_KEY", value: "abcdefghijkl" },
    ]);
    const text = "xyabcdefghijkl z abcdefgh.";
    for (let split = 1; split < text.length; split++) {
      expect(streamed(nested, [text.slice(0, split), text.slice(split)])).toBe(
        "xy[redacted:LONG_KEY] z [redacted:SHORT_KEY].",
      );
    }
  });

  it("starts empty when used again after its end", () => {
    const stream = createRedactor([{ name: "ANTHROPIC_API_KEY", value: KEY }]).byteStream();
    stream.push(Buffer.from("first"));
    expect(stream.end().toString()).toBe("first");
    expect(stream.end().length).toBe(0);
  });

  it("passes chunks through untouched when there is nothing to mask", () => {
    const none = createRedactor([]).byteStream();
    const chunk = Buffer.from(KEY);
    expect(none.push(chunk)).toBe(chunk);
    expect(none.end().length).toBe(0);
  });
});
