import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { onDouble } from "../agent-double/index.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

const bin = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "bin", "skillgym.js");
let dir: string;
let cleanup: () => Promise<void>;

function cli(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...onDouble(args)], {
    encoding: "utf8",
    timeout: 110_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
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
    const first = cli("run", ...common(), "--dry-run");
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain("eval runs: 0 of 2 served by the store, 2 to run");
    expect(first.out).toContain("trigger runs: 0 of 4 served by the store, at most 4 to run");

    const ran = cli("run", ...common());
    expect(ran.code, ran.err).toBe(0);

    const again = cli("run", ...common(), "--dry-run");
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain("eval runs: 2 of 2 served by the store, 0 to run");
    // The triggering query settled after its first run (1 of 2 already reaches 0.5), the other after two agreeing.
    expect(again.out).toContain(
      "trigger runs: 3 of 4 served by the store, at most 0 to run, 1 not needed (settled)",
    );
    expect(again.out).toContain("all runs would be served by the store: the rest costs $0.00");
    expect(again.out).toContain("nothing was started");

    // The eval and triggers commands say the same of their own runs.
    const evalOnly = cli(
      "eval",
      ...common().filter((a, i, all) => a !== "--trigger-runs" && all[i - 1] !== "--trigger-runs"),
      "--dry-run",
    );
    expect(evalOnly.code, evalOnly.err).toBe(0);
    expect(evalOnly.out).toContain("eval runs: 2 of 2 served by the store, 0 to run");
    const triggersOnly = cli(
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
    const changed = cli("run", ...common(), "--dry-run");
    expect(changed.code, changed.err).toBe(0);
    // without_skill does not see the skill: served; with_skill and every trigger run must run again.
    expect(changed.out).toContain("eval runs: 1 of 2 served by the store, 1 to run");
    expect(changed.out).toContain("trigger runs: 0 of 4 served by the store, at most 4 to run");
    expect(changed.out).not.toContain("all runs would be served");
    const fresh = cli("run", ...common(), "--dry-run", "--fresh");
    expect(fresh.out).toContain("result store: not read");
  });
});
