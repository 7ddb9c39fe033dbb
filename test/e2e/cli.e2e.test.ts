import { spawn, spawnSync } from "node:child_process";
import { access, chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { unzipSync } from "fflate";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { onDouble } from "../agent-double/index.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { agentProcesses, expectNoAgentProcesses } from "./agent-processes.js";
import { readJson, skillMd, tempDir, writeTree } from "./helpers.js";
import { smallExample } from "./small-example.js";

const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "bin", "skillgym.js");

// What a command does: the built CLI in this process, from the repository's root as vitest runs.
const skillgym = skillgymHereOnDouble;

// A process of its own where its environment is what the test sets.
function skillgymProcess(args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, [bin, ...onDouble(args)], {
    cwd: root,
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "card/SKILL.md": skillMd(
      "card",
      "Writes a card file. Use when the user asks for a card.",
      "Write card.txt.",
    ),
    "card/evals/evals.json": JSON.stringify({
      evals: [{ id: 1, prompt: "Make a card", expectations: ["a card"] }],
    }),
  });
});
afterEach(() => cleanup());

describe("skillgym CLI", () => {
  it("validates the examples, as text and as JSON", async () => {
    const text = await skillgym(["validate", "examples/release-notes"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("valid: examples/release-notes");
    const json = await skillgym(["validate", "examples/csv-summary", "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: true, errors: [] });
  });

  it("warns about a skill whose name does not match its folder, naming the file and line", async () => {
    await writeTree(dir, {
      "card/SKILL.md": skillMd("cards", "Writes a card. Use when asked for a card.", "x"),
    });
    const result = await skillgym(["validate", join(dir, "card"), "--json"]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.valid).toBe(true);
    expect(report.warnings).toContainEqual(
      expect.objectContaining({
        code: "name-mismatch",
        file: join(dir, "card", "SKILL.md"),
        location: "line 2",
        hint: expect.stringContaining('rename the folder to "cards"'),
      }),
    );
  });

  it("stops bad evals.json before any agent starts, with file and JSON path", async () => {
    await writeTree(dir, {
      "card/evals/evals.json": JSON.stringify({ evals: [{ id: 1, expectations: [] }] }),
    });
    const result = await skillgym(["eval", join(dir, "card"), "--simulate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(dir, "card", "evals", "evals.json"));
    expect(result.stderr).toContain("evals[0].prompt");
    expect(await exists(join(dir, "card-workspace"))).toBe(false);
  });

  it("says so when no evals exist instead of inventing any", async () => {
    await writeTree(dir, { "lone/SKILL.md": skillMd("lone", "Does a thing. Use when asked.", "x") });
    const result = await skillgym(["eval", join(dir, "lone"), "--simulate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no evals.json found for skill "lone"');
  });

  it("exits 3 when the agent binary is missing", async () => {
    const result = await skillgym(["eval", join(dir, "card"), "--agent-bin", join(dir, "nope", "claude")]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("does not exist");
  });

  it.skipIf(process.platform === "darwin")("exits 3 without credentials, before any run", async () => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: join(dir, "empty-home") };
    const result = skillgymProcess(["eval", join(dir, "card")], env);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("no credentials");
    expect(await exists(join(dir, "card-workspace", "iteration-1", "eval-1", "with_skill"))).toBe(false);
  });

  it("exits 2 when the workspace cannot be written", async () => {
    await writeFile(join(dir, "a-file"), "x");
    const result = await skillgym([
      "eval",
      join(dir, "card"),
      "--simulate",
      "--workspace",
      join(dir, "a-file", "ws"),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("cannot write to the workspace");
  });

  it.skipIf(process.platform === "win32")(
    "records a crashing agent as an error per run and exits 3 when no run could start",
    async () => {
      const fake = join(dir, "crashing-claude");
      await writeFile(fake, "#!/bin/sh\necho 'segfault-like failure' >&2\nexit 139\n");
      await chmod(fake, 0o755);
      const result = await skillgym([
        "eval",
        join(dir, "card"),
        "--simulate",
        "--agent-bin",
        fake,
        "--baseline",
        "none",
        "--json",
      ]);
      expect(result.code).toBe(3);
      const timing = await readJson(
        join(dir, "card-workspace", "iteration-1", "eval-1", "with_skill", "run-1", "timing.json"),
      );
      expect(timing.outcome).toBe("crash");
      expect(String(timing.error)).toContain("segfault-like failure");
    },
  );

  it("runs an example offline with --simulate and marks it simulated", async () => {
    const result = await skillgym([
      "eval",
      "examples/csv-summary",
      "--simulate",
      "--workspace",
      join(dir, "ws"),
      "--json",
    ]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ simulated: true, runs: 6, succeeded: 6, errors: 0, cost_usd: 0 });
    const summaryMd = await readFile(
      join(dir, "ws", "iteration-1", "eval-1", "with_skill", "run-1", "outputs", "summary.md"),
      "utf8",
    );
    expect(summaryMd).toMatch(/^Rows: 12$/m);
    expect(result.stderr).toContain("SIMULATED");
  });

  it("prints the JSON Schema of a format and refuses an unknown one", async () => {
    const ok = await skillgym(["schema", "grading"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).title).toBe("skillgym grading");
    const bad = await skillgym(["schema", "gradings"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown format");
  });

  it("packages a skill into <name>.skill without its evals", async () => {
    const result = await skillgym(["package", join(dir, "card"), "--out", join(dir, "out")]);
    expect(result.code).toBe(0);
    expect(await readdir(join(dir, "out"))).toEqual(["card.skill"]);
    const entries = Object.keys(unzipSync(await readFile(join(dir, "out", "card.skill"))));
    expect(entries).toEqual(["card/SKILL.md"]);
  });

  it("answers bad flags with usage errors (exit 2)", async () => {
    const result = await skillgym(["eval", "examples/csv-summary", "--runs", "zero"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--runs");
  });
});

describe("skillgym triggers", () => {
  it("runs an example's trigger queries offline and prints trigger-results.json", async () => {
    // Four of the example's 20 queries: one run each, and a progress line for each.
    const result = await skillgym([
      "triggers",
      await smallExample(dir, "csv-summary", [0, 7, 10, 16]),
      "--simulate",
      "--runs",
      "1",
      "--workspace",
      join(dir, "tw"),
      "--json",
    ]);
    expect(result.code).toBe(0);
    const results = JSON.parse(result.stdout);
    expect(results.skill_name).toBe("csv-summary");
    expect(results.results).toHaveLength(4);
    expect(results.simulated).toBe(true);
    expect(await exists(join(dir, "tw", "iteration-1", "triggers", "trigger-results.json"))).toBe(true);
    expect(result.stderr).toContain("[4/4]");
  });

  it("refuses a description over 1024 characters before any run", async () => {
    const result = await skillgym([
      "triggers",
      "examples/csv-summary",
      "--simulate",
      "--description",
      "x".repeat(1025),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("1025 characters");
  });
});

describe("nasty but valid input", () => {
  it("validates a skill with a BOM, CRLF, a block-scalar description, non-ASCII text and Claude Code keys", async () => {
    const text =
      "\uFEFF---\r\nname: cafe-notes\r\n" +
      "description: >-\r\n  Écrit des notes de réunion — writes meeting notes.\r\n  Use when the user asks for meeting notes.\r\n" +
      "user-invocable: true\r\nargument-hint: <topic>\r\n---\r\n\r\n# Notes 📝\r\n\r\nWrite notes.md.\r\n";
    await writeTree(dir, { "cafe-notes/SKILL.md": text });
    const result = await skillgym(["validate", join(dir, "cafe-notes"), "--json"]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.valid).toBe(true);
    expect(report.warnings.map((w: { code: string }) => w.code)).toEqual(
      expect.arrayContaining(["claude-code-key", "no-evals"]),
    );
  });
});

describe.skipIf(process.platform === "win32")("Ctrl-C", () => {
  it("kills the running agent, keeps the finished run and exits 130", async () => {
    await writeTree(dir, {
      "card/evals/evals.json": JSON.stringify({
        evals: [
          {
            id: 1,
            prompt: "Make a quick card",
            expectations: [],
            checks: [{ type: "file_exists", path: "card.txt" }],
          },
          {
            id: 2,
            prompt: "Make a slow card",
            expectations: [],
            checks: [{ type: "file_exists", path: "card.txt" }],
          },
        ],
      }),
      "card/evals/sim-script.json": JSON.stringify({
        rules: [
          { match: "slow", fault: { hang: true } },
          { match: "quick", steps: [{ write: { path: "card.txt", content: "card" } }] },
        ],
      }),
    });
    // The runs' temp folders under the test's own TMPDIR, so their agents can be told from any other.
    const tmp = join(dir, "tmp");
    await mkdir(tmp);
    const child = spawn(
      process.execPath,
      [
        bin,
        ...onDouble(["eval", join(dir, "card"), "--simulate", "--baseline", "none", "--concurrency", "2"]),
      ],
      {
        cwd: root,
        env: { ...process.env, TMPDIR: tmp },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8");
    const firstDone = new Promise<void>((resolve) => {
      child.stderr.on("data", (chunk: string) => {
        stderr += chunk;
        if (stderr.includes("[1/2]")) resolve();
      });
    });
    await firstDone;
    // The slow eval's agent is waiting on the model: the check below can see an agent when there is one (Linux).
    const linux = process.platform === "linux";
    if (linux) expect(agentProcesses(tmp).length).toBeGreaterThanOrEqual(1);
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(code).toBe(130);
    const iteration = join(dir, "card-workspace", "iteration-1");
    expect((await readJson(join(iteration, "eval-1", "with_skill", "run-1", "timing.json"))).outcome).toBe(
      "success",
    );
    expect((await readJson(join(iteration, "eval-2", "with_skill", "run-1", "timing.json"))).outcome).toBe(
      "cancelled",
    );
    expect((await readJson(join(iteration, "iteration.json"))).status).toBe("interrupted");
    if (linux) await expectNoAgentProcesses(tmp);
  }, 60_000);
});
