import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Timing } from "../../src/contracts/timing.js";
import { brokenRecordText, readRecord, readRecordIfValid } from "../../src/runlog/read-record.js";
import { tempDir } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe("reading a run folder's records", () => {
  it("gives the value of a record of its schema's shape", async () => {
    await writeFile(
      join(dir, "timing.json"),
      JSON.stringify({ total_tokens: 12, duration_ms: 5, outcome: "x" }),
    );
    const read = await readRecord(join(dir, "timing.json"), Timing);
    expect(read).toEqual({ state: "ok", value: { total_tokens: 12, duration_ms: 5, outcome: "x" } });
    expect(await readRecordIfValid(join(dir, "timing.json"), Timing)).toMatchObject({ total_tokens: 12 });
  });

  it("tells a missing record from a broken one", async () => {
    expect(await readRecord(join(dir, "timing.json"), Timing)).toEqual({ state: "missing" });
    expect(await readRecordIfValid(join(dir, "timing.json"), Timing)).toBeUndefined();
  });

  it("names the place of invalid JSON and of a field of the wrong shape", async () => {
    await writeFile(join(dir, "bad-syntax.json"), '{\n  "total_tokens": 1,\n}');
    const syntax = await readRecord(join(dir, "bad-syntax.json"), Timing);
    expect(syntax.state).toBe("broken");
    if (syntax.state !== "broken") return;
    expect(syntax.finding).toMatchObject({ code: "json-syntax", location: "line 3, column 1" });

    await writeFile(join(dir, "timing.json"), JSON.stringify({ total_tokens: -3 }));
    const shape = await readRecord(join(dir, "timing.json"), Timing);
    expect(shape.state).toBe("broken");
    if (shape.state !== "broken") return;
    expect(brokenRecordText("run-1/timing.json", shape.finding)).toMatch(
      /^run-1\/timing\.json at total_tokens: /,
    );
    expect(await readRecordIfValid(join(dir, "timing.json"), Timing)).toBeUndefined();
  });

  it("names a broken record without a place as the record and what is wrong", () => {
    expect(
      brokenRecordText("run-1/timing.json", {
        code: "json-syntax",
        severity: "error",
        file: "timing.json",
        message: "empty",
      }),
    ).toBe("run-1/timing.json: empty");
  });

  it("counts a folder where a record should be as broken, not missing", async () => {
    await mkdir(join(dir, "timing.json"));
    expect(await readRecord(join(dir, "timing.json"), Timing)).toMatchObject({ state: "broken" });
  });
});
