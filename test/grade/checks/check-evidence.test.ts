import { execFileSync } from "node:child_process";
import { open } from "node:fs/promises";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../src/agents/events.js";
import type { Check } from "../../../src/contracts/checks.js";
import type { CheckContext } from "../../../src/grade/checks/context.js";
import { errorMessage, headOf, plural, tailOf } from "../../../src/grade/checks/evidence.js";
import { gradeChecks } from "../../../src/grade/checks/grade-checks.js";
import { contextFor, makeWorkspace, removeWorkspace, toolUse } from "./workspace.js";

// The exact evidence of each check at the edges: where a quote is cut, how lines are counted, how lists are shortened.

const MiB = 1024 * 1024;
let dir: string;
beforeAll(async () => {
  dir = await makeWorkspace({
    "one-line.txt": "only line",
    "two.txt": "a\nb\n",
    "one-byte.txt": "!",
    "empty.txt": "",
    "no-breaks.txt": "x".repeat(400),
    "break-at-150.txt": `${"y".repeat(150)}\n${"z".repeat(300)}`,
    "break-at-151.txt": `${"y".repeat(151)}\n${"z".repeat(300)}`,
    "exactly-300.txt": `${"w".repeat(299)}\n`,
    "needle-start.txt": `${"a".repeat(10)}NEEDLE${"b".repeat(484)}`,
    "needle-end.txt": `${"a".repeat(484)}NEEDLE${"b".repeat(10)}`,
    "needle-middle.txt": `${"a".repeat(300)}NEEDLE${"b".repeat(300)}`,
    "needle-edge.txt": `${"a".repeat(200)}NEEDLE${"b".repeat(94)}`,
    "line-200.txt": `first\n${"c".repeat(194)}NEEDLE\nlast`,
    "line-201.txt": `first\n${"c".repeat(195)}NEEDLE\nlast`,
    "src/": "",
  });
  // Sparse files: their size, not their bytes, is what matters.
  for (const [name, size] of [
    ["limit.bin", 20 * MiB],
    ["over.bin", 20 * MiB + 1],
  ] as const) {
    const handle = await open(path.join(dir, name), "w");
    await handle.truncate(size);
    await handle.close();
  }
  if (process.platform !== "win32") execFileSync("mkfifo", [path.join(dir, "pipe")]);
});
afterAll(() => removeWorkspace(dir));

async function evidenceOf(check: Check, extra: Partial<CheckContext> = {}) {
  const [graded] = await gradeChecks([check], contextFor(dir, extra));
  return [graded?.passed, graded?.evidence];
}

function attempt(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  return undefined;
}

const contains = (
  file: string,
  pattern: string,
  more: Partial<Extract<Check, { type: "file_contains" }>> = {},
) => evidenceOf({ type: "file_contains", path: file, pattern, ...more });

describe("evidence helpers", () => {
  it("cut a text at the limit, not before, marking the cut", () => {
    expect(headOf("abcd", 4)).toBe("abcd");
    expect(headOf("abcde", 4)).toBe("abcd…");
    expect(tailOf("abcd", 4)).toBe("abcd");
    expect(tailOf("abcde", 4)).toBe("…bcde");
    expect(plural(1, "line", "lines")).toBe("1 line");
    expect(plural(0, "line", "lines")).toBe("0 lines");
    expect(plural(2, "line", "lines")).toBe("2 lines");
    expect(errorMessage(new Error("boom"))).toBe("boom");
    expect(errorMessage("plain")).toBe("plain");
  });
});

