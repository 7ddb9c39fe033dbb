import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  catalogFolder,
  catalogFolderFor,
  catalogPlanOf,
  catalogRunIdentity,
  PLAN_FILE,
} from "../../src/catalog/catalog-folder.js";
import type { CatalogMember } from "../../src/catalog/discover.js";
import { planCatalogRuns } from "../../src/catalog/plan.js";
import type { CatalogPlan } from "../../src/contracts/catalog.js";
import { hashSkill } from "../../src/skill/index.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// The plan that defines a catalog, and the catalog-<N> folder it is written to (new, or resumed), on real folders.
let dir: string;
let cleanup: () => Promise<void>;
let members: CatalogMember[];
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "lib/a/SKILL.md": skillMd("a", "Skill a.", "A."),
    "lib/b/SKILL.md": skillMd("b", "Skill b.", "B."),
    "copy/a/SKILL.md": skillMd("a", "Skill a.", "A."),
    "copy/b/SKILL.md": skillMd("b", "Skill b.", "B."),
    "rivals/r/SKILL.md": skillMd("r", "Rival.", "R."),
  });
  members = [
    {
      name: "a",
      dir: join(dir, "lib", "a"),
      description: "Skill a.",
      queries: [{ query: "qa", should_trigger: true }],
    },
    { name: "b", dir: join(dir, "lib", "b"), description: "Skill b.", queries: [] },
  ];
});
afterAll(() => cleanup());

const base = { runs: 2, timeoutSeconds: 30 };

describe("catalogRunIdentity", () => {
  it("is the run's owner, query place, query text and run number", () => {
    const [spec] = planCatalogRuns(members, 1, "/c");
    expect(catalogRunIdentity(spec!)).toBe('["catalog","a",0,"qa",1]');
  });
});

describe("catalogPlanOf", () => {
  it("holds the library's content, the runs, the agent and no condition by default", async () => {
    expect(await catalogPlanOf("/lib", members, base, "claude-code")).toEqual({
      dir: "/lib",
      skills: [
        { name: "a", hash: await hashSkill(members[0]!.dir) },
        { name: "b", hash: await hashSkill(members[1]!.dir) },
      ],
      runs_per_query: 2,
      agent: "claude-code",
      timeout_ms: 30_000,
      status: "running",
    });
  });

  it("adds --only (sorted, the given list untouched), the model and every condition", async () => {
    const only = ["b", "a"];
    const plan = await catalogPlanOf("/lib", members, { ...base, only, model: "m1" }, "codex", {
      installed: [{ sourceDir: join(dir, "rivals", "r"), installName: "r" }],
      installedDirs: [join(dir, "rivals")],
      project: { root: "/project", hash: "p".repeat(64) },
      context: { file: "/context.json", hash: "c".repeat(64) },
    });
    expect(only).toEqual(["b", "a"]);
    expect(plan).toMatchObject({
      only: ["a", "b"],
      agent: "codex",
      model: "m1",
      installed: [join(dir, "rivals")],
      project_root: "/project",
      project_hash: "p".repeat(64),
      context: "/context.json",
      context_hash: "c".repeat(64),
    });
    expect(plan.shard).toBeUndefined();
  });

  it("gives a shard the plan's hash: of names, descriptions, queries, runs, --only, agent, model, timeout and conditions, not of paths", async () => {
    const shard = { index: 2, count: 3 };
    const hashOf = async (
      library: CatalogMember[],
      options: Partial<Parameters<typeof catalogPlanOf>[2]> = {},
      agent = "claude-code",
      conditions?: Parameters<typeof catalogPlanOf>[4],
    ) => {
      const plan = await catalogPlanOf("/lib", library, { ...base, shard, ...options }, agent, conditions);
      expect(plan.shard).toEqual({ index: 2, count: 3, plan_hash: expect.stringMatching(/^[0-9a-f]{16}$/) });
      return plan.shard!.plan_hash;
    };
    const hash = await hashOf(members);
    // Another machine holds the library elsewhere: the same plan.
    const moved = members.map((m) => ({ ...m, dir: join(dir, "copy", m.name) }));
    expect(await hashOf(moved)).toBe(hash);
    expect(await hashOf(members, { only: ["b", "a"] })).toBe(await hashOf(members, { only: ["a", "b"] }));
    const others = [
      await hashOf([{ ...members[0]!, description: "Other." }, members[1]!]),
      await hashOf([{ ...members[0]!, name: "z" }, members[1]!]),
      await hashOf([{ ...members[0]!, queries: [{ query: "qb", should_trigger: true }] }, members[1]!]),
      await hashOf(members, { runs: 3 }),
      await hashOf(members, { only: ["a"] }),
      await hashOf(members, {}, "codex"),
      await hashOf(members, { model: "m1" }),
      await hashOf(members, { timeoutSeconds: 31 }),
      await hashOf(members, {}, "claude-code", {
        installed: [],
        installedDirs: [],
        project: { root: "/p", hash: "p".repeat(64) },
      }),
      await hashOf(members, {}, "claude-code", {
        installed: [{ sourceDir: join(dir, "rivals", "r"), installName: "r" }],
        installedDirs: [join(dir, "rivals")],
      }),
    ];
    expect(new Set([hash, ...others]).size).toBe(others.length + 1);
    // The shard's place is not hashed: every shard of the plan has the same hash.
    const first = await catalogPlanOf(
      "/lib",
      members,
      { ...base, shard: { index: 1, count: 3 } },
      "claude-code",
    );
    expect(first.shard?.plan_hash).toBe(hash);
  });
});

