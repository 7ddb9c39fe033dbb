import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { hashSkill } from "../../src/skill/index.js";
import { fastRetry, readJson, runWithSim, skillMd, tempDir, writeTree } from "./helpers.js";

const base = { runs: 1, baseline: "without_skill", concurrency: 2, timeoutSeconds: 60, retry: fastRetry };

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "greeter/SKILL.md": skillMd(
      "greeter",
      "Writes a greeting card file. Use when the user asks for a greeting card.",
      "NEW-VERSION: write card.txt with a warm greeting.",
    ),
    "greeter/evals/evals.json": JSON.stringify({
      evals: [
        {
          id: 1,
          prompt: "Please make a greeting card for Ada",
          expectations: ["card.txt greets Ada"],
          files: ["evals/files/guest.txt"],
        },
      ],
    }),
    "greeter/evals/files/guest.txt": "Ada\n",
  });
});
afterEach(() => cleanup());

const writesCard = SimScript.parse({
  rules: [
    {
      match: "greeting card",
      steps: [{ read: "evals/files/guest.txt" }, { write: { path: "card.txt", content: "Hello, Ada!\n" } }],
      without_skill: [{ text: "Here is a greeting: Hello Ada." }],
    },
  ],
});

describe("eval with the Claude Code test double against skillgym sim", () => {
  it("records a with_skill run whose skill writes a file, and a without_skill baseline without the skill", async () => {
    const skillHashBefore = await hashSkill(join(dir, "greeter"));
    const { summary } = await runWithSim(writesCard, { ...base, skillPath: join(dir, "greeter") });
    expect(summary.records.map((r) => r.outcome)).toEqual(["success", "success"]);
    expect(summary.iterationDir).toBe(join(dir, "greeter-workspace", "iteration-1"));

    const withRun = join(summary.iterationDir, "eval-1", "with_skill", "run-1");
    expect(await readFile(join(withRun, "outputs", "card.txt"), "utf8")).toBe("Hello, Ada!\n");
    const metrics = await readJson(join(withRun, "outputs", "metrics.json"));
    expect(metrics.tool_calls).toEqual({ Skill: 1, Read: 1, Write: 1 });
    expect(metrics.files_created).toEqual(["card.txt"]);
    const timing = await readJson(join(withRun, "timing.json"));
    expect(timing).toMatchObject({ outcome: "success", attempts: 1, simulated: true, model: "skillgym-sim" });
    expect(timing.total_tokens as number).toBeGreaterThan(0);
    expect(await readFile(join(withRun, "transcript.md"), "utf8")).toContain("**Tool call: Write**");
    const stream = await readFile(join(withRun, "transcript.jsonl"), "utf8");
    expect(stream).toContain("NEW-VERSION");

    const withoutRun = join(summary.iterationDir, "eval-1", "without_skill", "run-1");
    expect(await readdir(join(withoutRun, "outputs"))).toEqual(["metrics.json"]);
    const init = JSON.parse((await readFile(join(withoutRun, "transcript.jsonl"), "utf8")).split("\n")[0]!);
    expect(init.skills).not.toContain("greeter");
    expect(init.cwd).not.toContain(dir);

    expect(await readJson(join(summary.iterationDir, "eval-1", "eval_metadata.json"))).toEqual({
      eval_id: 1,
      eval_name: "eval-1",
      prompt: "Please make a greeting card for Ada",
      assertions: ["card.txt greets Ada"],
    });
    expect((await readJson(join(summary.iterationDir, "iteration.json"))).status).toBe("complete");
    expect(await hashSkill(join(dir, "greeter"))).toBe(skillHashBefore);
  });

  it("runs an earlier version of the skill as old_skill under the same name", async () => {
    await writeTree(dir, {
      "greeter-v1/SKILL.md": skillMd(
        "greeter-v1",
        "Writes a greeting card file. Use when the user asks for a greeting card.",
        "OLD-VERSION: write card.txt.",
      ),
    });
    const { summary } = await runWithSim(writesCard, {
      ...base,
      skillPath: join(dir, "greeter"),
      baseline: join(dir, "greeter-v1"),
    });
    const old = join(summary.iterationDir, "eval-1", "old_skill", "run-1");
    const stream = await readFile(join(old, "transcript.jsonl"), "utf8");
    expect(stream).toContain("OLD-VERSION");
    expect(stream).not.toContain("NEW-VERSION");
    expect(stream).toContain('"skill":"greeter"');
    expect(await readFile(join(old, "outputs", "card.txt"), "utf8")).toBe("Hello, Ada!\n");
  });

  it("records a hanging agent as a timeout and kills it", async () => {
    const hang = SimScript.parse({ rules: [{ match: "greeting", fault: { hang: true } }] });
    const started = Date.now();
    const { summary } = await runWithSim(hang, {
      ...base,
      baseline: "none",
      timeoutSeconds: 3,
      skillPath: join(dir, "greeter"),
    });
    expect(Date.now() - started).toBeLessThan(20_000);
    const [record] = summary.records;
    expect(record?.outcome).toBe("timeout");
    const timing = await readJson(join(summary.iterationDir, "eval-1", "with_skill", "run-1", "timing.json"));
    expect(timing).toMatchObject({ outcome: "timeout" });
    expect(String(timing.error)).toMatch(/timed out/);
  });

  it("retries a run after a 529 overload and keeps only the successful attempt", async () => {
    const overloadOnce = SimScript.parse({
      rules: [
        {
          match: "greeting",
          fault: { status: 529, sessions: 1 },
          steps: [{ write: { path: "card.txt", content: "hi" } }],
        },
      ],
    });
    const { summary, sim } = await runWithSim(overloadOnce, {
      ...base,
      baseline: "none",
      skillPath: join(dir, "greeter"),
    });
    expect(summary.records[0]).toMatchObject({ outcome: "success", attempts: 2 });
    expect(sim.log.some((e) => e.action === "fault 529")).toBe(true);
    const run = join(summary.iterationDir, "eval-1", "with_skill", "run-1");
    expect(await readJson(join(run, "timing.json"))).toMatchObject({ outcome: "success", attempts: 2 });
    expect(await readFile(join(run, "outputs", "card.txt"), "utf8")).toBe("hi");
  });

  it("records a run that still fails after every retry as an error, not a result", async () => {
    const storm = SimScript.parse({ rules: [{ match: "greeting", fault: { status: 529 } }] });
    const { summary } = await runWithSim(storm, {
      ...base,
      baseline: "none",
      skillPath: join(dir, "greeter"),
    });
    expect(summary.records[0]).toMatchObject({ outcome: "overloaded", attempts: 3 });
    const timing = await readJson(join(summary.iterationDir, "eval-1", "with_skill", "run-1", "timing.json"));
    expect(timing).toMatchObject({ outcome: "overloaded", attempts: 3 });
  });

  it("keeps parallel runs apart: each has its own workspace and home", async () => {
    const probe = SimScript.parse({
      rules: [
        {
          match: "greeting",
          skill: "none",
          without_skill: [
            { bash: 'ls -a > seen.txt; echo "$HOME" > home.txt; pwd > where.txt' },
            { write: { path: "mine.txt", content: "mine" } },
          ],
        },
      ],
    });
    const { summary } = await runWithSim(probe, {
      ...base,
      baseline: "none",
      runs: 4,
      concurrency: 4,
      skillPath: join(dir, "greeter"),
    });
    expect(summary.records.map((r) => r.outcome)).toEqual(["success", "success", "success", "success"]);
    const homes = new Set<string>();
    const places = new Set<string>();
    for (let k = 1; k <= 4; k++) {
      const outputs = join(summary.iterationDir, "eval-1", "with_skill", `run-${k}`, "outputs");
      expect(await readFile(join(outputs, "seen.txt"), "utf8")).not.toContain("mine.txt");
      homes.add((await readFile(join(outputs, "home.txt"), "utf8")).trim());
      places.add((await readFile(join(outputs, "where.txt"), "utf8")).trim());
    }
    expect(homes.size).toBe(4);
    expect(places.size).toBe(4);
    expect([...homes].some((h) => h === process.env.HOME)).toBe(false);
  });

  it("keeps finished runs when cancelled and resumes the iteration in place", async () => {
    await writeTree(dir, {
      "greeter/evals/evals.json": JSON.stringify({
        evals: [1, 2, 3].map((id) => ({
          id,
          prompt: `Greeting card number ${id}`,
          expectations: ["a card"],
        })),
      }),
    });
    const script = SimScript.parse({
      rules: [{ steps: [{ write: { path: "card.txt", content: "card" } }] }],
    });
    const controller = new AbortController();
    const first = await runWithSim(script, {
      ...base,
      baseline: "none",
      concurrency: 1,
      skillPath: join(dir, "greeter"),
      signal: controller.signal,
      reporter: { onRunEnd: () => controller.abort() },
    });
    expect(first.summary.cancelled).toBe(true);
    expect(first.summary.records.filter((r) => r.outcome === "success")).toHaveLength(1);
    expect((await readJson(join(first.summary.iterationDir, "iteration.json"))).status).toBe("interrupted");
    const finished = join(first.summary.iterationDir, "eval-1", "with_skill", "run-1", "timing.json");
    const finishedAt = (await stat(finished)).mtimeMs;

    const second = await runWithSim(script, {
      ...base,
      baseline: "none",
      concurrency: 1,
      skillPath: join(dir, "greeter"),
    });
    expect(second.summary.iterationDir).toBe(first.summary.iterationDir);
    expect(second.summary.resumed).toBe(true);
    expect(second.summary.records.filter((r) => r.skipped)).toHaveLength(1);
    expect(second.summary.records.every((r) => r.outcome === "success")).toBe(true);
    expect((await stat(finished)).mtimeMs).toBe(finishedAt);
    expect((await readJson(join(second.summary.iterationDir, "iteration.json"))).status).toBe("complete");

    const third = await runWithSim(script, {
      ...base,
      baseline: "none",
      concurrency: 1,
      skillPath: join(dir, "greeter"),
    });
    expect(third.summary.iterationDir).toBe(join(dir, "greeter-workspace", "iteration-2"));
  });
});
