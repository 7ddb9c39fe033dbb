import { describe, expect, it } from "vitest";
import { frontmatterName, renameSkillInFrontmatter } from "../../src/workspace/rename-skill.js";

function rename(text: string | Uint8Array, name = "my-skill-trig-1"): string | undefined {
  return renameSkillInFrontmatter(
    typeof text === "string" ? Buffer.from(text, "utf8") : text,
    name,
  )?.toString("utf8");
}

describe("renameSkillInFrontmatter", () => {
  it("replaces only the name line, keeping BOM, CRLF and the rest byte for byte", () => {
    const original =
      "\uFEFF---\r\nname: my-skill\r\ndescription: >-\r\n  Résumé helper\r\n---\r\nname: in the body\r\n";
    expect(rename(original)).toBe(original.replace("name: my-skill\r\n", "name: my-skill-trig-1\r\n"));
  });

  it("handles LF files, quoted names and trailing spaces on the fences", () => {
    expect(rename("--- \nname: 'my-skill'\ndescription: d\n---\nbody")).toBe(
      "--- \nname: my-skill-trig-1\ndescription: d\n---\nbody",
    );
  });

  it("reads a closing fence that ends the file without a newline", () => {
    expect(rename("---\nname: my-skill\n---")).toBe("---\nname: my-skill-trig-1\n---");
    expect(frontmatterName(Buffer.from("---\ndescription: d\n---"))).toBeUndefined();
  });

  it("replaces a block-scalar name with all its lines", () => {
    expect(rename("---\nname: >-\n  my-skill\ndescription: d\n---\n")).toBe(
      "---\nname: my-skill-trig-1\ndescription: d\n---\n",
    );
  });

  it("adds a name when the frontmatter has none", () => {
    expect(rename("---\r\ndescription: d\r\n---\r\n")).toBe(
      "---\r\nname: my-skill-trig-1\r\ndescription: d\r\n---\r\n",
    );
  });

  it("does not touch a nested name key or bytes that are not UTF-8", () => {
    const bytes = Buffer.concat([
      Buffer.from("---\nmetadata:\n  name: nested\nname: x\n---\n"),
      Buffer.from([0xff, 0xfe, 0x00]),
    ]);
    const renamed = renameSkillInFrontmatter(bytes, "y");
    expect(renamed).toEqual(
      Buffer.concat([
        Buffer.from("---\nmetadata:\n  name: nested\nname: y\n---\n"),
        Buffer.from([0xff, 0xfe, 0x00]),
      ]),
    );
  });

  it("replaces a name written with spaces before its colon, with its block lines", () => {
    expect(rename("---\nname : >-\n  my-skill\ndescription: d\n---\n")).toBe(
      "---\nname: my-skill-trig-1\ndescription: d\n---\n",
    );
  });

  it("replaces a literal block or an empty value together with the lines that continue it, blank ones included", () => {
    expect(rename("---\nname: |-\n  my\n\n  skill\ndescription: d\n---\n")).toBe(
      "---\nname: my-skill-trig-1\ndescription: d\n---\n",
    );
    expect(rename("---\r\nname:\r\n  my-skill\r\n\r\ndescription: d\r\n---\r\n")).toBe(
      "---\r\nname: my-skill-trig-1\r\ndescription: d\r\n---\r\n",
    );
  });

  it("keeps the blank line after a one-line name", () => {
    expect(rename("---\nname: my-skill\n\ndescription: d\n---\n")).toBe(
      "---\nname: my-skill-trig-1\n\ndescription: d\n---\n",
    );
  });

  it("adds a name to the frontmatter rather than touching a name line in the body", () => {
    expect(rename("---\ndescription: d\n---\nname: in the body\n")).toBe(
      "---\nname: my-skill-trig-1\ndescription: d\n---\nname: in the body\n",
    );
  });

  it("quotes a name that is not a plain folder-like word", () => {
    expect(rename("---\nname: x\n---\n", "-leading-dash")).toBe('---\nname: "-leading-dash"\n---\n');
    expect(rename("---\nname: x\n---\n", "two words")).toBe('---\nname: "two words"\n---\n');
    expect(rename("---\nname: x\n---\n", "v1.2_b-c")).toBe("---\nname: v1.2_b-c\n---\n");
  });

  it("returns undefined without frontmatter", () => {
    expect(rename("# Just a heading\nname: x\n")).toBeUndefined();
    expect(rename("---\nname: x\nno closing fence\n")).toBeUndefined();
  });
});

describe("frontmatterName", () => {
  it("reads a one-line name, quoted or not, through a BOM and CRLF", () => {
    expect(frontmatterName(Buffer.from('\uFEFF---\r\nname: "my-skill"\r\n---\r\n'))).toBe("my-skill");
    expect(frontmatterName(Buffer.from("---\ndescription: d\n---\nname: body\n"))).toBeUndefined();
  });
  it("reads the name whatever the spacing around its colon", () => {
    for (const line of ["name:x", "name :x", "name\t:  x", "name:   x  "]) {
      expect(frontmatterName(Buffer.from(`---\n${line}\n---\n`))).toBe("x");
    }
  });

  it("reads the top-level name, not a nested one", () => {
    expect(frontmatterName(Buffer.from("---\nmetadata:\n  name: nested\nname: top\n---\n"))).toBe("top");
  });

  it("strips only quotes that enclose the whole value, and only a leading BOM", () => {
    expect(frontmatterName(Buffer.from("---\nname: x'y'\n---\n"))).toBe("x'y'");
    expect(frontmatterName(Buffer.from("---\nname: 'x'y\n---\n"))).toBe("'x'y");
    expect(frontmatterName(Buffer.from("---\nname: a\uFEFFb\n---\n"))).toBe("a\uFEFFb");
  });

  it("gives no name for an empty or block value, but reads one holding > or |", () => {
    expect(frontmatterName(Buffer.from("---\nname:\n  x\n---\n"))).toBeUndefined();
    expect(frontmatterName(Buffer.from("---\nname: |\n  x\n---\n"))).toBeUndefined();
    expect(frontmatterName(Buffer.from("---\nname: >-\n  x\n---\n"))).toBeUndefined();
    expect(frontmatterName(Buffer.from("---\nname: a>b|c\n---\n"))).toBe("a>b|c");
  });

  it("gives no name without an opening fence", () => {
    expect(frontmatterName(Buffer.from("# Heading\nname: x\n"))).toBeUndefined();
    expect(frontmatterName(Buffer.from(""))).toBeUndefined();
  });
});
