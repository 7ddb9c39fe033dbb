import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CatalogPlan, CatalogResults } from "../../src/contracts/catalog.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";
import { type Listing, listing } from "../triggers/conditions-fixture.js";

// Three queries of release-notes, each told apart by one condition: "what changed" is taken by the rival changelog
// once it is installed beside the library; "prepare the release" fires only where the project's package.json is
// visible; "draft the notes" stops firing once the prior conversation says they are already written.
const simScript = {
  rules: [
    { match: "what changed", skills: "^changelog$", skill: "changelog" },
    { match: "what changed", skill: "~release-notes-sg-" },
    { match: "prepare the release", files: "^package\\.json$", skill: "~release-notes-sg-" },
    {
      match: "draft the notes",
      history: "already written",
      skill: "none",
      without_skill: [{ text: "Done." }],
    },
    { match: "draft the notes", skill: "~release-notes-sg-" },
    { skill: "none", without_skill: [{ text: "Sure." }] },
  ],
};

let dir: string;
let cleanup: () => Promise<void>;
let before: Listing;
const project = () => join(dir, "project");
const library = () => join(dir, "library");
const ws = (name: string) => join(dir, name);

async function catalog(workspace: string, ...extra: string[]) {
  return await skillgymHereOnDouble([
    "catalog",
    library(),
    "--simulate",
    "--runs",
    "1",
    "--workspace",
    ws(workspace),
    "--json",
    ...extra,
  ]);
}

const real = () => [
  "--installed",
  join(dir, "rivals"),
  "--project-root",
  project(),
  "--context",
  join(dir, "context.json"),
];

// Each query of release-notes → the skill that fired first.
const firedBy = (stdout: string) =>
  Object.fromEntries(
    CatalogResults.parse(JSON.parse(stdout))
      .runs.filter((r) => r.owner === "release-notes")
      .map((r) => [r.query, r.fired]),
  );

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "library/release-notes/SKILL.md": skillMd(
      "release-notes",
      "Drafts release notes. Use when the user asks what changed.",
      "Write RELEASE_NOTES.md.",
    ),
    "library/release-notes/evals/triggers.json": JSON.stringify([
      { query: "Tell me what changed since v1.2", should_trigger: true },
      { query: "Please prepare the release", should_trigger: true },
      { query: "Please draft the notes for 2.0", should_trigger: true },
    ]),
    "library/formatter/SKILL.md": skillMd("formatter", "Formats code.", "Run the formatter."),
    "library/sim-script.json": JSON.stringify(simScript),
    "rivals/changelog/SKILL.md": skillMd(
      "changelog",
      "Keeps CHANGELOG.md. Use when the user asks what changed.",
      "Edit it.",
    ),
    "clash/formatter/SKILL.md": skillMd("formatter", "Another formatter.", "Format."),
    "project/package.json": '{ "name": "app", "version": "1.2.0" }\n',
    "project/src/index.ts": "export const answer = 42;\n",
    "project/.gitignore": "secret.txt\n",
    "project/secret.txt": "do not copy\n",
    "context.json": JSON.stringify([
      { role: "user", content: "Can you look at the 2.0 release?" },
      { role: "assistant", content: "Yes. The release notes are already written." },
    ]),
  });
  before = await listing(project());
}, 60_000);
afterAll(() => cleanup());

