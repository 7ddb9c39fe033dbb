import { describe, expect, it } from "vitest";
import { findReferences } from "../../src/skill/references.js";

const links = (body: string) => findReferences(body).map((r) => [r.bodyLine, r.target, r.path, r.kind]);

describe("findReferences", () => {
  it("skips fenced code until a bare fence of the same kind, allowing trailing spaces", () => {
    const body = [
      "```",
      "~~~",
      "[a](scripts/a.sh)",
      "```js",
      "[b](scripts/b.sh)",
      "```  ",
      "[c](scripts/c.sh)",
    ].join("\n");
    expect(links(body)).toEqual([[6, "scripts/c.sh", "scripts/c.sh", "link"]]);
  });

  it("strips trailing punctuation from a backticked bundled path", () => {
    expect(links("Run `scripts/a.sh).` now.")).toEqual([[0, "scripts/a.sh", "scripts/a.sh", "link"]]);
  });

  it("reads a file name right after a code span or a link as written, not joined to the word before", () => {
    expect(links("Read a`x`notes.md and x[a](references/a.md)y.md")).toEqual([
      [0, "references/a.md", "references/a.md", "link"],
      [0, "notes.md", "notes.md", "mention"],
      [0, "y.md", "y.md", "mention"],
    ]);
  });

  it("ignores backticked words that are not file names", () => {
    expect(links("Type `run now` then `--force`.")).toEqual([]);
  });

  it("decodes percent-escapes and unwraps angle brackets in link targets", () => {
    expect(links("[a](scripts/my%20file.sh) and [b](<references/a b.md>)")).toEqual([
      [0, "scripts/my%20file.sh", "scripts/my file.sh", "link"],
      [0, "references/a b.md", "references/a b.md", "link"],
    ]);
  });

  it("ignores link targets that are wildcards, half-wrapped or the folder itself", () => {
    expect(links("[a](scripts/a*.sh) [b](scripts/b.sh>) [c](./) [d](?x=1) [e](<scripts/e.sh)")).toEqual([]);
  });

  it("normalises a folder link without its trailing slash and marks a climb out as leaving the folder", () => {
    expect(links("[a](scripts/) [b](..)")).toEqual([
      [0, "scripts/", "scripts", "link"],
      [0, "..", undefined, "link"],
    ]);
  });
});
