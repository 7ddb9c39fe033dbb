import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { isAtOrUnder, relativeInside, resolveInside, toPosix } from "../../src/tree/paths.js";

const root = "/work/skill";

function refusal(relPosix: string): SkillgymError {
  try {
    resolveInside(root, relPosix, "plan entry");
  } catch (error) {
    if (error instanceof SkillgymError) return error;
    throw error;
  }
  throw new Error(`${JSON.stringify(relPosix)} was accepted`);
}

describe.skipIf(process.platform === "win32")("POSIX paths inside a root", () => {
  it("writes a relative path with forward slashes", () => {
    expect(toPosix(join("a", "b", "c.md"))).toBe("a/b/c.md");
  });

  it("says where a path sits inside the root, the root itself being the empty path", () => {
    expect(relativeInside(root, root)).toBe("");
    expect(relativeInside(`${root}/`, root)).toBe("");
    expect(relativeInside(root, `${root}/refs/a.md`)).toBe("refs/a.md");
    expect(relativeInside(root, `${root}/..notes`)).toBe("..notes");
  });

  it("has no inside path for the parent, a sibling or anything above", () => {
    expect(relativeInside(root, "/work")).toBeUndefined();
    expect(relativeInside(root, "/work/skill-evil/secret")).toBeUndefined();
    expect(relativeInside(root, "/etc/passwd")).toBeUndefined();
  });

  it("tells a path at or under a folder from one that only shares its name's start", () => {
    expect(isAtOrUnder("refs", "refs")).toBe(true);
    expect(isAtOrUnder("refs/a.md", "refs")).toBe(true);
    expect(isAtOrUnder("refs-old/a.md", "refs")).toBe(false);
    expect(isAtOrUnder("refsa", "refs")).toBe(false);
    expect(isAtOrUnder("a/refs/", "refs")).toBe(false);
    expect(isAtOrUnder("docs/a.md", "refs")).toBe(false);
  });

  it("joins a relative POSIX path onto the root, dropping empty and '.' segments", () => {
    expect(resolveInside(root, "refs/a.md", "plan entry")).toBe("/work/skill/refs/a.md");
    expect(resolveInside(root, "ab", "plan entry")).toBe("/work/skill/ab");
    expect(resolveInside(root, "./refs//a.md", "plan entry")).toBe("/work/skill/refs/a.md");
    expect(resolveInside(root, "refs/", "plan entry")).toBe("/work/skill/refs");
    expect(resolveInside(root, "notes/a:b.md", "plan entry")).toBe("/work/skill/notes/a:b.md");
    expect(resolveInside(root, "1:2.md", "plan entry")).toBe("/work/skill/1:2.md");
    expect(resolveInside(root, "..notes", "plan entry")).toBe("/work/skill/..notes");
  });

  it("refuses a path that is absolute, climbs out or names no file, saying which and where", () => {
    for (const bad of ["/etc/passwd", "C:/Windows", "c:evil", "..", "refs/../../x", "", ".", "./", "//"]) {
      const error = refusal(bad);
      expect(error.code).toBe("WORKSPACE");
      expect(error.message).toBe(`plan entry ${JSON.stringify(bad)} must be a relative path inside ${root}`);
      expect(error.hint).toBe("use a relative POSIX path without '..'");
    }
  });
});
