import { readdir, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  catalogProject,
  catalogProjectHash,
  resolveCatalogConditions,
} from "../../src/catalog/conditions.js";
import type { CatalogMember } from "../../src/catalog/discover.js";
import { SkillgymError } from "../../src/errors.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// The catalog's conditions resolved from the flags and the library's evals.json, and the project snapshot it copies.
let dir: string;
let cleanup: () => Promise<void>;
let members: CatalogMember[];
const lib = () => join(dir, "lib");
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "lib/a/SKILL.md": skillMd("a", "Skill a.", "A."),
    "lib/b/SKILL.md": skillMd("b", "Skill b.", "B."),
    "rivals/changelog/SKILL.md": skillMd("changelog", "Keeps CHANGELOG.md.", "Edit it."),
    "clash/a/SKILL.md": skillMd("a", "Another a.", "A."),
    "suite-lib/a/SKILL.md": skillMd("a", "Skill a.", "A."),
    "suite-lib/evals.json": JSON.stringify({
      conditions: { installed: ["../rivals"], context: "../context.json" },
      evals: [],
    }),
    "both-lib/a/SKILL.md": skillMd("a", "Skill a.", "A."),
    "both-lib/evals.json": JSON.stringify({
      conditions: { installed: ["../rivals"], side_by_side: true },
      evals: [],
    }),
    "context.json": JSON.stringify([
      { role: "user", content: "Look at the release." },
      { role: "assistant", content: "The notes are written." },
    ]),
    // A project holding the library, its workspace and store, and a suite kept apart.
    "project/package.json": "{}\n",
    "project/src/index.ts": "export {};\n",
    "project/lib/a/SKILL.md": "x",
    "project/extra/m/SKILL.md": "x",
    "project/extra/n/SKILL.md": "x",
    "project/suites/m.json": "[]",
    "project/suites/kept.json": "[]",
    "project/ws/catalog-1/x.json": "{}",
    "project/cache/v1/x": "x",
  });
  members = [
    { name: "a", dir: join(lib(), "a"), description: "Skill a.", queries: [] },
    { name: "b", dir: join(lib(), "b"), description: "Skill b.", queries: [] },
  ];
});
afterAll(() => cleanup());

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillgymError);
  const { code, message, hint } = error as SkillgymError;
  return { code, message, hint };
}

const SIDE_BY_SIDE_HINT =
  "a catalog writes one matrix: run it once with --conditions clean and once under the conditions, each into its own catalog-<N>";

