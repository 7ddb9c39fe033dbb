import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { JudgesReport } from "../../src/contracts/judges.js";
import { startSim } from "../../src/sim/index.js";
import { useJudgedIteration } from "../judges/judges-fixture.js";
import { cli } from "./command-fixture.js";

// `skillgym judges` in this process on a simulated iteration: strict fails beta, lenient fails gamma.
const judged = useJudgedIteration();

const pair = "sim:strict,sim:lenient";
const judges = (dir: string, ...flags: string[]) => cli(["judges", dir, "--no-reword", ...flags]);
const scripted = (dir: string, ...flags: string[]) =>
  judges(dir, "--sim-script", judged.scriptFile, ...flags);

// The root of `run --agent claude-code,codex`: claude-code's folder a copy of the judged iteration, codex's as
// `keep` leaves it.
async function severalAgents(name: string, keep: (codex: string) => Promise<void>): Promise<string> {
  const root = join(judged.dir, "..", name, "iteration-1");
  for (const agent of ["claude-code", "codex"]) await cp(judged.dir, join(root, agent), { recursive: true });
  await keep(join(root, "codex"));
  await writeFile(
    join(root, "iteration.json"),
    JSON.stringify({
      skill_name: "demo",
      skill_path: "/skills/demo",
      skill_hash: "h",
      status: "complete",
      started_at: "2026-01-15T10:30:00Z",
      agents: ["claude-code", "codex"],
      request: {
        evals: [1, 2],
        runs_per_configuration: 3,
        baseline: "without_skill",
        trigger_queries: 0,
        trigger_runs: 1,
      },
    }),
  );
  return root;
}

// An OpenAI-compatible server that knows no model: every grading fails at once, with no retry.
let noModel: Server;
let noModelUrl: string;
beforeAll(async () => {
  noModel = createServer((_req, res) => res.writeHead(404).end("no such model"));
  await new Promise<void>((resolve) => noModel.listen(0, "127.0.0.1", resolve));
  noModelUrl = `http://127.0.0.1:${(noModel.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => noModel.close(resolve)));

const agreement =
  "  sim:strict vs sim:lenient: 41.2% agree, κ -0.42 (95% CI -0.61 to -0.11), over 17 verdicts";

describe("skillgym judges", () => {
  it("prints judges.json with --json", async () => {
    const result = await scripted(judged.dir, "--judge", pair, "--json");
    expect(result.code).toBe(0);
    const printed = JudgesReport.parse(JSON.parse(result.stdout));
    expect(printed).toEqual(
      JudgesReport.parse(JSON.parse(await readFile(join(judged.dir, "judges.json"), "utf8"))),
    );
    expect(printed.judges.map((j) => [j.id, j.verdicts])).toEqual([
      ["sim:strict", 17],
      ["sim:lenient", 17],
    ]);
  });

  it("exits 1 when two judges agree less than --min-judge-agreement", async () => {
    const result = await scripted(judged.dir, "--judge", pair, "--min-judge-agreement", "0.5");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "FAIL min-judge-agreement: lowest judge agreement 41.2% (sim:strict vs sim:lenient) < 50.0%\n",
    );
  });

  it("plays the script the iteration was simulated with when --sim-script is not given", async () => {
    const copy = join(judged.dir, "..", "recorded", "iteration-1");
    await cp(judged.dir, copy, { recursive: true });
    const record = JSON.parse(await readFile(join(copy, "iteration.json"), "utf8"));
    await writeFile(
      join(copy, "iteration.json"),
      JSON.stringify({ ...record, sim_script: judged.scriptFile }),
    );
    const result = await judges(copy, "--judge", pair);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${agreement}; 10 disagreements\n`);
  });

  it("starts a simulator for the sim judges alone, and reads --sim-script only for them", async () => {
    // The openai judge is not pointed at the simulator, which would answer it.
    const result = await scripted(
      judged.dir,
      "--judge",
      "sim:strict,openai:gpt-x",
      "--judge-base-url",
      noModelUrl,
    );
    // One judge gave verdicts: not the exit of no verdict at all.
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `  openai:gpt-x failed on 7 runs, e.g. the judge (gpt-x at ${noModelUrl}/chat/completions) failed: HTTP 404`,
    );
    const missing = join(judged.dir, "no-script.json");
    const openai = await judges(
      judged.dir,
      "--sim-script",
      missing,
      "--judge",
      "openai:gpt-x",
      "--judge-base-url",
      noModelUrl,
    );
    expect(openai.code).toBe(3);
    expect(openai.stderr).not.toContain(missing);
  });

  it("cancels on Ctrl-C, saying so, and leaves no handler behind", async () => {
    type Listener = (...args: unknown[]) => void;
    const before = process.listeners("SIGINT") as Listener[];
    const io = captureIo();
    let ended = false;
    const done = main(
      ["judges", judged.dir, "--no-reword", "--sim-script", judged.scriptFile, "--judge", pair],
      io,
    ).finally(() => {
      ended = true;
    });
    let added: Listener[] = [];
    while (!ended && added.length === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      added = (process.listeners("SIGINT") as Listener[]).filter((l) => !before.includes(l));
    }
    expect(added).toHaveLength(1);
    added[0]?.("SIGINT");
    await done;
    expect(io.stderr()).toContain("\ncancelling\n");
    expect(process.listeners("SIGINT")).toEqual(before);
  });
});

