import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/findings.js";
import { checkBody } from "../../src/skill/body-rules.js";

const FILE = "/skills/pdf-rotate/SKILL.md";

function findingsOf(body: string, files?: string[]): Finding[] {
  return checkBody({ file: FILE, body, bodyStartLine: 5, skillFiles: files && new Set(files) });
}

describe("the size of the body", () => {
  it("warns on a body with nothing but blank lines, saying what to write", () => {
    expect(findingsOf("\n  \n")).toEqual([
      {
        severity: "warning",
        code: "body-empty",
        file: FILE,
        message: "SKILL.md has no instructions after the frontmatter",
        hint: "write the instructions the agent should follow once it picks this skill",
      },
    ]);
  });

  it("does not count trailing blank lines", () => {
    expect(findingsOf(`${"ok\n".repeat(500)}\n\n`)).toEqual([]);
  });

  it("warns on a body over 500 lines, giving its length", () => {
    expect(findingsOf(`${"ok\n".repeat(501)}\n\n`)).toEqual([
      {
        severity: "warning",
        code: "body-too-long",
        file: FILE,
        message: "the body has 501 lines; keep it under 500",
        hint: "move detail into files under references/ and link to them from SKILL.md",
      },
    ]);
  });

  it("allows about 5000 tokens and warns above, giving the estimate", () => {
    expect(findingsOf("x".repeat(20_000))).toEqual([]);
    expect(findingsOf("x".repeat(20_001))).toEqual([
      {
        severity: "warning",
        code: "body-too-many-tokens",
        file: FILE,
        message: "the body is about 5001 tokens; keep it under ~5000",
        hint: "move detail into files under references/ so it is loaded only when needed",
      },
    ]);
  });
});

describe("the files the body points at", () => {
  it("reports a missing file once per line, however often the line links it", () => {
    const body = "Read [this](notes.md) and [that](notes.md).\nThen [again](notes.md).\n";
    expect(findingsOf(body, ["SKILL.md"])).toEqual(
      ["line 5", "line 6"].map((location) => ({
        severity: "warning",
        code: "missing-reference",
        file: FILE,
        location,
        message: "`notes.md` is not in the skill folder (missing, or left out when packaged)",
        hint: "create the file, correct the path (it is relative to the skill folder), or remove the reference",
      })),
    );
  });

  it("warns on a link that climbs out of the skill folder, saying how to bundle it", () => {
    expect(findingsOf("See [shared](../shared/notes.md).\n", ["SKILL.md"])).toEqual([
      {
        severity: "warning",
        code: "reference-outside-skill",
        file: FILE,
        location: "line 5",
        message: "`../shared/notes.md` points outside the skill folder, so it does not travel with the skill",
        hint: "copy the file into the skill folder (for example under references/) and link to that copy",
      },
    ]);
  });

  it("accepts links to the evals folder, which packages leave out", () => {
    expect(findingsOf("See [the suite](evals/) and [a case](evals/evals.json).\n", ["SKILL.md"])).toEqual([]);
  });

  it("accepts links to folders the skill's files sit in, at any depth", () => {
    const body = "See [references](references/), [deep](references/deep) and [scripts](./scripts).\n";
    expect(findingsOf(body, ["SKILL.md", "references/deep/api.md", "scripts/run.py"])).toEqual([]);
  });
});