describe("catalog under trigger conditions (--installed, --project-root, --context)", () => {
  it("each query's result changes with the condition that tells it apart", async () => {
    const clean = await catalog("ws");
    expect(clean.code, clean.stderr).toBe(0);
    expect(firedBy(clean.stdout)).toEqual({
      "Tell me what changed since v1.2": "release-notes",
      "Please prepare the release": "none",
      "Please draft the notes for 2.0": "release-notes",
    });
    expect(JSON.parse(clean.stdout).conditions).toBeUndefined();

    const under = await catalog("ws", ...real());
    expect(under.code, under.stderr).toBe(0);
    expect(firedBy(under.stdout)).toEqual({
      "Tell me what changed since v1.2": "changelog",
      "Please prepare the release": "release-notes",
      "Please draft the notes for 2.0": "none",
    });
    const results = CatalogResults.parse(JSON.parse(under.stdout));
    // The clean room's runs are not served to the real conditions' (the keys differ).
    expect(results.runs.filter((r) => r.reused_from !== undefined)).toEqual([]);
    expect(results.confusion["release-notes"]).toEqual({ changelog: 1, "release-notes": 1, none: 1 });
    expect(results.conditions).toMatchObject({
      project_root: project(),
      installed: ["changelog"],
      context: join(dir, "context.json"),
      context_turns: 2,
    });
    const plan = CatalogPlan.parse(
      JSON.parse(await readFile(join(ws("ws"), "catalog-2", "catalog-plan.json"), "utf8")),
    );
    expect(plan).toMatchObject({ installed: [join(dir, "rivals")], project_root: project() });
    expect(plan.project_hash).toBe(results.conditions?.project_hash);
    expect(plan.context_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("the store serves a run only under the same conditions; the dry run keys them the same way", async () => {
    const again = await catalog("ws", ...real());
    expect(again.code, again.stderr).toBe(0);
    const runs = CatalogResults.parse(JSON.parse(again.stdout)).runs;
    expect(runs.length).toBe(3);
    expect(runs.every((r) => r.reused_from !== undefined)).toBe(true);

    const dry = async (...extra: string[]) => {
      const plan = await catalog("ws", "--dry-run", ...extra);
      expect(plan.code, plan.stderr).toBe(0);
      return JSON.parse(plan.stdout) as { store: { catalogRuns: { served: number } }; conditions?: unknown };
    };
    expect((await dry(...real())).store.catalogRuns.served).toBe(3);
    expect((await dry()).store.catalogRuns.served).toBe(3);
    // Without the prior conversation the condition is another: nothing stored matches.
    const noContext = await dry("--installed", join(dir, "rivals"), "--project-root", project());
    expect(noContext.store.catalogRuns.served).toBe(0);
    expect(noContext.conditions).toMatchObject({ installed: ["changelog"], project_root: project() });
    // `--conditions clean` leaves the given conditions out: the clean room's runs are served.
    expect((await dry(...real(), "--conditions", "clean")).store.catalogRuns.served).toBe(3);
  });

  it("the catalog folder's evals.json names conditions the flags did not", async () => {
    await writeTree(dir, {
      "library/evals.json": JSON.stringify({
        conditions: { installed: ["../rivals"], project_root: "../project" },
        evals: [],
      }),
    });
    try {
      const result = await catalog("ws-suite");
      expect(result.code, result.stderr).toBe(0);
      expect(firedBy(result.stdout)).toMatchObject({
        "Tell me what changed since v1.2": "changelog",
        "Please prepare the release": "release-notes",
      });
      const sideBySide = await catalog("ws-suite", "--conditions", "clean,real");
      expect(sideBySide.code).toBe(2);
      expect(sideBySide.stderr).toContain(
        "--conditions: catalog does not run the clean room and the real conditions side by side",
      );
    } finally {
      await writeTree(dir, { "library/evals.json": JSON.stringify({ evals: [] }) });
    }
  });

  it("bad input exits 2 naming the path, before any agent starts", async () => {
    const cases: [string[], string][] = [
      [
        ["--project-root", join(dir, "no-such-project")],
        `Project root not found: ${join(dir, "no-such-project")}`,
      ],
      [
        ["--installed", join(dir, "no-such-rivals")],
        `--installed: ${join(dir, "no-such-rivals")} does not exist`,
      ],
      [["--installed", project()], `--installed: ${project()} holds no skill`],
      [
        ["--installed", join(dir, "clash")],
        `--installed: ${join(dir, "clash", "formatter")} has the name formatter`,
      ],
      [["--context", join(dir, "missing.json")], `--context: ${join(dir, "missing.json")} cannot be read`],
      [["--context", join(dir, "context.json"), "--agent", "codex"], "--context is not available with codex"],
      [["--conditions", "clean,real", ...real()], "side by side"],
    ];
    for (const [flags, message] of cases) {
      for (const dry of [[], ["--dry-run"]]) {
        const bad = await catalog("ws-bad", ...flags, ...dry);
        expect(bad.code, [...flags, ...dry].join(" ")).toBe(2);
        expect(bad.stderr).toContain(message);
      }
    }
    const made = await readdir(ws("ws-bad")).catch(() => [] as string[]);
    expect(made.filter((n) => n.startsWith("catalog-"))).toEqual([]);
  });

  it("leaves the user's project byte for byte as it was: same entries, sizes, mtimes and inodes", async () => {
    expect(await listing(project())).toEqual(before);
  });
});
