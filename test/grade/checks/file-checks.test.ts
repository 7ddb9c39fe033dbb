import { symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Check } from "../../../src/contracts/checks.js";
import { gradeChecks } from "../../../src/grade/checks/grade-checks.js";
import { contextFor, makeWorkspace, removeWorkspace } from "./workspace.js";

const notes = ["# Release 1.2.0", "", "## Features", "- faster", "", "## Fixes", "- crash on start", ""].join(
  "\n",
);
let dir: string;
let outside: string;

beforeAll(async () => {
  dir = await makeWorkspace({
    "RELEASE_NOTES.md": notes,
    "crlf.md": "# Title\r\n## Fixes\r\n",
    "bom.md": "\uFEFF## Fixes\n",
    "empty.md": "",
    "long-line.txt": `${"a".repeat(1000)}NEEDLE${"b".repeat(1000)}`,
    "image.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]),
    "latin1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
    "docs/guide.md": "guide",
    "evals/files/commits.txt": "fix: crash\nfeat: speed\n",
    "big.md": Array.from({ length: 200 }, (_, i) => `line ${i + 1} of a long file`).join("\n"),
  });
  outside = await makeWorkspace({ "secret.txt": "## Fixes\n" });
});
afterAll(async () => {
  await removeWorkspace(dir);
  await removeWorkspace(outside);
});

async function gradeOne(
  check: Check,
  changes = { created: [], modified: [], deleted: [] } as {
    created: string[];
    modified: string[];
    deleted: string[];
  },
) {
  const [graded] = await gradeChecks([check], contextFor(dir, { changes }));
  if (!graded) throw new Error("no expectation graded");
  return graded;
}

describe("file_exists", () => {
  it("passes for a file, naming its size", async () => {
    const graded = await gradeOne({ type: "file_exists", path: "RELEASE_NOTES.md" });
    expect(graded).toMatchObject({ passed: true, source: "check", check_type: "file_exists" });
    expect(graded.evidence).toBe(`RELEASE_NOTES.md exists (a file of ${Buffer.byteLength(notes)} bytes)`);
  });

  it("says when the run created the file", async () => {
    const graded = await gradeOne(
      { type: "file_exists", path: "RELEASE_NOTES.md" },
      { created: ["RELEASE_NOTES.md"], modified: [], deleted: [] },
    );
    expect(graded.evidence).toContain("created by the run");
  });

  it("passes for a directory, written with a trailing slash or backslashes", async () => {
    expect(await gradeOne({ type: "file_exists", path: "docs/" })).toMatchObject({
      passed: true,
      evidence: "docs exists (a directory)",
    });
    expect((await gradeOne({ type: "file_exists", path: "docs\\guide.md" })).passed).toBe(true);
  });

  it("fails for a missing file", async () => {
    const graded = await gradeOne({ type: "file_exists", path: "CHANGELOG.md" });
    expect(graded).toMatchObject({ passed: false, evidence: "CHANGELOG.md does not exist" });
  });

  it("fails below a file instead of throwing", async () => {
    const graded = await gradeOne({ type: "file_exists", path: "RELEASE_NOTES.md/inner" });
    expect(graded).toMatchObject({ passed: false, evidence: "RELEASE_NOTES.md/inner does not exist" });
  });
});