describe("catalogFolderFor and catalogFolder", () => {
  const plan = (overrides: Partial<CatalogPlan> = {}): CatalogPlan => ({
    dir: "/lib",
    skills: [{ name: "a", hash: "h" }],
    runs_per_query: 1,
    agent: "claude-code",
    timeout_ms: 1000,
    status: "running",
    ...overrides,
  });
  const writePlan = async (folder: string, written: unknown) => {
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, PLAN_FILE), JSON.stringify(written));
  };

  it("starts catalog-1 in a workspace that does not exist yet, and makes it", async () => {
    const workspace = join(dir, "ws-new", "deep");
    expect(await catalogFolderFor(workspace, plan())).toEqual({
      dir: join(workspace, "catalog-1"),
      resumed: false,
    });
    await expect(readdir(workspace)).rejects.toThrow(/ENOENT/);
    expect(await catalogFolder(workspace, plan())).toEqual({
      dir: join(workspace, "catalog-1"),
      resumed: false,
    });
    expect(await readdir(workspace)).toEqual(["catalog-1"]);
  });

  it("resumes the latest catalog when unfinished with the same plan, whatever its status, else starts the next", async () => {
    const workspace = join(dir, "ws-resume");
    // catalog-10 is the latest (numbers, not names, compared); other folders are not catalogs.
    for (const name of ["catalog-2", "catalog-9", "catalog-x", "old-catalog-50", "catalog-50b"])
      await mkdir(join(workspace, name), { recursive: true });
    const latest = join(workspace, "catalog-10");
    await writePlan(latest, plan({ status: "interrupted" }));
    expect(await catalogFolderFor(workspace, plan())).toEqual({ dir: latest, resumed: true });
    expect(await catalogFolder(workspace, plan())).toEqual({ dir: latest, resumed: true });
    const next = { dir: join(workspace, "catalog-11"), resumed: false };
    // Another plan, a finished one, or a plan file that is not one: a new folder.
    expect(await catalogFolderFor(workspace, plan({ runs_per_query: 2 }))).toEqual(next);
    await writePlan(latest, plan({ status: "complete" }));
    expect(await catalogFolderFor(workspace, plan())).toEqual(next);
    await writePlan(latest, { ...plan(), runs_per_query: 0 });
    expect(await catalogFolderFor(workspace, plan({ runs_per_query: 0 } as Partial<CatalogPlan>))).toEqual(
      next,
    );
    expect(await catalogFolder(workspace, plan())).toEqual(next);
    expect((await readdir(workspace)).filter((n) => n === "catalog-11")).toEqual(["catalog-11"]);
  });

  it("starts a new folder when the latest has no plan; catalog-0 is never one", async () => {
    const workspace = join(dir, "ws-noplan");
    await writePlan(join(workspace, "catalog-0"), plan());
    expect(await catalogFolderFor(workspace, plan())).toEqual({
      dir: join(workspace, "catalog-1"),
      resumed: false,
    });
    await mkdir(join(workspace, "catalog-1"), { recursive: true });
    expect(await catalogFolderFor(workspace, plan())).toEqual({
      dir: join(workspace, "catalog-2"),
      resumed: false,
    });
  });
});
