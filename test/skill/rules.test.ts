import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { errorsOf, type Finding, warningsOf } from "../../src/findings.js";
import { loadSkill, saysWhenToUse } from "../../src/skill/index.js";
import { GOOD_DESCRIPTION, skillMd, type TempRoot, tempRoot } from "./skill-folder.js";

let temp: TempRoot;
beforeEach(async () => {
  temp = await tempRoot();
});
afterEach(() => temp.cleanup());

async function findingsFor(
  folder: string,
  frontmatter: string,
  body?: string,
  extra = {},
): Promise<Finding[]> {
  const dir = await temp.skill(folder, { "SKILL.md": skillMd(frontmatter, body), ...extra });
  return (await loadSkill(dir)).findings;
}

const codes = (findings: Finding[]): string[] => findings.map((f) => f.code);

describe("a valid skill", () => {
  it("has no findings and loads every field", async () => {
    const dir = await temp.skill("pdf-rotate", {
      "SKILL.md": skillMd(
        `name: pdf-rotate\ndescription: ${GOOD_DESCRIPTION}\nlicense: Apache-2.0\ncompatibility: Needs python3\nmetadata:\n  author: someone\n  version: "1.2"\nallowed-tools: Bash(python3:*) Read`,
        "# Rotate\n\nRun `scripts/rotate.py input.pdf`, see [the API notes](references/api.md).\n",
      ),
      "scripts/rotate.py": "print('rotating')\n",
      "references/api.md": "# API\n",
    });
    const { skill, findings } = await loadSkill(dir);
    expect(findings).toEqual([]);
    expect(skill).toEqual({
      dir,
      name: "pdf-rotate",
      description: GOOD_DESCRIPTION,
      frontmatter: {
        name: "pdf-rotate",
        description: GOOD_DESCRIPTION,
        license: "Apache-2.0",
        compatibility: "Needs python3",
        metadata: { author: "someone", version: "1.2" },
        "allowed-tools": "Bash(python3:*) Read",
      },
      body: "# Rotate\n\nRun `scripts/rotate.py input.pdf`, see [the API notes](references/api.md).\n",
      skillMdPath: join(dir, "SKILL.md"),
    });
  });

  it("accepts allowed-tools as a list of strings", async () => {
    const findings = await findingsFor(
      "tools",
      `name: tools\ndescription: ${GOOD_DESCRIPTION}\nallowed-tools: [Read, Grep]`,
    );
    expect(findings).toEqual([]);
  });
});

describe("name", () => {
  it("must be present", async () => {
    const findings = await findingsFor("no-name", `description: ${GOOD_DESCRIPTION}`);
    expect(codes(errorsOf(findings))).toEqual(["name-missing"]);
    expect(findings[0]?.hint).toContain("name: no-name");
  });

  it("must be a string", async () => {
    const findings = await findingsFor("123", `name: 123\ndescription: ${GOOD_DESCRIPTION}`);
    expect(errorsOf(findings)).toMatchObject([
      { code: "name-type", location: "line 2", hint: "quote the value" },
    ]);
  });

  it("should equal the folder's name: a warning with a fix, since runs use the frontmatter name", async () => {
    const findings = await findingsFor("pdf-tools", `name: pdf-rotate\ndescription: ${GOOD_DESCRIPTION}`);
    expect(errorsOf(findings)).toEqual([]);
    expect(warningsOf(findings)).toMatchObject([{ code: "name-mismatch", location: "line 2" }]);
    expect(findings[0]?.message).toContain("pdf-tools");
    expect(findings[0]?.hint).toContain('rename the folder to "pdf-rotate"');
  });

  it("must not contain `--`", async () => {
    const findings = await findingsFor("pdf--rotate", `name: pdf--rotate\ndescription: ${GOOD_DESCRIPTION}`);
    expect(codes(errorsOf(findings))).toEqual(["name-double-hyphen"]);
  });

  it("must be lowercase, and the hint suggests a valid name", async () => {
    const findings = await findingsFor("PDF-Rotate", `name: PDF-Rotate\ndescription: ${GOOD_DESCRIPTION}`);
    expect(codes(errorsOf(findings))).toEqual(["name-charset"]);
    expect(findings[0]?.hint).toContain("pdf-rotate");
  });

  it("must not start with `-`", async () => {
    const findings = await findingsFor("-rotate", `name: "-rotate"\ndescription: ${GOOD_DESCRIPTION}`);
    expect(codes(errorsOf(findings))).toEqual(["name-hyphen-edge"]);
  });

  it("must not end with `-`", async () => {
    const findings = await findingsFor("rotate-", `name: rotate-\ndescription: ${GOOD_DESCRIPTION}`);
    expect(codes(errorsOf(findings))).toEqual(["name-hyphen-edge"]);
  });

  it("may be 64 characters but not 65", async () => {
    const ok = "a".repeat(64);
    expect(await findingsFor(ok, `name: ${ok}\ndescription: ${GOOD_DESCRIPTION}`)).toEqual([]);
    const long = "a".repeat(65);
    const findings = await findingsFor(long, `name: ${long}\ndescription: ${GOOD_DESCRIPTION}`);
    expect(codes(errorsOf(findings))).toEqual(["name-length"]);
    expect(findings[0]?.message).toContain("65");
  });

  it("must not be empty", async () => {
    const findings = await findingsFor("blank", `name: ""\ndescription: ${GOOD_DESCRIPTION}`);
    expect(codes(errorsOf(findings))).toEqual(["name-length"]);
  });
});