describe("skillgym judges on an iteration of several agents", () => {
  let root: string;
  beforeAll(async () => {
    // codex ran eval 2 alone, whose runs both judges pass.
    root = await severalAgents("several", (codex) => rm(join(codex, "eval-1"), { recursive: true }));
  });

  it("prints each agent's report under its name, and gates on every agent", async () => {
    const result = await scripted(root, "--judge", pair, "--min-judge-agreement", "0.5");
    expect(result.code).toBe(1);
    const [claude, codex] = result.stdout.split("[codex]\n");
    expect(
      claude?.startsWith("[claude-code]\n7 runs re-graded by sim:strict, sim:lenient (simulated)\n"),
    ).toBe(true);
    expect(claude).toContain("FAIL min-judge-agreement: lowest judge agreement 41.2%");
    expect(codex?.startsWith("2 runs re-graded by sim:strict, sim:lenient (simulated)\n")).toBe(true);
    expect(codex).toContain("PASS min-judge-agreement: lowest judge agreement 100.0%");
  });

  it("prints each agent's judges.json by its name with --json", async () => {
    const result = await scripted(root, "--judge", pair, "--json");
    expect(result.code).toBe(0);
    const byAgent = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(byAgent)).toEqual(["claude-code", "codex"]);
    expect(Object.values(byAgent).map((r) => JudgesReport.parse(r).runs)).toEqual([7, 2]);
  });
});

describe("skillgym judges on an iteration of several agents, one whose runs got no verdict", () => {
  it("exits 0 while another agent's runs got verdicts", async () => {
    // codex ran eval 2 alone, its answers its own.
    const root = await severalAgents("one-judged", async (codex) => {
      await rm(join(codex, "eval-1"), { recursive: true });
      for (const run of ["run-1", "run-2"])
        await writeFile(join(codex, "eval-2", "with_skill", run, "outputs", "answer.md"), "CODEX ANSWER\n");
    });
    // The judge's API: the simulator's answers, but none for a run of codex.
    const sim = await startSim();
    const api = createServer(async (req, res) => {
      let body = "";
      for await (const chunk of req) body += chunk;
      if (body.includes("CODEX ANSWER")) return void res.writeHead(404).end("no such model");
      const answer = await fetch(`${sim.url.replace(/\/+$/, "")}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
    });
    await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
      const result = await judges(root, "--judge", "openai:gpt-x", "--judge-base-url", url);
      expect(result.code).toBe(0);
      const codex = result.stdout.split("[codex]\n")[1];
      expect(codex).toContain(
        `  openai:gpt-x failed on 2 runs, e.g. the judge (gpt-x at ${url}/chat/completions) failed: HTTP 404: no such model\n`,
      );
    } finally {
      await new Promise((resolve) => api.close(resolve));
      await sim.close();
    }
  });
});