describe("resolveCatalogConditions", () => {
  it("is the clean room when nothing is given", async () => {
    expect(await resolveCatalogConditions({}, lib(), members)).toEqual({ installed: [], installedDirs: [] });
  });

  it("reads every condition given: the rivals by name, the project's path, the conversation", async () => {
    const resolved = await resolveCatalogConditions(
      {
        installed: [join(dir, "rivals")],
        project: join(dir, "project", "..", "project"),
        context: join(dir, "context.json"),
      },
      lib(),
      members,
    );
    expect(resolved).toEqual({
      project: join(dir, "project"),
      installed: [{ sourceDir: join(dir, "rivals", "changelog"), installName: "changelog" }],
      installedDirs: [join(dir, "rivals")],
      context: {
        file: join(dir, "context.json"),
        turns: [
          { role: "user", content: "Look at the release." },
          { role: "assistant", content: "The notes are written." },
        ],
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
  });

  it("takes the conditions the flags left out from the library's evals.json", async () => {
    const root = join(dir, "suite-lib");
    const resolved = await resolveCatalogConditions({}, root, [members[0]!]);
    expect(resolved.installedDirs).toEqual([join(dir, "rivals")]);
    expect(resolved.installed.map((c) => c.installName)).toEqual(["changelog"]);
    expect(resolved.context?.file).toBe(join(dir, "context.json"));
    expect(resolved.project).toBeUndefined();
  });

  it("leaves every condition out with --conditions clean", async () => {
    expect(
      await resolveCatalogConditions(
        {
          installed: [join(dir, "rivals")],
          context: join(dir, "context.json"),
          conditions: { clean: true, real: false },
        },
        lib(),
        members,
      ),
    ).toEqual({ installed: [], installedDirs: [] });
  });

  it("refuses the clean room and the real conditions side by side, from the flag or the evals.json", async () => {
    expect(
      await refusal(
        resolveCatalogConditions(
          { installed: [join(dir, "rivals")], conditions: { clean: true, real: true } },
          lib(),
          members,
        ),
      ),
    ).toEqual({
      code: "USAGE",
      message: "--conditions: catalog does not run the clean room and the real conditions side by side",
      hint: SIDE_BY_SIDE_HINT,
    });
    const root = join(dir, "both-lib");
    expect(await refusal(resolveCatalogConditions({}, root, [members[0]!]))).toEqual({
      code: "USAGE",
      message: `${join(root, "evals.json")}: conditions.side_by_side: catalog does not run the clean room and the real conditions side by side`,
      hint: SIDE_BY_SIDE_HINT,
    });
  });

  it("refuses the real conditions with none given, and a rival named as a library skill", async () => {
    const real = await refusal(
      resolveCatalogConditions({ conditions: { clean: false, real: true } }, lib(), members),
    );
    expect(real.message).toBe(
      '--conditions: "real" needs a condition to run under, and none was given (no --project-root, --installed or --context)',
    );
    const clash = await refusal(
      resolveCatalogConditions({ installed: [join(dir, "clash")] }, lib(), members),
    );
    expect(clash.message).toContain(`--installed: ${join(dir, "clash", "a")} has the name a`);
  });
});

async function files(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) found.push(relative(root, join(entry.parentPath, entry.name)));
  return found.sort();
}

describe("catalogProject and catalogProjectHash", () => {
  const project = () => join(dir, "project");
  const inputs = () => ({
    root: join(project(), "lib"),
    members: [
      {
        name: "m",
        dir: join(project(), "extra", "m"),
        description: "M.",
        queries: [],
        triggersFile: join(project(), "suites", "m.json"),
      },
      { name: "n", dir: join(project(), "extra", "n"), description: "N.", queries: [] },
    ],
    workspace: join(project(), "ws"),
  });

  it("copies the project without the library, the skills, their suites, the workspace and the store", async () => {
    const { dir: tempRoot, cleanup: done } = await tempDir();
    try {
      const copied = await catalogProject(
        project(),
        { ...inputs(), store: { dir: join(project(), "cache") } },
        tempRoot,
      );
      expect(copied.root).toBe(project());
      expect(copied.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(copied.snapshot.startsWith(tempRoot)).toBe(true);
      expect(await files(copied.snapshot)).toEqual([
        "package.json",
        join("src", "index.ts"),
        join("suites", "kept.json"),
      ]);
      // Without a store, its folder is copied as any other.
      const { dir: other, cleanup: done2 } = await tempDir();
      try {
        const withCache = await catalogProject(project(), inputs(), other);
        expect(await files(withCache.snapshot)).toContain(join("cache", "v1", "x"));
        expect(withCache.hash).not.toBe(copied.hash);
      } finally {
        await done2();
      }
    } finally {
      await done();
    }
  });

  it("hashes the copy a run would start in, and removes it", async () => {
    const { dir: tempRoot, cleanup: done } = await tempDir();
    try {
      const store = { dir: join(project(), "cache") };
      const copied = await catalogProject(project(), { ...inputs(), store }, tempRoot);
      const hashed = await catalogProjectHash(project(), { ...inputs(), store });
      expect(hashed.hash).toBe(copied.hash);
      expect(hashed.root).toBe(project());
      await expect(stat(hashed.snapshot)).rejects.toThrow(/ENOENT/);
    } finally {
      await done();
    }
  });
});
