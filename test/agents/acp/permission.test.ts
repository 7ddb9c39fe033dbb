import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decidePermission } from "../../../src/agents/acp/permission.js";
import { insideRoots } from "../../../src/agents/acp/workspace-paths.js";
import { tempDir } from "../../e2e/helpers.js";

const OPTIONS = [
  { optionId: "always", name: "Allow for this session", kind: "allow_always" },
  { optionId: "once", name: "Allow", kind: "allow_once" },
  { optionId: "no", name: "Reject", kind: "reject_once" },
];

describe("ACP permission policy", () => {
  let dir: string;
  let work: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    work = join(dir, "work");
    await mkdir(work);
  });
  afterEach(() => cleanup());

  const request = (toolCall: Record<string, unknown>, options: unknown[] = OPTIONS) => ({
    sessionId: "s",
    toolCall: { toolCallId: "t1", ...toolCall },
    options,
  });

  it("allows an edit inside the workspace once, never for the whole session", () => {
    const decision = decidePermission(
      request({ kind: "edit", title: "Write", locations: [{ path: join(work, "out", "a.txt") }] }),
      "eval",
      [work],
    );
    expect(decision).toEqual({
      allowed: true,
      reason: "",
      outcome: { outcome: "selected", optionId: "once" },
    });
  });

  it("refuses a location outside the workspace, naming it", () => {
    const decision = decidePermission(
      request({ kind: "edit", locations: [{ path: join(work, "..", "elsewhere.txt") }] }),
      "eval",
      [work],
    );
    expect(decision.allowed).toBe(false);
    expect(decision.reason).toBe(`${join(dir, "elsewhere.txt")} is outside the workspace`);
    expect(decision.outcome).toEqual({ outcome: "selected", optionId: "no" });
  });

  it("refuses a path outside the workspace in the tool's raw input", () => {
    const decision = decidePermission(
      request({ kind: "read", rawInput: { file_path: "/etc/passwd" } }),
      "eval",
      [work],
    );
    expect(decision.allowed).toBe(false);
    expect(decision.reason).toMatch(/\/etc\/passwd is outside the workspace/);
  });

  it("refuses web access", () => {
    const decision = decidePermission(request({ kind: "fetch", title: "https://example.com" }), "eval", [
      work,
    ]);
    expect(decision.allowed).toBe(false);
    expect(decision.reason).toMatch(/web/);
  });

  it("lets a read-only run read, search and load a skill, and nothing else", () => {
    const allowed = (toolCall: Record<string, unknown>) =>
      decidePermission(request(toolCall), "read-only", [work]).allowed;
    expect(allowed({ kind: "read", locations: [{ path: join(work, "a") }] })).toBe(true);
    expect(allowed({ kind: "search" })).toBe(true);
    expect(allowed({ kind: "other", _meta: { toolName: "skill" }, rawInput: { skill: "x" } })).toBe(true);
    expect(allowed({ kind: "execute", title: "ls" })).toBe(false);
    expect(allowed({ kind: "edit", locations: [{ path: join(work, "a") }] })).toBe(false);
    expect(allowed({ kind: "execute", title: "ls" })).toBe(false);
    const reason = (toolCall: Record<string, unknown>) =>
      decidePermission(request(toolCall), "read-only", [work]).reason;
    expect(reason({ kind: "execute", title: "ls" })).toBe("a read-only run may not use a execute tool (ls)");
    expect(reason({ kind: "execute", title: "ls", _meta: { toolName: "shell" } })).toBe(
      "a read-only run may not use a execute tool (shell)",
    );
    expect(reason({})).toBe("a read-only run may not use a other tool (unnamed)");
    // The same calls in an eval run are allowed.
    expect(decidePermission(request({ kind: "execute", title: "ls" }), "eval", [work]).allowed).toBe(true);
  });

  it("answers cancelled when the agent offers no option of the needed kind", () => {
    const onlyAllow = [{ optionId: "ok", name: "Allow", kind: "allow_once" }];
    const refused = decidePermission(
      request({ kind: "edit", locations: [{ path: "/etc/x" }] }, onlyAllow),
      "eval",
      [work],
    );
    expect(refused.outcome).toEqual({ outcome: "cancelled" });
    expect(refused.allowed).toBe(false);
    const noAllow = [{ optionId: "no", name: "Reject", kind: "reject_once" }];
    const unallowed = decidePermission(request({ kind: "read" }, noAllow), "eval", [work]);
    expect(unallowed).toEqual({
      allowed: false,
      reason: "the agent offered no option to allow it",
      outcome: { outcome: "selected", optionId: "no" },
    });
  });

  it("picks the once options over the always ones, and skips an option without an id or a kind", () => {
    const options = [
      { name: "Allow, no id", kind: "allow_once" },
      { optionId: "kindless", name: "Allow?" },
      "allow",
      { optionId: "always", name: "Allow always", kind: "allow_always" },
      { optionId: "never", name: "Reject always", kind: "reject_always" },
      { optionId: "no", name: "Reject", kind: "reject_once" },
    ];
    const inside = { kind: "edit", locations: [{ path: join(work, "a.txt") }] };
    expect(decidePermission(request(inside, options), "eval", [work]).outcome).toEqual({
      outcome: "selected",
      optionId: "always",
    });
    const outside = { kind: "edit", locations: [{ path: "/etc/x" }] };
    expect(decidePermission(request(outside, options), "eval", [work]).outcome).toEqual({
      outcome: "selected",
      optionId: "no",
    });
    expect(decidePermission(request(outside, options.slice(0, -1)), "eval", [work]).outcome).toEqual({
      outcome: "selected",
      optionId: "never",
    });
  });

  it("sees through .. and symbolic links out of the workspace", async () => {
    await mkdir(join(dir, "outside"));
    await symlink(join(dir, "outside"), join(work, "link"));
    expect(insideRoots(join(work, "sub", "..", "a.txt"), [work])).toBe(true);
    expect(insideRoots(join(work, "..", "outside", "a.txt"), [work])).toBe(false);
    expect(insideRoots(join(work, "link", "new-file.txt"), [work])).toBe(false);
    // A link to the file system's root: a new file below it lies outside, however long its path.
    await symlink("/", join(work, "top"));
    expect(insideRoots(join(work, "top", "missing", "new-file.txt"), [work])).toBe(false);
    expect(insideRoots(work, [work])).toBe(true);
    expect(insideRoots(`${work}-sibling/a`, [work])).toBe(false);
    expect(insideRoots("", [work])).toBe(false);
  });

  it("a path inside any one of several roots is inside; with no roots, nothing is", async () => {
    const other = join(dir, "other");
    await mkdir(other);
    expect(insideRoots(join(other, "a.txt"), [work, other])).toBe(true);
    expect(insideRoots("a.txt", [work, other])).toBe(true);
    expect(insideRoots("a.txt", [])).toBe(false);
    expect(insideRoots(join(work, "a.txt"), [])).toBe(false);
  });
});
