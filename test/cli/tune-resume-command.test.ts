import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { mainOnDouble } from "../agent-double/index.js";
import { readJson, tempDir, writeTree } from "../e2e/helpers.js";
import { scenarioTuneFlags, skillMd } from "../tune/tune-helpers.js";

// Two skills tuned one after the other in one command (the double as the agent, skillgym sim as the judge): greeter's
// improver writes a better version, sender scores enough as it is. Then `skillgym tune --resume` of those finished
// tunes, which runs nothing more: what it applies, prints and exits with.

const GREETER = skillMd(
  "greeter",
  "Writes greeting cards. Use when asked for a greeting card.",
  "Write card.txt.",
);
const BETTER = skillMd(
  "greeter",
  "Writes greeting cards. Use when asked for a greeting card.",
  "BETTER-STEPS: read the name, then write card.txt.",
);
const SENDER = skillMd(
  "sender",
  "Sends greeting cards. Use when asked to send a greeting card.",
  "Send card.txt.",
);

let dir: string;
let cleanup: () => Promise<void>;
const first = {
  code: 0,
  stdout: "",
  stderr: "",
  statuses: [] as string[],
  sigintListeners: { before: 0, after: 0 },
};
let greeterTune: string;
let senderTune: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, { "greeter/SKILL.md": GREETER, "sender/SKILL.md": SENDER });
  await writeFile(
    join(dir, "sim-script.json"),
    JSON.stringify({
      rules: [
        {
          match: "tune iteration 1: improve the Agent Skill in \\./greeter/",
          skill: "none",
          without_skill: [
            { read: "greeter/SKILL.md" },
            { write: { path: "greeter/SKILL.md", content: BETTER } },
            { write: { path: "iteration-1-changes.md", content: "- BETTER-STEPS\n" } },
          ],
        },
        { match: "greeting card", steps: [{ write: { path: "card.txt", content: "Hello, Ada!\n" } }] },
      ],
      judge: {
        rubric: {
          default: 60,
          when: [
            { match: "BETTER-STEPS", score: 90 },
            { match: "name: sender", score: 90 },
          ],
        },
      },
    }),
  );
});

// The two-skill tune, made by the first test that needs it: code run in beforeAll counts as no test's, and a mutant
// of the command it reaches would never be tried.
let made: Promise<void> | undefined;
function firstRun(): Promise<void> {
  made ??= (async () => {
    const io = {
      ...captureIo(),
      // The live status a terminal would show, as drawn.
      status: (render: (() => string) | undefined) => {
        first.statuses.push(render ? render() : "");
      },
    };
    first.sigintListeners.before = process.listenerCount("SIGINT");
    first.code = await mainOnDouble(
      [
        "tune",
        `${join(dir, "greeter")},${join(dir, "sender")}`,
        "--scenario",
        "Please make a greeting card for Ada",
        "-y",
        "--preset",
        "thorough",
        "--max-iterations",
        "2",
        "--runs",
        "1",
        "--model",
        "model-x",
        "--max-cost",
        "5",
        "--simulate",
        "--sim-script",
        join(dir, "sim-script.json"),
        "--workspace",
        join(dir, "ws"),
        "--json",
      ],
      io,
    );
    first.sigintListeners.after = process.listenerCount("SIGINT");
    first.stdout = io.stdout();
    first.stderr = io.stderr();
    const out = JSON.parse(first.stdout);
    greeterTune = out.tunes[0].tune_dir;
    senderTune = out.tunes[1].tune_dir;
  })();
  return made;
}
afterAll(() => cleanup());