describe("file_contains evidence", () => {
  it("counts lines whether or not the file ends with a line break", async () => {
    expect(await contains("one-line.txt", "zzz")).toEqual([
      false,
      "No match for /zzz/ in one-line.txt (1 line); it begins:\nonly line",
    ]);
    expect(await contains("two.txt", "zzz", { negate: true })).toEqual([
      true,
      "No match for /zzz/ in two.txt (2 lines)",
    ]);
    expect(await contains("empty.txt", "zzz", { negate: true })).toEqual([
      true,
      "No match for /zzz/ in empty.txt (0 lines)",
    ]);
    expect(await contains("two.txt", "^b$", { flags: "m" })).toEqual([
      true,
      'Found on line 2 of two.txt: "b"',
    ]);
  });

  it("quotes the file's beginning whole up to 300 characters, then cut at a line break past the middle", async () => {
    expect(await contains("exactly-300.txt", "zzz")).toEqual([
      false,
      `No match for /zzz/ in exactly-300.txt (1 line); it begins:\n${"w".repeat(299)}\n`,
    ]);
    expect(await contains("no-breaks.txt", "zzz")).toEqual([
      false,
      `No match for /zzz/ in no-breaks.txt (1 line); it begins:\n${"x".repeat(300)}…`,
    ]);
    expect(await contains("break-at-150.txt", "qqq")).toEqual([
      false,
      `No match for /qqq/ in break-at-150.txt (2 lines); it begins:\n${"y".repeat(150)}\n${"z".repeat(149)}…`,
    ]);
    expect(await contains("break-at-151.txt", "qqq")).toEqual([
      false,
      `No match for /qqq/ in break-at-151.txt (2 lines); it begins:\n${"y".repeat(151)}\n…`,
    ]);
  });

  it("quotes a matched line whole up to 200 characters, else 200 around the match", async () => {
    expect(await contains("line-200.txt", "NEEDLE")).toEqual([
      true,
      `Found on line 2 of line-200.txt: "${"c".repeat(194)}NEEDLE"`,
    ]);
    expect(await contains("line-201.txt", "NEEDLE")).toEqual([
      true,
      `Found on line 2 of line-201.txt: …"${"c".repeat(100)}NEEDLE"`,
    ]);
    expect(await contains("needle-start.txt", "NEEDLE")).toEqual([
      true,
      `Found on line 1 of needle-start.txt: "${"a".repeat(10)}NEEDLE${"b".repeat(184)}"…`,
    ]);
    expect(await contains("needle-end.txt", "NEEDLE")).toEqual([
      true,
      `Found on line 1 of needle-end.txt: …"${"a".repeat(100)}NEEDLE${"b".repeat(10)}"`,
    ]);
    // The window ends where the line does: nothing is cut after it.
    expect(await contains("needle-edge.txt", "NEEDLE")).toEqual([
      true,
      `Found on line 1 of needle-edge.txt: …"${"a".repeat(100)}NEEDLE${"b".repeat(94)}"`,
    ]);
    expect(await contains("needle-middle.txt", "NEEDLE")).toEqual([
      true,
      `Found on line 1 of needle-middle.txt: …"${"a".repeat(100)}NEEDLE${"b".repeat(94)}"…`,
    ]);
  });

  it("searches a file up to 20 MiB and refuses a larger one", async () => {
    expect(await contains("limit.bin", "x")).toEqual([
      false,
      "limit.bin is a binary file (not UTF-8 text), so /x/ cannot be checked",
    ]);
    expect(await contains("over.bin", "x")).toEqual([
      false,
      "over.bin is too large to search (20971521 bytes, the limit is 20 MiB)",
    ]);
  });

  it.skipIf(process.platform === "win32")("refuses what is not a regular file", async () => {
    expect(await contains("pipe", "x")).toEqual([false, "pipe is not a regular file"]);
  });

  it("quotes the engine's reason for a pattern that is no regular expression", async () => {
    const unclosed = ["(", "unclosed"].join("");
    const reason = errorMessage(attempt(() => new RegExp(unclosed, "m")));
    expect(await contains("two.txt", unclosed, { flags: "m" })).toEqual([
      false,
      `/(unclosed/m is not a valid regular expression: ${reason}`,
    ]);
  });
});

