import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;

async function cli(...args: string[]) {
  const result = await skillgymHereOnDouble(args);
  return { code: result.code, out: result.stdout, err: result.stderr };
}

const skill = () => join(dir, "haiku");
const common = () => [
  skill(),
  "--simulate",
  "--workspace",
  join(dir, "ws"),
  "--runs",
  "1",
  "--trigger-runs",
  "2",
];

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd(
      "haiku",
      "Writes a haiku. Use when the user asks for a haiku.",
      "Write a haiku.",
    ),
    "haiku/evals/evals.json": JSON.stringify({
      evals: [
        {
          id: 1,
          prompt: "write a haiku into poem.txt",
          expectations: [],
          checks: [{ type: "file_exists", path: "poem.txt" }],
        },
      ],
    }),
    "haiku/evals/triggers.json": JSON.stringify([
      { query: "a haiku about the sea please", should_trigger: true },
      { query: "fix my failing build", should_trigger: false },
    ]),
    "haiku/evals/sim-script.json": JSON.stringify({
      rules: [
        {
          match: "haiku into poem",
          skill: "haiku",
          steps: [{ write: { path: "poem.txt", content: "sea\n" } }],
        },
        { match: "about the sea", skill: "~haiku-sg-" },
      ],
    }),
  });
});
afterEach(() => cleanup());

describe("--dry-run with the result store", () => {
  it("before any run serves nothing; after one, serves every run and the rest costs $0; a new description re-runs the triggers and with_skill", async () => {
    const first = await cli("run", ...common(), "--dry-run");
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain("eval runs: 0 of 2 served by the store, 2 to run");
    expect(first.out).toContain("trigger runs: 0 of 4 served by the store, at most 4 to run");

    const ran = await cli("run", ...common());
    expect(ran.code, ran.err).toBe(0);

    const again = await cli("run", ...common(), "--dry-run");
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain("eval runs: 2 of 2 served by the store, 0 to run");
    // The triggering query settled after its first run (1 of 2 already reaches 0.5), the other after two agreeing.
    expect(again.out).toContain(
      "trigger runs: 3 of 4 served by the store, at most 0 to run, 1 not needed (settled)",
    );
    expect(again.out).toContain("all runs would be served by the store: the rest costs $0.00");
    expect(again.out).toContain("nothing was started");

    // The eval and triggers commands say the same of their own runs.
    const evalOnly = await cli(
      "eval",
      ...common().filter((a, i, all) => a !== "--trigger-runs" && all[i - 1] !== "--trigger-runs"),
      "--dry-run",
    );
    expect(evalOnly.code, evalOnly.err).toBe(0);
    expect(evalOnly.out).toContain("eval runs: 2 of 2 served by the store, 0 to run");
    const triggersOnly = await cli(
      "triggers",
      skill(),
      "--simulate",
      "--workspace",
      join(dir, "ws"),
      "--runs",
      "2",
      "--dry-run",
    );
    expect(triggersOnly.code, triggersOnly.err).toBe(0);
    expect(triggersOnly.out).toContain(
      "trigger runs: 3 of 4 served by the store, at most 0 to run, 1 not needed",
    );

    await writeFile(
      join(skill(), "SKILL.md"),
      skillMd("haiku", "Writes haiku poems. Use when someone wants a haiku.", "Write a haiku."),
    );
    const changed = await cli("run", ...common(), "--dry-run");
    expect(changed.code, changed.err).toBe(0);
    // without_skill does not see the skill: served; with_skill and every trigger run must run again.
    expect(changed.out).toContain("eval runs: 1 of 2 served by the store, 1 to run");
    expect(changed.out).toContain("trigger runs: 0 of 4 served by the store, at most 4 to run");
    expect(changed.out).not.toContain("all runs would be served");
    const fresh = await cli("run", ...common(), "--dry-run", "--fresh");
    expect(fresh.out).toContain("result store: not read");
  });
});