describe("description", () => {
  it("must be present", async () => {
    const findings = await findingsFor("d", "name: d");
    expect(codes(errorsOf(findings))).toEqual(["description-missing"]);
  });

  it("must not be empty", async () => {
    const findings = await findingsFor("d", 'name: d\ndescription: "  "');
    expect(errorsOf(findings)).toMatchObject([{ code: "description-empty", location: "line 3" }]);
  });

  it("may be 1024 characters but not 1025", async () => {
    const base = "Use when asked. ";
    const exact = base + "x".repeat(1024 - base.length);
    expect(await findingsFor("d", `name: d\ndescription: ${exact}`)).toEqual([]);
    const findings = await findingsFor("d", `name: d\ndescription: ${exact}y`);
    expect(errorsOf(findings)).toMatchObject([{ code: "description-too-long", location: "line 3" }]);
    expect(findings[0]?.message).toContain("1025");
  });

  it("counts characters, not UTF-16 units or bytes", async () => {
    const description = `Use when asked. ${"😀".repeat(1000)}`;
    expect(await findingsFor("d", `name: d\ndescription: ${description}`)).toEqual([]);
  });

  it("must not contain angle brackets", async () => {
    const findings = await findingsFor("d", "name: d\ndescription: Use when the user pastes <html> markup");
    expect(codes(errorsOf(findings))).toEqual(["description-angle-brackets"]);
  });

  it("must be a string", async () => {
    const findings = await findingsFor("d", "name: d\ndescription: [a, b]");
    expect(codes(errorsOf(findings))).toEqual(["description-type"]);
  });

  it("warns when it does not say when to use the skill", async () => {
    const findings = await findingsFor("d", "name: d\ndescription: A toolkit for PDF files.");
    expect(errorsOf(findings)).toEqual([]);
    expect(warningsOf(findings)).toMatchObject([{ code: "description-no-when", location: "line 3" }]);
  });

  it.each([
    ["Use when the user works with PDFs.", true],
    ["Formats tables whenever a CSV appears.", true],
    ["Helps if the user asks for a chart.", true],
    ["Use this for release notes.", true],
    ["Drafts emails. The user wants a reply drafted.", true],
    ["PDF processing toolkit.", false],
    ["Handles spreadsheets, charts and pivot tables.", false],
  ])("heuristic: %j says when → %s", (description, expected) => {
    expect(saysWhenToUse(description)).toBe(expected);
  });
});

describe("other spec fields", () => {
  it("limits compatibility to 500 characters", async () => {
    const ok = await findingsFor(
      "c",
      `name: c\ndescription: ${GOOD_DESCRIPTION}\ncompatibility: ${"x".repeat(500)}`,
    );
    expect(ok).toEqual([]);
    const findings = await findingsFor(
      "c",
      `name: c\ndescription: ${GOOD_DESCRIPTION}\ncompatibility: ${"x".repeat(501)}`,
    );
    expect(errorsOf(findings)).toMatchObject([{ code: "compatibility-too-long", location: "line 4" }]);
  });

  it("requires metadata to map strings to strings, naming the bad entry's line", async () => {
    const findings = await findingsFor(
      "m",
      `name: m\ndescription: ${GOOD_DESCRIPTION}\nmetadata:\n  author: x\n  version: 2`,
    );
    expect(errorsOf(findings)).toMatchObject([
      { code: "metadata-type", location: "line 6", hint: "quote the value" },
    ]);
    expect(findings[0]?.message).toContain("metadata.version");
  });

  it("rejects metadata that is not a map", async () => {
    const findings = await findingsFor("m", `name: m\ndescription: ${GOOD_DESCRIPTION}\nmetadata: [a]`);
    expect(codes(errorsOf(findings))).toEqual(["metadata-type"]);
  });

  it("rejects a license that is not a string and allowed-tools that is not a string or list", async () => {
    const findings = await findingsFor(
      "t",
      `name: t\ndescription: ${GOOD_DESCRIPTION}\nlicense: 42\nallowed-tools: {Read: yes}`,
    );
    expect(errorsOf(findings)).toMatchObject([
      { code: "license-type", location: "line 4" },
      { code: "allowed-tools-type", location: "line 5" },
    ]);
  });
});