describe("file_exists and file_unchanged evidence", () => {
  it("names a file's size in bytes, one byte or none", async () => {
    expect(await evidenceOf({ type: "file_exists", path: "one-byte.txt" })).toEqual([
      true,
      "one-byte.txt exists (a file of 1 byte)",
    ]);
    expect(await evidenceOf({ type: "file_exists", path: "empty.txt" })).toEqual([
      true,
      "empty.txt exists (a file of 0 bytes)",
    ]);
  });

  it("lists at most five changed files under a folder, and every kind of change", async () => {
    const files = (n: number) => Array.from({ length: n }, (_, i) => `src/f${i + 1}.ts`);
    const unchanged: Check = { type: "file_unchanged", path: "src" };
    expect(
      await evidenceOf(unchanged, { changes: { created: [], modified: files(5), deleted: [] } }),
    ).toEqual([false, "The run modified src/f1.ts, src/f2.ts, src/f3.ts, src/f4.ts, src/f5.ts"]);
    expect(
      await evidenceOf(unchanged, { changes: { created: [], modified: files(7), deleted: [] } }),
    ).toEqual([false, "The run modified src/f1.ts, src/f2.ts, src/f3.ts, src/f4.ts, src/f5.ts and 2 more"]);
    expect(
      await evidenceOf(unchanged, {
        changes: { created: ["src/new.ts", "other.ts"], modified: ["src/f1.ts"], deleted: ["src/old.ts"] },
      }),
    ).toEqual([false, "The run deleted src/old.ts; The run modified src/f1.ts; The run created src/new.ts"]);
  });

  it("blames the run for a file it deleted, and refuses a path outside the workspace", async () => {
    expect(
      await evidenceOf(
        { type: "file_unchanged", path: "gone.txt" },
        { changes: { created: [], modified: [], deleted: ["gone.txt"] } },
      ),
    ).toEqual([false, "The run deleted gone.txt"]);
    expect(
      await evidenceOf(
        { type: "file_unchanged", path: "../gone.txt" },
        { changes: { created: [], modified: [], deleted: ["../gone.txt"] } },
      ),
    ).toEqual([false, `the path "../gone.txt" must stay inside the workspace (it climbs out with '..')`]);
  });
});

describe("tool_called and skill_invoked evidence", () => {
  it("counts another agent's call of the kind a suite names, under that agent's own name", async () => {
    const shell: AgentEvent = {
      kind: "tool_use",
      id: "item_1",
      name: "exec_command",
      tool: "shell",
      input: {},
    };
    expect(await evidenceOf({ type: "tool_called", name: "Bash" }, { events: [shell, shell] })).toEqual([
      true,
      "Bash was called 2 times. Tools called: exec_command ×2",
    ]);
    expect(
      await evidenceOf(
        { type: "tool_called", name: "Read", max: 1 },
        { events: [toolUse("Read"), toolUse("Read")] },
      ),
    ).toEqual([false, "Read was called 2 times. Tools called: Read ×2"]);
    expect(
      await evidenceOf({ type: "tool_called", name: "Read", min: 1, max: 1 }, { events: [toolUse("Read")] }),
    ).toEqual([true, "Read was called once. Tools called: Read ×1"]);
  });

  it("names an installed alias as such, and the skill itself plainly", async () => {
    const events = [
      toolUse("Skill", { skill: "release-notes" }),
      toolUse("Skill", { skill: "sg-1-release-notes" }),
    ];
    expect(
      await evidenceOf(
        { type: "skill_invoked" },
        { events, skillAliases: ["release-notes", "sg-1-release-notes"] },
      ),
    ).toEqual([
      true,
      '"release-notes" was invoked. Skills loaded, in order: "release-notes", "sg-1-release-notes" (installed name of "release-notes")',
    ]);
  });
});

describe("command evidence", () => {
  const node = `"${process.execPath}"`;

  it("shares the 500 characters between the streams, the shorter whole, and drops carriage returns", async () => {
    const [passed, evidence] = await evidenceOf({
      type: "command",
      run: `${node} -e "console.log('o'.repeat(300) + '\\r'); console.log('o'.repeat(299) + '\\r'); console.error('e'.repeat(100)); process.exitCode = 1"`,
    });
    expect(passed).toBe(false);
    expect(evidence).toBe(
      `Exit code 1 (expected 0)\nstdout:\n…${"o".repeat(100)}\n${"o".repeat(299)}\nstderr:\n${"e".repeat(100)}`,
    );
  });

  it.skipIf(process.platform === "win32")("says which signal killed the command", async () => {
    expect(await evidenceOf({ type: "command", run: "kill -9 $$" })).toEqual([
      false,
      "Killed by signal SIGKILL (expected exit code 0)",
    ]);
  });
});
