import { mkdir, readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillgymOnDouble } from "../agent-double/index.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "card/SKILL.md": skillMd(
      "card",
      "Writes card.txt. Use when the user asks for a card.",
      "Write card.txt.",
    ),
    "card/evals/evals.json": JSON.stringify({
      evals: [{ id: 1, prompt: "Make a card", checks: [{ type: "file_exists", path: "card.txt" }] }],
    }),
    "card/evals/triggers.json": JSON.stringify([
      { query: "make me a card", should_trigger: true },
      { query: "fix the parser test", should_trigger: false },
    ]),
  });
});
afterEach(() => cleanup());

// An environment with no way for Claude Code to log in: no key, and a home with nothing in it.
async function noCredentials(): Promise<NodeJS.ProcessEnv> {
  const home = join(dir, "empty-home");
  await mkdir(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(ANTHROPIC_|CLAUDE_|OPENAI_)/.test(key)) env[key] = value;
  return { ...env, HOME: home };
}

describe("run takes eval's options", () => {
  const run = (...extra: string[]) => [
    "run",
    join(dir, "card"),
    "--simulate",
    "--runs",
    "1",
    "--baseline",
    "none",
    "--trigger-runs",
    "1",
    "--workspace",
    join(dir, "ws"),
    ...extra,
  ];

  it("--resume continues the latest iteration: finished eval and trigger runs are not run again", async () => {
    const first = await skillgymHereOnDouble(run());
    expect(first.code).toBe(0);
    const trigger = join(dir, "ws", "iteration-1", "triggers", "query-1", "run-1", "trigger.json");
    const timing = join(dir, "ws", "iteration-1", "eval-1", "with_skill", "run-1", "timing.json");
    const before = [(await stat(trigger)).mtimeMs, (await stat(timing)).mtimeMs];

    const again = await skillgymHereOnDouble(run("--resume"));
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/resuming .*iteration-1: 1 runs/);
    expect(again.stderr).not.toMatch(/\[1\/1\] eval-1/);
    expect(again.stderr).not.toMatch(/\[\d\/2\] query/);
    expect(again.stderr).toMatch(/resuming .*iteration-1[/\\]triggers: 2 runs/);
    // Beside the one iteration only the result store (.skillgym-cache) and history.json, whose one row the resume
    // rewrote rather than added to.
    expect((await readdir(join(dir, "ws"))).filter((n) => n !== ".skillgym-cache").sort()).toEqual([
      "history.json",
      "iteration-1",
    ]);
    const history = JSON.parse(await readFile(join(dir, "ws", "history.json"), "utf8"));
    expect(history.iterations.map((r: { version: string }) => r.version)).toEqual(["iteration-1"]);
    expect([(await stat(trigger)).mtimeMs, (await stat(timing)).mtimeMs]).toEqual(before);
    expect(again.stdout).toContain("triggers: ");

    // Without --resume a finished iteration is not continued.
    expect((await skillgymHereOnDouble(run())).code).toBe(0);
    expect((await readdir(join(dir, "ws"))).filter((n) => n.startsWith("iteration-")).sort()).toEqual([
      "iteration-1",
      "iteration-2",
    ]);
  });

  it("--keep-workspaces leaves each run's workspace in the temp folder; without it none is left", async () => {
    const tmp = join(dir, "tmp");
    await mkdir(tmp);
    const env = { ...process.env, TMPDIR: tmp };
    expect(skillgymOnDouble(run("--keep-workspaces"), env).code).toBe(0);
    const kept = (await readdir(tmp)).filter((n) => n.startsWith("skillgym-run."));
    expect(kept).toHaveLength(1);
    expect(await readdir(join(tmp, kept[0] ?? ""))).toContain(".skillgym-keep");
    // The run's own workspace is kept too, as the agent saw it: the skill installed in it.
    const files = (await readdir(join(tmp, kept[0] ?? ""), { recursive: true })).map((f) =>
      f.replaceAll("\\", "/"),
    );
    expect(files.filter((f) => /\/work\/\.claude\/skills\/[^/]+\/SKILL\.md$/.test(f))).toHaveLength(1);

    const plain = join(dir, "tmp-plain");
    await mkdir(plain);
    expect(skillgymOnDouble(run(), { ...process.env, TMPDIR: plain }).code).toBe(0);
    expect((await readdir(plain)).filter((n) => n.startsWith("skillgym-run."))).toEqual([]);
  });
});

