import { describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { errnoOf, workspaceError } from "../../src/tree/fs-errors.js";

function fsError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

const defaultHint = "check that the paths exist and are readable, and that the workspace folder is writable";

describe("file-system failures as workspace errors", () => {
  it("reads the errno code only from an object that carries a string code", () => {
    expect(errnoOf(fsError("ENOENT", "gone"))).toBe("ENOENT");
    expect(errnoOf({ code: 13 })).toBeUndefined();
    expect(errnoOf(null)).toBeUndefined();
    expect(errnoOf("EACCES")).toBeUndefined();
    expect(errnoOf(new Error("plain"))).toBeUndefined();
  });

  it("names what was being done and Node's message, which names the path", () => {
    const cause = fsError("ENOENT", "ENOENT: no such file or directory, open '/w/a.md'");
    const error = workspaceError(cause, "copying the skill");
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error.code).toBe("WORKSPACE");
    expect(error.message).toBe("copying the skill: ENOENT: no such file or directory, open '/w/a.md'");
    expect(error.cause).toBe(cause);
    expect(workspaceError("disk on fire", "writing the plan").message).toBe("writing the plan: disk on fire");
  });

  it("hints at the fix that fits the failure", () => {
    const hint = (code: string | undefined) =>
      workspaceError(code === undefined ? new Error("x") : fsError(code, "x"), "copying").hint;
    for (const code of ["EACCES", "EPERM", "EROFS"]) {
      expect(hint(code)).toBe("fix the permissions, or choose a writable folder with --workspace");
    }
    expect(hint("ENOSPC")).toBe("free some disk space, or choose another folder with --workspace");
    expect(hint("ENOENT")).toBe("a file vanished while it was being copied; run again");
    expect(hint("EISDIR")).toBe(defaultHint);
    expect(hint(undefined)).toBe(defaultHint);
  });

  it("passes a skillgym error through unchanged", () => {
    const original = new SkillgymError("BAD_INPUT", "bad plan", { hint: "fix it" });
    expect(workspaceError(original, "copying")).toBe(original);
  });
});
