import { createServer, request, type Server } from "node:http";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSetup } from "../../src/cli/agent-setup.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { createJudge } from "../../src/judge/create.js";
import { gradeWithJudge } from "../../src/judge/grader.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { layOutTargets, type Targets } from "./hostile.js";

let dir: string;
let cleanup: () => Promise<void>;
let targets: Targets;
let sim: SimServer;
let recorder: Server;
let recorderUrl: string;
let bodies: string[];
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  targets = await layOutTargets(dir);
  // The simulated judge reads the canary with its Read tool before it answers.
  sim = await startSim({
    script: SimScript.parse({ judge: { steps: [{ read: targets.canaryFile }], default: "pass" } }),
  });
  // Between the judge and the simulator: every request the model gets, as sent (tool results included).
  bodies = [];
  const target = new URL(sim.url);
  recorder = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      bodies.push(body.toString("utf8"));
      const forward = request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.end(body);
    });
  });
  await new Promise<void>((done) => recorder.listen(0, "127.0.0.1", done));
  const address = recorder.address();
  recorderUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterEach(async () => {
  await new Promise<void>((done) => recorder.close(() => done()));
  await sim.close();
  await targets.exfiltration.close();
  await cleanup();
});

async function judgeRun(sandbox: boolean) {
  const runDir = join(dir, "run");
  await writeTree(runDir, { "outputs/notes.md": "# Notes\n", "transcript.md": "wrote notes.md\n" });
  const judge = await createJudge({ backend: "claude-code", simulatorUrl: recorderUrl, sandbox });
  const { graded } = await gradeWithJudge(
    judge,
    {
      prompt: "Write notes.md",
      expectations: ["notes.md has a title"],
      outputs: [{ path: "notes.md", content: "# Notes\n" }],
      transcript: "wrote notes.md",
    },
    { workspaceDir: runDir },
  );
  return { judge, graded };
}

describe("an agent judge (Claude Code) under --sandbox", () => {
  it("cannot read the canary, and still grades", { timeout: 240_000 }, async () => {
    const { judge, graded } = await judgeRun(true);
    expect(judge.sandboxed).toBe(true);
    expect(graded.expectations.map((x) => x.passed)).toEqual([true]);
    // The judge asked to read the canary (its tool call went to the model), and got no text of it back.
    expect(bodies.some((body) => body.includes(targets.canaryFile))).toBe(true);
    expect(bodies.filter((body) => body.includes(targets.canaryText))).toEqual([]);
  });

  it("without --sandbox the same judge reads it: its text reaches the model", {
    timeout: 240_000,
  }, async () => {
    const { judge, graded } = await judgeRun(false);
    expect(judge.sandboxed).toBeUndefined();
    expect(graded.expectations.map((x) => x.passed)).toEqual([true]);
    expect(bodies.some((body) => body.includes(targets.canaryText))).toBe(true);
  });
});

describe("the judge of a command", () => {
  it("is sandboxed with --sandbox, or when the suite asks for it, as its agents are", async () => {
    await writeTree(dir, { "suite/evals.json": JSON.stringify({ sandbox: true, evals: [] }) });
    const cases = [
      { flags: { sandbox: true }, suite: undefined, sandboxed: true },
      { flags: {}, suite: join(dir, "suite"), sandboxed: true },
      { flags: {}, suite: undefined, sandboxed: undefined },
    ];
    for (const c of cases) {
      const setup = createSetup({ ...c.flags, simulate: true, judge: "claude-code" });
      try {
        expect((await setup.judge(c.suite)).sandboxed).toBe(c.sandboxed);
      } finally {
        await setup.close();
      }
    }
  });
});