describe("run --dry-run", () => {
  const dry = (...extra: string[]) => [
    "run",
    "examples/csv-summary",
    "--dry-run",
    "--workspace",
    join(dir, "ws"),
    ...extra,
  ];

  it("estimates the wall time from the runs and the concurrency, and starts nothing", async () => {
    const result = await skillgymHereOnDouble(dry("--simulate", "--concurrency", "2"));
    expect(result.code).toBe(0);
    // 18 eval runs in 9 waves of 4 s, 12 judge calls in 6 waves of 0.5 s, 60 trigger runs in 30 waves of 3 s: 129 s.
    expect(result.stdout).toContain(
      "estimated wall time: about 2m09s at --concurrency 2 (4s per eval run, 3s per trigger run: defaults)",
    );
    expect(result.stdout).toContain("credentials: none needed (simulated)");
    expect(result.stdout).toContain("nothing was started");
    await expect(stat(join(dir, "ws"))).rejects.toThrow();
  });

  it("uses the durations measured by an earlier iteration in the workspace", async () => {
    const ws = join(dir, "ws");
    const measure = [
      "--simulate",
      "--runs",
      "1",
      "--baseline",
      "none",
      "--trigger-runs",
      "1",
      "--workspace",
      ws,
    ];
    expect((await skillgymHereOnDouble(["run", join(dir, "card"), ...measure])).code).toBe(0);
    const result = await skillgymHereOnDouble(["run", join(dir, "card"), "--dry-run", ...measure]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /estimated wall time: about \d+s at --concurrency 4 .*: measured in this workspace\)/,
    );
  });

  it("without credentials in real mode, says so and exits 3 without starting a run", async () => {
    const result = skillgymOnDouble(dry(), await noCredentials());
    expect(result.code).toBe(3);
    expect(result.stdout).toContain("estimated wall time: about");
    expect(result.stdout).not.toContain("nothing was started");
    expect(result.stderr).toContain("no credentials for Claude Code were found");
    await expect(stat(join(dir, "ws"))).rejects.toThrow();
  });

  it("with a key in real mode, names where the login comes from", async () => {
    const env = { ...(await noCredentials()), ANTHROPIC_API_KEY: "sk-test-not-a-key" };
    const result = skillgymOnDouble(dry(), env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "credentials: Claude Code logs in with ANTHROPIC_API_KEY; judge (claude-code): ready",
    );
    expect(result.stdout).toContain("nothing was started");
    await expect(stat(join(dir, "ws"))).rejects.toThrow();
  });
});

describe("draft-evals counts with --count-evals", () => {
  it("drafts that many evals; the old --evals <n> still works and says it is deprecated", async () => {
    const counted = await skillgymHereOnDouble([
      "draft-evals",
      join(dir, "card"),
      "--simulate",
      "--force",
      "--count-evals",
      "2",
    ]);
    expect(counted.code).toBe(0);
    expect(counted.stdout).toMatch(/wrote .*evals\.json: 2 evals/);
    expect(counted.stderr).not.toContain("deprecated");

    const old = await skillgymHereOnDouble([
      "draft-evals",
      join(dir, "card"),
      "--simulate",
      "--force",
      "--evals",
      "1",
    ]);
    expect(old.code).toBe(0);
    expect(old.stdout).toMatch(/wrote .*evals\.json: 1 evals/);
    expect(old.stderr).toContain("--evals <n> is deprecated; use --count-evals <n>");

    const help = await skillgymHereOnDouble(["draft-evals", "--help"]);
    expect(help.stdout).toContain("--count-evals <n>");
    expect(help.stdout).not.toContain("--evals <n>");
  });
});

describe("a bad flag value", () => {
  for (const args of [
    ["eval", "x", "--runs", "abc"],
    ["run", "x", "--concurrency", "0"],
    ["eval", "x", "--no-such-flag"],
  ])
    it(`prints its one-line error and where the help is, not the help: ${args.join(" ")}`, async () => {
      const result = await skillgymHereOnDouble(args);
      expect(result.code).toBe(2);
      const lines = result.stderr.trim().split("\n");
      expect(lines.length).toBeLessThanOrEqual(3);
      expect(lines[0]).toMatch(/^error: /);
      expect(result.stderr).toContain(`(see \`skillgym ${args[0]} --help\`)`);
      expect(result.stderr).not.toContain("Usage:");
    });
});