describe("paths escaping the workspace", () => {
  const escapes = ["../secret.txt", "docs/../../secret.txt", "/etc/passwd", "C:\\Windows\\win.ini", "."];
  for (const escaping of escapes) {
    it(`refuses ${JSON.stringify(escaping)} in every file check`, async () => {
      for (const type of ["file_exists", "file_unchanged"] as const) {
        const graded = await gradeOne({ type, path: escaping });
        expect(graded.passed).toBe(false);
        expect(graded.evidence).toContain(`the path ${JSON.stringify(escaping)} must`);
      }
      const contains = await gradeOne({ type: "file_contains", path: escaping, pattern: "." });
      expect(contains.passed).toBe(false);
      expect(contains.evidence).toContain(`the path ${JSON.stringify(escaping)} must`);
    });
  }

  it("refuses an absolute path to a file that exists", async () => {
    const graded = await gradeOne({ type: "file_exists", path: path.join(outside, "secret.txt") });
    expect(graded.passed).toBe(false);
    expect(graded.evidence).toContain("must be a relative path");
  });

  it.skipIf(process.platform === "win32")("refuses a symbolic link that leads outside", async () => {
    const linked = await makeWorkspace({});
    try {
      await symlink(path.join(outside, "secret.txt"), path.join(linked, "notes.md"));
      await symlink(outside, path.join(linked, "out"));
      await symlink(path.join(tmpdir(), "skillgym-missing-target"), path.join(linked, "dangling.md"));
      const ctx = contextFor(linked);
      const [viaFile, viaFolder, contains, dangling] = await gradeChecks(
        [
          { type: "file_exists", path: "notes.md" },
          { type: "file_exists", path: "out/secret.txt" },
          { type: "file_contains", path: "notes.md", pattern: "Fixes" },
          { type: "file_exists", path: "dangling.md" },
        ],
        ctx,
      );
      expect(viaFile?.passed).toBe(false);
      expect(viaFile?.evidence).toContain("notes.md leads outside the workspace");
      expect(viaFolder?.evidence).toContain("out/secret.txt leads outside the workspace");
      expect(contains?.passed).toBe(false);
      expect(dangling).toMatchObject({
        passed: false,
        evidence: "dangling.md is a symbolic link to a missing target",
      });
    } finally {
      await removeWorkspace(linked);
    }
  });
});

describe("file_contains", () => {
  it("passes with the matching line and its number", async () => {
    const graded = await gradeOne({
      type: "file_contains",
      path: "RELEASE_NOTES.md",
      pattern: "^## Fixes$",
      flags: "m",
    });
    expect(graded).toMatchObject({ passed: true, check_type: "file_contains" });
    expect(graded.evidence).toBe('Found on line 6 of RELEASE_NOTES.md: "## Fixes"');
  });

  it("honours the flags", async () => {
    const withoutM = await gradeOne({
      type: "file_contains",
      path: "RELEASE_NOTES.md",
      pattern: "^## Fixes$",
    });
    expect(withoutM.passed).toBe(false);
    const caseless = await gradeOne({
      type: "file_contains",
      path: "RELEASE_NOTES.md",
      pattern: "CRASH",
      flags: "i",
    });
    expect(caseless.evidence).toBe('Found on line 7 of RELEASE_NOTES.md: "- crash on start"');
  });

  it("fails quoting the first lines of the file, at most about 300 characters", async () => {
    const graded = await gradeOne({ type: "file_contains", path: "RELEASE_NOTES.md", pattern: "Breaking" });
    expect(graded.passed).toBe(false);
    expect(graded.evidence).toBe(
      `No match for /Breaking/ in RELEASE_NOTES.md (7 lines); it begins:\n${notes}`,
    );
    const big = await gradeOne({ type: "file_contains", path: "big.md", pattern: "nowhere" });
    expect(big.evidence).toContain("(200 lines); it begins:\nline 1 of a long file\nline 2");
    expect(big.evidence).not.toContain("line 200");
    expect(big.evidence.length).toBeLessThan(400);
    expect(big.evidence.endsWith("…")).toBe(true);
  });

  it("fails for a missing file, a directory, a binary file and an empty file, saying why", async () => {
    const missing = await gradeOne({ type: "file_contains", path: "CHANGELOG.md", pattern: "x" });
    expect(missing).toMatchObject({ passed: false, evidence: "CHANGELOG.md does not exist" });
    const folder = await gradeOne({ type: "file_contains", path: "docs", pattern: "guide" });
    expect(folder).toMatchObject({ passed: false, evidence: "docs is a directory, not a file" });
    const binary = await gradeOne({ type: "file_contains", path: "image.png", pattern: "PNG" });
    expect(binary.passed).toBe(false);
    expect(binary.evidence).toContain("image.png is a binary file");
    const latin1 = await gradeOne({ type: "file_contains", path: "latin1.txt", pattern: "caf" });
    expect(latin1.passed).toBe(false);
    expect(latin1.evidence).toContain("not UTF-8 text");
    const empty = await gradeOne({ type: "file_contains", path: "empty.md", pattern: "x" });
    expect(empty).toMatchObject({ passed: false, evidence: "No match for /x/: empty.md is empty" });
  });

  it("fails for an invalid pattern instead of throwing", async () => {
    const graded = await gradeOne({ type: "file_contains", path: "RELEASE_NOTES.md", pattern: "(unclosed" });
    expect(graded.passed).toBe(false);
    expect(graded.evidence).toContain("/(unclosed/ is not a valid regular expression");
  });

  it("reads CRLF line endings and a BOM the way the pattern's author meant", async () => {
    const crlf = await gradeOne({
      type: "file_contains",
      path: "crlf.md",
      pattern: "^## Fixes$",
      flags: "m",
    });
    expect(crlf.evidence).toBe('Found on line 2 of crlf.md: "## Fixes"');
    const bom = await gradeOne({ type: "file_contains", path: "bom.md", pattern: "^## Fixes" });
    expect(bom.passed).toBe(true);
  });

  it("quotes a window of a very long line around the match", async () => {
    const graded = await gradeOne({ type: "file_contains", path: "long-line.txt", pattern: "NEEDLE" });
    expect(graded.passed).toBe(true);
    expect(graded.evidence).toContain("NEEDLE");
    expect(graded.evidence).toMatch(/^Found on line 1 of long-line\.txt: …"a+NEEDLEb+"…$/);
    expect(graded.evidence.length).toBeLessThan(260);
  });

  it("with negate, passes when nothing matches and fails quoting the match", async () => {
    const absent = await gradeOne({
      type: "file_contains",
      path: "RELEASE_NOTES.md",
      pattern: "bump",
      flags: "i",
      negate: true,
    });
    expect(absent).toMatchObject({
      passed: true,
      evidence: "No match for /bump/i in RELEASE_NOTES.md (7 lines)",
    });
    const present = await gradeOne({
      type: "file_contains",
      path: "RELEASE_NOTES.md",
      pattern: "faster",
      negate: true,
    });
    expect(present).toMatchObject({
      passed: false,
      evidence: '/faster/ was found on line 4 of RELEASE_NOTES.md: "- faster"',
    });
    const missing = await gradeOne({
      type: "file_contains",
      path: "CHANGELOG.md",
      pattern: "bump",
      negate: true,
    });
    expect(missing).toMatchObject({ passed: false, evidence: "CHANGELOG.md does not exist" });
  });
});

