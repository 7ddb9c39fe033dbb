import { mkdir, realpath, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { findOverlays } from "../../src/suite/overlays.js";
import { type Tree, tempDir, writeTree } from "./tree.js";

let dir: { path: string; remove: () => Promise<void> };
let suite: string;
let outside: string;
beforeEach(async () => {
  dir = await tempDir();
  // realpath: the temporary folder may itself sit behind a link (macOS /var).
  suite = join(await realpath(dir.path), "suite");
  outside = join(await realpath(dir.path), "outside");
  await writeTree(outside, { "secret.txt": "s" });
});
afterEach(() => dir.remove());

async function overlaysOf(
  tree: Tree,
  evalIds: ReadonlySet<string> | undefined,
  links: Record<string, string> = {},
) {
  await writeTree(suite, { "evals.json": "{}", ...tree });
  for (const [link, target] of Object.entries(links)) {
    await mkdir(join(suite, link, ".."), { recursive: true });
    await symlink(target, join(suite, link));
  }
  return findOverlays(suite, evalIds);
}

const orphanHint = "rename the folder to an existing eval id (exactly as written in evals.json) or remove it";
const linkHint = "copy the files into the overlay instead of linking to them";

describe("findOverlays", () => {
  test("setup/ and files/ are not eval folders, even with a setup folder inside", async () => {
    const found = await overlaysOf({ "files/setup/a.txt": "a", "setup/setup/b.txt": "b" }, new Set(["1"]));
    expect(found).toEqual({ base: join(suite, "setup"), perEval: new Map(), findings: [] });
  });

  test("overlays with no eval are warnings, in name order", async () => {
    const found = await overlaysOf(
      { "z/setup/a": "a", "a/setup/a": "a", "m/setup/a": "a", "c/setup/a": "a", "1/setup/a": "a" },
      new Set(["1"]),
    );
    expect([...found.perEval]).toEqual([["1", join(suite, "1/setup")]]);
    expect(found.findings).toEqual(
      ["a", "c", "m", "z"].map((name) => ({
        severity: "warning",
        code: "overlay-orphan",
        file: join(suite, name, "setup"),
        message: `looks like a per-eval overlay, but evals.json has no eval with id "${name}"; it is never applied`,
        hint: orphanHint,
      })),
    );
  });

  test("per-eval overlays are listed in name order", async () => {
    // One order on every system, whatever order it lists a folder in: an emoji (two UTF-16 units) before a
    // full-width sign, though its UTF-8 bytes come after.
    const found = await overlaysOf(
      {
        "b/setup/x": "x",
        "a/setup/x": "x",
        "c/setup/x": "x",
        "\uFF01/setup/x": "x",
        "\u{1F600}/setup/x": "x",
      },
      new Set(["c", "b", "a", "\uFF01", "\u{1F600}"]),
    );
    expect([...found.perEval.keys()]).toEqual(["a", "b", "c", "\u{1F600}", "\uFF01"]);
  });

  test("a link standing for an eval folder is not followed", async () => {
    const found = await overlaysOf({ "real/setup/a": "a" }, new Set(["1"]), { "1": join(suite, "real") });
    expect([...found.perEval]).toEqual([]);
    expect(found.findings.map((f) => [f.code, f.file])).toEqual([
      ["overlay-orphan", join(suite, "real/setup")],
    ]);
  });

  test("an overlay that is a link out of the suite is an error naming where it leads", async () => {
    const found = await overlaysOf({}, new Set(["1"]), { "1/setup": outside });
    expect(found.findings).toEqual([
      {
        severity: "error",
        code: "overlay-link-outside",
        file: join(suite, "1/setup"),
        message: `the overlay is, or passes through, a link to ${outside}, outside the suite folder ${suite}`,
        hint: linkHint,
      },
    ]);
  });

  test("a link out inside an overlay is an error naming the link; a link looping back is not", async () => {
    const found = await overlaysOf({ "setup/a.txt": "a" }, undefined, {
      "setup/deep/secret.txt": join(outside, "secret.txt"),
      "setup/deep/again": join(suite, "setup"),
    });
    expect(found.findings).toEqual([
      {
        severity: "error",
        code: "overlay-link-outside",
        file: join(suite, "setup/deep/secret.txt"),
        message: `"deep/secret.txt" is a link to ${join(outside, "secret.txt")}, outside the overlay ${join(suite, "setup")}; it is never followed, copied or packaged`,
        hint: linkHint,
      },
    ]);
  });
});
