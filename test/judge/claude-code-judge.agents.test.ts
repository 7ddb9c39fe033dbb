import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readOnlyArgs as judgeArgs } from "../../src/agents/claude-code/args.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { createJudge } from "../../src/judge/create.js";
import { type GraderInput, gradeWithJudge } from "../../src/judge/grader.js";
import { type SimServer, startSim } from "../../src/sim/index.js";

let runDir: string;
let sim: SimServer;

const report = "# Q3 report\n\nNorth: 1,200\nSouth: 800\n";
const transcript =
  "## User\nSummarize sales.csv\n\n## Assistant\nWrote outputs/report.md. I was unsure about South.";

beforeAll(async () => {
  runDir = await mkdtemp(join(tmpdir(), "skillgym-judge-run-"));
  await mkdir(join(runDir, "outputs"));
  await writeFile(join(runDir, "outputs", "report.md"), report);
  await writeFile(join(runDir, "transcript.md"), transcript);
  sim = await startSim({
    script: SimScript.parse({
      judge: { verdicts: [{ match: "chart", passed: false, evidence: "No chart file." }] },
    }),
  });
});
afterAll(async () => {
  await sim.close();
  await rm(runDir, { recursive: true, force: true });
});

const input: GraderInput = {
  prompt: "Summarize sales.csv into outputs/report.md",
  expectations: ["report.md lists North", "report.md lists South", "A chart is included"],
  outputs: [{ path: "report.md", content: report }],
  transcript,
};

describe("the claude-code judge (the real Claude Code binary against skillgym sim)", () => {
  it("grades a run from its folder, read-only, and answers the sim's verdicts", async () => {
    const judge = await createJudge({ backend: "claude-code", simulatorUrl: sim.url });
    expect([judge.backend, judge.model, judge.simulated]).toEqual(["claude-code", "skillgym-sim", true]);
    const { graded, response } = await gradeWithJudge(judge, input, { workspaceDir: runDir });
    expect(graded.expectations.map((e) => [e.text, e.passed, e.evidence])).toEqual([
      [input.expectations[0], true, "Simulated verdict (skillgym sim)"],
      [input.expectations[1], true, "Simulated verdict (skillgym sim)"],
      [input.expectations[2], false, "No chart file."],
    ]);
    expect(response.model).toBe("skillgym-sim");
    expect(response.costUsd).toBe(0);
    expect(response.inputTokens).toBeGreaterThan(0);
    expect(response.attempts).toBe(1);
    const graderRequests = sim.log.filter((e) => e.action === "judge grader");
    expect(graderRequests.length).toBeGreaterThanOrEqual(1);
    expect(graderRequests[0]!.prompt).toContain("`outputs/`");
    // Nothing in the run's folder changed or appeared.
    expect((await readdir(runDir)).sort()).toEqual(["outputs", "transcript.md"]);
    expect(await readFile(join(runDir, "outputs", "report.md"), "utf8")).toBe(report);
  });

  it("passes the read-only tool lists and the system prompt on Claude Code's command line", () => {
    const args = judgeArgs({ system: "SYSTEM", prompt: "PROMPT" }, "claude-opus-4-5");
    expect(args.slice(0, 2)).toEqual(["-p", "PROMPT"]);
    expect(args).toContain("stream-json");
    expect(args[args.indexOf("--allowedTools") + 1]).toBe("Read Glob Grep");
    expect(args[args.indexOf("--disallowedTools") + 1]).toMatch(/^Bash Edit Write NotebookEdit/);
    expect(args[args.indexOf("--append-system-prompt") + 1]).toBe("SYSTEM");
    expect(args[args.indexOf("--model") + 1]).toBe("claude-opus-4-5");
    expect(judgeArgs({ system: "s", prompt: "p" }, undefined)).not.toContain("--model");
  });
});