describe("file_unchanged", () => {
  const check: Check = { type: "file_unchanged", path: "evals/files/commits.txt" };

  it("passes when the file exists and the run did not touch it", async () => {
    const graded = await gradeOne(check, {
      created: ["RELEASE_NOTES.md"],
      modified: ["docs/guide.md"],
      deleted: [],
    });
    expect(graded).toMatchObject({ passed: true, check_type: "file_unchanged" });
    expect(graded.evidence).toBe(
      "evals/files/commits.txt exists and it was not created, modified or deleted by the run",
    );
  });

  it("fails when the run modified, deleted or created it", async () => {
    const modified = await gradeOne(check, {
      created: [],
      modified: ["evals/files/commits.txt"],
      deleted: [],
    });
    expect(modified).toMatchObject({ passed: false, evidence: "The run modified evals/files/commits.txt" });
    const deleted = await gradeOne(check, {
      created: [],
      modified: [],
      deleted: ["evals/files/commits.txt"],
    });
    expect(deleted).toMatchObject({ passed: false, evidence: "The run deleted evals/files/commits.txt" });
    const created = await gradeOne(check, {
      created: ["evals/files/commits.txt"],
      modified: [],
      deleted: [],
    });
    expect(created).toMatchObject({ passed: false, evidence: "The run created evals/files/commits.txt" });
  });

  it("fails when the file does not exist", async () => {
    const graded = await gradeOne({ type: "file_unchanged", path: "evals/files/missing.txt" });
    expect(graded).toMatchObject({ passed: false, evidence: "evals/files/missing.txt does not exist" });
  });

  it("watches everything under a folder", async () => {
    const folder: Check = { type: "file_unchanged", path: "evals/files" };
    const untouched = await gradeOne(folder, {
      created: ["evals/filesystem.txt"],
      modified: [],
      deleted: [],
    });
    expect(untouched).toMatchObject({
      passed: true,
      evidence: "evals/files exists and nothing in it was created, modified or deleted by the run",
    });
    const touched = await gradeOne(folder, { created: ["evals/files/new.txt"], modified: [], deleted: [] });
    expect(touched).toMatchObject({ passed: false, evidence: "The run created evals/files/new.txt" });
  });
});
