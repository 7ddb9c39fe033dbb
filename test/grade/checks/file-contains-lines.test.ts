import { symlink } from "node:fs/promises";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Check } from "../../../src/contracts/checks.js";
import { gradeChecks } from "../../../src/grade/checks/grade-checks.js";
import { locateInWorkspace } from "../../../src/grade/checks/workspace-file.js";
import { contextFor, gradeOneIn, makeWorkspace, removeWorkspace } from "./workspace.js";

let dir: string;

beforeAll(async () => {
  dir = await makeWorkspace({ "one.txt": "a single line\n", "two.txt": "one\ntwo\n" });
});
afterAll(async () => {
  await removeWorkspace(dir);
});

const gradeOne = (check: Check) => gradeOneIn(contextFor(dir), check);

describe("file_contains line reports", () => {
  it("counts a file of one line as 1 line", async () => {
    const graded = await gradeOne({ type: "file_contains", path: "one.txt", pattern: "TODO", negate: true });
    expect(graded).toMatchObject({ passed: true, evidence: "No match for /TODO/ in one.txt (1 line)" });
  });

  it("places a match that begins with a line break on the line that break ends", async () => {
    const graded = await gradeOne({ type: "file_contains", path: "two.txt", pattern: "\\ntwo" });
    expect(graded).toMatchObject({ passed: true, evidence: 'Found on line 1 of two.txt: "one"' });
  });
});

describe.skipIf(process.platform === "win32")("locateInWorkspace", () => {
  it("throws what stops it reading a path, other than a missing file", async () => {
    await symlink("loop", path.join(dir, "loop"));
    await expect(locateInWorkspace(dir, "loop")).rejects.toMatchObject({ code: "ELOOP" });
    const [graded] = await gradeChecks([{ type: "file_exists", path: "loop" }], contextFor(dir));
    expect(graded?.passed).toBe(false);
    expect(graded?.evidence).toMatch(/^The check could not be graded: ELOOP/);
  });
});