async function tune(...args: string[]) {
  const io = captureIo();
  const code = await mainOnDouble(["tune", ...args], io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

const statePath = (tuneDir: string) => join(tuneDir, "iteration-state.json");

// A copy of greeter's finished tune, its iteration-state.json changed by `edit`.
async function editedCopy(name: string, edit: (state: Record<string, unknown>) => void): Promise<string> {
  await firstRun();
  const copy = join(dir, name);
  await cp(greeterTune, copy, { recursive: true });
  const state = await readJson(statePath(copy));
  edit(state);
  await writeFile(statePath(copy), JSON.stringify(state));
  return copy;
}

type Iterations = { evaluation: unknown }[];

describe("skillgym tune of several skills", () => {
  it("prints one JSON object holding each tune, made with the flags given, spending shown against --max-cost", async () => {
    await firstRun();
    expect(first.code, first.stderr).toBe(0);
    const out = JSON.parse(first.stdout);
    expect(out.tunes).toHaveLength(2);
    expect(out.tunes[0]).toMatchObject({ best_version: "v1", best_score: 95, applied: null });
    expect(out.tunes[1]).toMatchObject({ best_version: "v0", best_score: 95, applied: null });
    // The preset, --max-iterations, --model and --workspace reach the tune.
    expect(first.stderr).toContain(`tuning greeter in ${greeterTune}: up to 2 iterations, threshold 90\n`);
    expect(greeterTune.startsWith(join(dir, "ws", "tune-"))).toBe(true);
    expect(senderTune.startsWith(join(dir, "ws", "tune-"))).toBe(true);
    expect(await readJson(statePath(greeterTune))).toMatchObject({ preset: "thorough", model: "model-x" });
    // What is spent, against --max-cost, while runs are left.
    // Its Ctrl-C handler goes with the command.
    expect(first.sigintListeners.after).toBe(first.sigintListeners.before);
    expect(first.statuses).toContainEqual(expect.stringMatching(/ · \$0\.00 of \$5\.00 \(--max-cost\)$/));
  });
});

describe("skillgym tune of a chain", () => {
  it("with --apply prints no diff when neither skill changed", async () => {
    const result = await tune(
      ...scenarioTuneFlags(
        `${join(dir, "greeter")},${join(dir, "sender")}`,
        join(dir, "chain-ws"),
        "--chain",
      ),
      ...["--simulate", "--sim-script", join(dir, "sim-script.json"), "--apply"],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("\ntuning greeter → sender in ");
    expect(result.stdout).toMatch(/^SIMULATED: [^\n]*\ntune \S+: completed: /);
    expect(result.stdout).toMatch(/\nnothing to apply\n$/);
  });
});

describe("skillgym tune --resume of a finished tune", () => {
  it("applies nothing and says so when the tune did not finish", async () => {
    const failed = await editedCopy("failed", (state) => {
      state.status = "failed";
    });
    const result = await tune("--resume", failed, "--apply");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain("applied to");
    expect(result.stdout).toMatch(/\nnot applied: the tune did not finish\n$/);
    expect(await readFile(join(dir, "greeter", "SKILL.md"), "utf8")).toBe(GREETER);
    const json = await tune("--resume", failed, "--apply", "--json");
    expect(JSON.parse(json.stdout)).toMatchObject({ status: "failed", applied: null });
  });

  it("exits 3 when the error limit came before anything was measured", async () => {
    const reason = (termination_reason: string, evaluated: boolean[]) => (state: Record<string, unknown>) => {
      state.termination_reason = termination_reason;
      (state.iterations as Iterations).forEach((it, i) => {
        if (!evaluated[i]) it.evaluation = null;
      });
    };
    const nothing = await editedCopy("nothing-measured", reason("error_limit_reached", [false, false]));
    expect((await tune("--resume", nothing)).code).toBe(3);
    // Something measured, or another reason to stop: the tune ran.
    const some = await editedCopy("v0-measured", reason("error_limit_reached", [true, false]));
    expect((await tune("--resume", some)).code).toBe(0);
    const all = await editedCopy("all-measured", reason("error_limit_reached", [true, true]));
    expect((await tune("--resume", all)).code).toBe(0);
    const other = await editedCopy("other-reason", reason("max_iterations_reached", [false, false]));
    expect((await tune("--resume", other)).code).toBe(0);
  });

  it("with --apply prints the diff, then the summary, and writes the best version over the skill", async () => {
    await firstRun();
    const result = await tune("--resume", greeterTune, "--apply");
    expect(result.code, result.stderr).toBe(0);
    const summary = result.stdout.indexOf(`tune ${greeterTune}: completed`);
    expect(summary).toBeGreaterThan(0);
    const diff = result.stdout.slice(0, summary);
    expect(diff).toMatch(/^--- a\/greeter\/SKILL\.md\n\+\+\+ b\/greeter\/SKILL\.md\n/);
    expect(diff).toContain("\n-Write card.txt.\n+BETTER-STEPS: read the name, then write card.txt.\n");
    expect(result.stdout).toMatch(new RegExp(`\\napplied to: ${join(dir, "greeter")}\\n$`));
    expect(await readFile(join(dir, "greeter", "SKILL.md"), "utf8")).toBe(BETTER);
  });

  it("with --apply --json prints only the JSON, the diff in it", async () => {
    // The skill as it was before the tune (the test before applied the best version over it).
    await writeFile(join(dir, "greeter", "SKILL.md"), GREETER);
    await firstRun();
    const result = await tune("--resume", greeterTune, "--apply", "--json");
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out).toMatchObject({ best_version: "v1", applied: ["greeter"] });
    expect(out.diff).toContain("+BETTER-STEPS: read the name, then write card.txt.\n");
  });
});
