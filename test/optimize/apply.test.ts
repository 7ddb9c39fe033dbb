import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyDescription, withDescription } from "../../src/optimize/index.js";
import { parseFrontmatter } from "../../src/skill/index.js";

const NEW = "Writes release notes from commits. Use when the user asks for release notes or a changelog.";

function descriptionOf(text: string): unknown {
  const data = parseFrontmatter(text, "SKILL.md").frontmatter?.data as { description?: unknown } | undefined;
  return data?.description;
}

/** The lines of `after` that differ from `before`, which must have the same number of lines. */
function changedLines(before: string, after: string): string[] {
  const a = before.split("\n");
  const b = after.split("\n");
  return b.filter((line, i) => line !== a[i]);
}

describe("withDescription", () => {
  it("changes only the description line, keeping its comment, the other keys and the body", () => {
    const before =
      "---\nname: release-notes\ndescription: Formats documents. # tuned by hand\nlicense: MIT\nmetadata:\n  owner: 'docs team'\n---\n\n# Body\n\ndescription: not this one\n";
    const after = withDescription(before, NEW, "SKILL.md");
    expect(changedLines(before, after)).toEqual([`description: ${NEW} # tuned by hand`]);
    expect(descriptionOf(after)).toBe(NEW);
  });

  it("keeps a folded block scalar and its indentation", () => {
    const before = "---\nname: rn\ndescription: >-\n    Formats\n    documents.\nlicense: MIT\n---\nBody\n";
    const after = withDescription(before, NEW, "SKILL.md");
    expect(after).toMatch(/^---\nname: rn\ndescription: >-\n {4}Writes release notes/);
    expect(after.endsWith("license: MIT\n---\nBody\n")).toBe(true);
    expect(descriptionOf(after)).toBe(NEW);
  });

  it("keeps a literal block's chomping, a quoted style, and quotes a plain value that needs it", () => {
    const literal = withDescription("---\nname: rn\ndescription: |\n  Old.\n---\nBody\n", "New one.", "f");
    expect(literal).toBe("---\nname: rn\ndescription: |\n  New one.\n---\nBody\n");
    const quoted = withDescription("---\nname: rn\ndescription: 'Old.'\n---\n", "It's new.", "f");
    expect(quoted).toBe("---\nname: rn\ndescription: 'It''s new.'\n---\n");
    const plain = withDescription("---\nname: rn\ndescription: Old.\n---\n", "Use when: asked # now", "f");
    expect(descriptionOf(plain)).toBe("Use when: asked # now");
  });

  it("keeps a BOM and CRLF line endings", () => {
    const before = "\uFEFF---\r\nname: rn\r\ndescription: Old.\r\n---\r\n\r\nBody\r\n";
    const after = withDescription(before, NEW, "SKILL.md");
    expect(after).toBe(`\uFEFF---\r\nname: rn\r\ndescription: ${NEW}\r\n---\r\n\r\nBody\r\n`);
  });

  it("refuses a description the spec does not allow", () => {
    expect(() => withDescription("---\nname: rn\ndescription: Old.\n---\n", "x".repeat(1025), "f")).toThrow(
      /1025 characters/,
    );
  });
});

describe("applyDescription", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillgym-apply-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("writes the file, and refuses when its description changed since the loop began", async () => {
    const file = join(dir, "SKILL.md");
    await writeFile(file, "---\nname: rn\ndescription: Old.\n---\nBody\n");
    await applyDescription(file, NEW, "Old.");
    expect(await readFile(file, "utf8")).toBe(`---\nname: rn\ndescription: ${NEW}\n---\nBody\n`);
    await expect(applyDescription(file, "Another.", "Old.")).rejects.toThrow(/description changed while/);
    expect(await readFile(file, "utf8")).toContain(NEW);
  });
});
