import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/findings.js";
import { parseFrontmatter } from "../../src/skill/frontmatter.js";
import { checkSkill } from "../../src/skill/rules.js";

const FILE = "/skills/pdf-rotate/SKILL.md";
const HEAD = "name: pdf-rotate\ndescription: Rotates PDF pages. Use when the user asks to rotate a PDF.";

function findingsOf(yaml: string): Finding[] {
  const { frontmatter, findings } = parseFrontmatter(`---\n${yaml}\n---\n# Rotate\n\nDo it.\n`, FILE);
  if (frontmatter === undefined)
    throw new Error(`the test's frontmatter does not parse: ${JSON.stringify(findings)}`);
  return checkSkill({ file: FILE, folderName: "pdf-rotate", frontmatter, skillFiles: undefined });
}

describe("a frontmatter that is not a mapping", () => {
  it.each([
    ["- name\n- description", "a list"],
    ["just a sentence", "a string"],
    ["# only a comment", "empty"],
  ])("%j is refused as %s, with the shape to write", (yaml, found) => {
    expect(findingsOf(yaml)).toEqual([
      {
        severity: "error",
        code: "frontmatter-not-mapping",
        file: FILE,
        message: `the frontmatter must be a YAML mapping, but it is ${found}`,
        hint: "write the frontmatter as `key: value` lines, starting with `name:` and `description:`",
      },
    ]);
  });
});

describe("keys written with no value", () => {
  it("reports a missing name and description once each, not also as empty keys", () => {
    expect(findingsOf("name:\ndescription:").map((f) => [f.code, f.location])).toEqual([
      ["name-missing", "line 2"],
      ["description-missing", "line 3"],
    ]);
  });

  it("warns on each other spec key left empty, at its line", () => {
    expect(findingsOf(`${HEAD}\nlicense:\ncompatibility:\nmetadata:\nallowed-tools:`)).toEqual(
      ["license", "compatibility", "metadata", "allowed-tools"].map((key, index) => ({
        severity: "warning",
        code: "empty-field",
        file: FILE,
        location: `line ${4 + index}`,
        message: `\`${key}\` has no value`,
        hint: `give \`${key}\` a value or remove the line`,
      })),
    );
  });
});

describe("spec keys of the wrong type", () => {
  it("refuses a license that is not a string, saying what it is", () => {
    expect(findingsOf(`${HEAD}\nlicense: [MIT]`)).toEqual([
      {
        severity: "error",
        code: "license-type",
        file: FILE,
        location: "line 4",
        message: "`license` must be a string, not list",
        hint: "write `license` as a string",
      },
    ]);
  });

  it("refuses allowed-tools holding anything but strings", () => {
    expect(findingsOf(`${HEAD}\nallowed-tools: [Read, 3]`)).toEqual([
      {
        severity: "error",
        code: "allowed-tools-type",
        file: FILE,
        location: "line 4",
        message: "`allowed-tools` must be a string or a list of strings, not list",
        hint: "write `allowed-tools` as a string or a list of strings",
      },
    ]);
  });

  it("places a bad metadata entry reached through an alias at the `metadata` line", () => {
    expect(findingsOf(`${HEAD}\nx-base: &meta\n  version: 2\nmetadata: *meta`)).toEqual([
      {
        severity: "warning",
        code: "unknown-key",
        file: FILE,
        location: "line 4",
        message: "`x-base` is not an Agent Skills frontmatter key",
        hint: "use only name, description, license, compatibility, metadata, allowed-tools; put anything else under `metadata`",
      },
      {
        severity: "error",
        code: "metadata-type",
        file: FILE,
        location: "line 6",
        message: "`metadata.version` must be a string, not number",
        hint: "quote the value",
      },
    ]);
  });
});

describe("keys beyond the spec", () => {
  it("warns on a Claude Code key that other agents ignore", () => {
    expect(findingsOf(`${HEAD}\nmodel: sonnet`)).toEqual([
      {
        severity: "warning",
        code: "claude-code-key",
        file: FILE,
        location: "line 4",
        message: "`model` is a Claude Code extension, not part of the Agent Skills spec",
        hint: "fine for Claude Code; other agents ignore it",
      },
    ]);
  });
});
