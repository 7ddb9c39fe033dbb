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
});
