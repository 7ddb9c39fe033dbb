import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { createJudge } from "../../src/judge/create.js";
import { type GraderInput, gradeWithJudge } from "../../src/judge/grader.js";
import { type SimServer, startSim } from "../../src/sim/index.js";

// Codex, Gemini CLI, OpenCode and Copilot CLI as judges: the real binaries against skillgym sim, graded like the API's sim judge.
let runDir: string;
const report = "# Q3 report\n\nNorth: 1,200\nSouth: 800\n";
const transcript = "## User\nSummarize sales.csv\n\n## Assistant\nWrote outputs/report.md.";
const input: GraderInput = {
  prompt: "Summarize sales.csv into outputs/report.md",
  expectations: ["report.md lists North", "report.md lists South", "A chart is included"],
  outputs: [{ path: "report.md", content: report }],
  transcript,
};
const verdicts = { verdicts: [{ match: "chart", passed: false, evidence: "No chart file." }] };

// The route each agent's requests take to the simulator.
const routes = {
  "claude-code": /^\/v1\/messages/,
  codex: /^\/v1\/responses/,
  gemini: /^\/v1beta\/models\/[^/]+:streamGenerateContent/,
  opencode: /^\/agents\/v1\/chat\/completions/,
  copilot: /^\/agents\/v1\/chat\/completions/,
} as const;

// OpenCode spends 10–15 CPU-seconds starting: on a busy machine one judge call takes minutes.
const LIMIT_MS = 600_000;

async function runFolder(): Promise<string[]> {
  return (await readdir(runDir)).sort();
}

beforeAll(async () => {
  runDir = await mkdtemp(join(tmpdir(), "skillgym-agent-judge-run-"));
  await mkdir(join(runDir, "outputs"));
  await writeFile(join(runDir, "outputs", "report.md"), report);
  await writeFile(join(runDir, "transcript.md"), transcript);
});
afterAll(async () => {
  await rm(runDir, { recursive: true, force: true });
});

async function withSim<T>(script: object, body: (sim: SimServer) => Promise<T>): Promise<T> {
  const sim = await startSim({ script: SimScript.parse(script) });
  try {
    return await body(sim);
  } finally {
    await sim.close();
  }
}

// One judge call per agent proves both facts: the grade equals the sim's API judge's, and the judge is read-only (the
// script tells it to write and to run a command before it answers). A start of OpenCode alone costs ~12 CPU-s.
describe.each(["claude-code", "codex", "gemini", "opencode", "copilot"] as const)(
  "the %s judge (the real binary against skillgym sim)",
  (backend) => {
    it(
      "grades a run as the sim's API judge does, at no cost, and cannot write a file or run a command when told to",
      async () => {
        // What the API judge makes of the same verdicts (no agent: the sim's Messages API alone).
        const reference = await withSim({ judge: verdicts }, async (sim) =>
          gradeWithJudge(await createJudge({ backend: "sim", simulatorUrl: sim.url }), input),
        );
        const script = {
          judge: {
            ...verdicts,
            steps: [
              { write: { path: "judge-wrote.txt", content: "written by the judge\n" } },
              { bash: "echo shell > judge-shell.txt" },
              { write: { path: "outputs/report.md", content: "overwritten by the judge\n" } },
            ],
          },
        };
        await withSim(script, async (sim) => {
          const judge = await createJudge({ backend, simulatorUrl: sim.url });
          expect([judge.backend, judge.model, judge.simulated]).toEqual([backend, "skillgym-sim", true]);
          const { graded, response } = await gradeWithJudge(judge, input, { workspaceDir: runDir });
          expect(graded.expectations).toEqual(reference.graded.expectations);
          expect(graded.expectations.map((e) => e.passed)).toEqual([true, true, false]);
          expect(response.model).toBe("skillgym-sim");
          expect(response.costUsd).toBe(0);
          expect(response.inputTokens).toBeGreaterThan(0);
          expect(response.attempts).toBe(1);
          // The judge's instructions (with the grader's marker) reached the model, through the agent's own wire protocol.
          const graderRequests = sim.log.filter(
            (e) => e.action.startsWith("judge grader") && routes[backend].test(e.path),
          );
          expect(graderRequests.length).toBeGreaterThanOrEqual(1);
          expect(graderRequests[0]!.prompt).toContain("`outputs/`");
          const asked = sim.log
            .filter((e) => routes[backend].test(e.path))
            .map((e) => e.action.split(" ").slice(0, 3).join(" "));
          // The agent was asked to write, to run a command, to write again, and came back for the verdict each time.
          expect(asked).toEqual(
            expect.arrayContaining(["judge grader Write", "judge grader Bash", "judge grader"]),
          );
          expect(asked.indexOf("judge grader")).toBeGreaterThan(asked.lastIndexOf("judge grader Write"));
          expect(await runFolder()).toEqual(["outputs", "transcript.md"]);
          expect(await readdir(join(runDir, "outputs"))).toEqual(["report.md"]);
          expect(await readFile(join(runDir, "outputs", "report.md"), "utf8")).toBe(report);
        });
      },
      LIMIT_MS,
    );
  },
);