describe("unknown keys", () => {
  it("warns, never errors, on Claude Code's own keys", async () => {
    const findings = await findingsFor(
      "cc",
      `name: cc\ndescription: ${GOOD_DESCRIPTION}\nuser-invocable: true\ndisable-model-invocation: false\nargument-hint: "[file]"\ncontext: fork\nagent: Explore\nmodel: sonnet\nversion: 1.0.0\nwhen_to_use: always`,
    );
    expect(errorsOf(findings)).toEqual([]);
    expect(warningsOf(findings)).toHaveLength(8);
    expect(new Set(codes(findings))).toEqual(new Set(["claude-code-key"]));
    expect(findings[0]).toMatchObject({ location: "line 4" });
    expect(findings[0]?.message).toContain("Claude Code extension, not part of the Agent Skills spec");
  });

  it("warns on any other key", async () => {
    const findings = await findingsFor("u", `name: u\ndescription: ${GOOD_DESCRIPTION}\nauthor: me`);
    expect(findings).toMatchObject([{ severity: "warning", code: "unknown-key", location: "line 4" }]);
    expect(findings[0]?.hint).toContain("metadata");
  });
});

describe("body advice", () => {
  const frontmatter = `name: b\ndescription: ${GOOD_DESCRIPTION}`;

  it("warns on a link to a missing file, at its line in SKILL.md", async () => {
    const body = "# Steps\n\nRead [the guide](references/guide.md) and [forms](FORMS.md#fill).\n";
    const findings = await findingsFor("b", frontmatter, body, { "FORMS.md": "# Forms\n" });
    expect(findings).toMatchObject([
      {
        severity: "warning",
        code: "missing-reference",
        location: "line 7",
        file: join(temp.root, "b", "SKILL.md"),
      },
    ]);
    expect(findings[0]?.message).toContain("references/guide.md");
  });

  it("warns on a backticked bundled path that does not exist, but not on URLs, anchors or code blocks", async () => {
    const body = [
      "Run `python scripts/fill.py form.pdf` then `scripts/check.py`.",
      "See [docs](https://example.com/x.md), [top](#steps), [mail](mailto:a@b.c).",
      "```",
      "[not a link](nowhere.md) `scripts/example.py`",
      "```",
      "Templates live in `assets/` and `references/*.md`.",
      "",
    ].join("\n");
    const findings = await findingsFor("b", frontmatter, body, {
      "scripts/fill.py": "",
      "assets/logo.png": "",
    });
    expect(findings).toMatchObject([{ code: "missing-reference", location: "line 5" }]);
    expect(findings[0]?.message).toContain("scripts/check.py");
  });

  it("warns on a link that leaves the skill folder", async () => {
    const findings = await findingsFor("b", frontmatter, "See [shared](../shared/notes.md).\n");
    expect(codes(findings)).toEqual(["reference-outside-skill"]);
  });

  it("warns on a body over 500 lines", async () => {
    const atLimit = await findingsFor("b", frontmatter, "ok\n".repeat(500));
    expect(atLimit).toEqual([]);
    const findings = await findingsFor("b", frontmatter, "ok\n".repeat(501));
    expect(codes(findings)).toEqual(["body-too-long"]);
  });

  it("warns on a body over ~5000 tokens", async () => {
    const findings = await findingsFor("b", frontmatter, `${"word ".repeat(4100)}\n`);
    expect(codes(findings)).toEqual(["body-too-many-tokens"]);
  });

  it("warns on an empty body", async () => {
    const findings = await findingsFor("b", frontmatter, "\n");
    expect(codes(findings)).toEqual(["body-empty"]);
  });
});
