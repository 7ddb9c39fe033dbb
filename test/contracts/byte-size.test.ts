import { describe, expect, it } from "vitest";
import { parseByteSize } from "../../src/contracts/byte-size.js";

describe("parseByteSize", () => {
  it("reads every decimal of a size", () => {
    expect(parseByteSize("1.25 KB")).toBe(1280);
    expect(parseByteSize("0.125kib")).toBe(128);
    expect(parseByteSize(" 2.5 ")).toBe(2);
  });
});
