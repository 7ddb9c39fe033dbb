import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CatalogResults } from "../../src/contracts/catalog.js";
import { skillgym } from "../cli/cli-process.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";
import { listing } from "../triggers/conditions-fixture.js";

let dir: string;
let cleanup: () => Promise<void>;
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
    // Claude Code lists every installed skill, names its working directory and sends the resumed turns: the sim reads all three.
    "library/sim-script.json": JSON.stringify({
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
    }),
    "rivals/changelog/SKILL.md": skillMd(
      "changelog",
      "Keeps CHANGELOG.md. Use when the user asks what changed.",
      "Edit it.",
    ),
    "project/package.json": '{ "name": "app" }\n',
    "context.json": JSON.stringify([
      { role: "user", content: "Can you look at the 2.0 release?" },
      { role: "assistant", content: "Yes. The release notes are already written." },
    ]),
  });
});
afterAll(() => cleanup?.());

describe("catalog under trigger conditions through the real claude-code (the sim behind it)", () => {
  it("a rival steals one query, the project makes another fire, the prior conversation quiets the third", async () => {
    const before = await listing(join(dir, "project"));
    const catalog = (workspace: string, ...extra: string[]) => {
      const result = skillgym([
        "catalog",
        join(dir, "library"),
        "--agent",
        "claude-code",
        "--simulate",
        "--runs",
        "1",
        "--workspace",
        join(dir, workspace),
        "--json",
        ...extra,
      ]);
      expect(result.code, result.stderr).toBe(0);
      return CatalogResults.parse(JSON.parse(result.stdout)).runs.map((r) => r.fired);
    };
    expect(catalog("ws-clean")).toEqual(["release-notes", "none", "release-notes"]);
    const real = catalog(
      "ws-real",
      "--installed",
      join(dir, "rivals"),
      "--project-root",
      join(dir, "project"),
      "--context",
      join(dir, "context.json"),
    );
    expect(real).toEqual(["changelog", "release-notes", "none"]);
    expect(await listing(join(dir, "project"))).toEqual(before);
  }, 240_000);
});
