import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRunDetail } from "../../src/report/run-detail.js";
import { resolveViewTarget } from "../../src/report/target.js";
import { createViewReader } from "../../src/report/view-reader.js";
import { parseRunId } from "../../src/runlog/list-runs.js";
import { tempDir, writeFakeIteration, writeFiles } from "./workspace-fixture.js";

// One run as the Outputs tab shows it, read from hand-made iterations: the same run of the iteration before,
// the benchmark's disclosure row of its eval, and the link to its transcript.
let ws: Awaited<ReturnType<typeof tempDir>>;
const root = () => join(ws.dir, "detail-workspace");

const disclosure = (eval_id: string, configuration: string, fired: number) => ({
  eval_id,
  configuration,
  runs: 2,
  fired,
  files: [],
  never_opened: [],
});

beforeAll(async () => {
  ws = await tempDir("skillgym-run-detail-");
  await writeFakeIteration(join(root(), "iteration-1"), {
    evals: 2,
    runsPerConfiguration: 1,
    outputs: (e, c, r) => ({ "old.md": `old ${e} ${c} ${r}\n` }),
  });
  await writeFakeIteration(join(root(), "iteration-2"), {
    evals: 2,
    runsPerConfiguration: 2,
    outputs: (e, c, r) => ({ "new.md": `new ${e} ${c} ${r}\n` }),
  });
  const bench = join(root(), "iteration-2", "benchmark.json");
  const benchmark = JSON.parse(await readFile(bench, "utf8"));
  benchmark.disclosure = [
    disclosure("e1", "without_skill", 1),
    disclosure("e2", "with_skill", 2),
    disclosure("e1", "with_skill", 3),
  ];
  await writeFile(bench, JSON.stringify(benchmark));
  for (const agent of ["codex", "gemini"])
    await writeFakeIteration(join(root(), "iteration-3", agent), {
      evals: 1,
      runsPerConfiguration: 1,
      outputs: () => ({ [`${agent}.md`]: agent }),
    });
  await writeFakeIteration(join(root(), "iteration-4", "codex"), { evals: 1, runsPerConfiguration: 1 });
  await writeFiles(root(), {
    "iteration-1/eval-e1/with_skill/run-1/timing.json": JSON.stringify({
      outcome: "timeout",
      error: "took too long",
      attempts: 1,
    }),
  });
});
afterAll(() => ws.cleanup());

async function detail(iteration: number, run: string, urlFor?: (p: string) => string, agent?: string) {
  const reader = createViewReader(await resolveViewTarget(root()));
  const found = reader.target.all.find((it) => it.number === iteration)!;
  const ref = agent
    ? { ...found, dir: join(found.dir, agent), name: `${found.name}/${agent}`, agent }
    : found;
  return readRunDetail(reader, ref, parseRunId(run)!, urlFor ? { urlFor } : {});
}

describe("readRunDetail", () => {
  it("is undefined for a run folder that does not exist", async () => {
    expect(await detail(2, "eval-e1/with_skill/run-9")).toBeUndefined();
  });

  it("reads a run with its eval, outcome, grading and its disclosure row", async () => {
    const run = await detail(2, "eval-e1/with_skill/run-2", (p) => `/f/${p}`);
    expect(run).toMatchObject({
      iteration: 2,
      id: "eval-e1/with_skill/run-2",
      run_id: "eval-e1-with_skill-run-2",
      eval_id: "e1",
      eval_name: "eval-e1",
      configuration: "with_skill",
      run_number: 2,
      prompt: "Do task e1",
      outcome: "success",
      error: null,
      outputs_omitted: 0,
      transcript_url: "/f/iteration-2/eval-e1/with_skill/run-2/transcript.md",
      activation: null,
      disclosure: disclosure("e1", "with_skill", 3),
    });
    expect(run?.outputs.map((f) => [f.path, f.url])).toEqual([
      ["new.md", "/f/iteration-2/eval-e1/with_skill/run-2/outputs/new.md"],
    ]);
    expect(run?.grading?.summary).toEqual({ passed: 4, failed: 0, total: 4, pass_rate: 1 });
    expect(run?.grading).not.toHaveProperty("claims");
    expect(run?.transcript?.text).toBe("# transcript of eval-e1/with_skill/run-2\n");
  });

  it("compares with the same run of the iteration before, else its first run", async () => {
    const second = await detail(2, "eval-e2/without_skill/run-2");
    expect(second?.previous).toMatchObject({
      iteration: 1,
      id: "eval-e2/without_skill/run-1",
      pass_rate: 0.5,
    });
    expect(second?.previous?.outputs.map((f) => f.text)).toEqual(["old 1 without_skill 1\n"]);
    const first = await detail(2, "eval-e1/with_skill/run-1");
    expect(first?.previous).toMatchObject({ iteration: 1, id: "eval-e1/with_skill/run-1", pass_rate: 1 });
    expect(first?.disclosure).toEqual(disclosure("e1", "with_skill", 3));
    expect((await detail(2, "eval-e2/without_skill/run-1"))?.disclosure).toBeNull();
  });

  it("has no previous run in the first iteration, and names a failed run's outcome", async () => {
    const run = await detail(1, "eval-e1/with_skill/run-1");
    expect(run?.previous).toBeNull();
    expect(run?.outcome).toBe("timeout");
    expect(run?.error).toBe("took too long");
    expect(run?.transcript_url).toBeNull();
  });

  it("compares one agent's run with the same agent's, else with the iteration before", async () => {
    const codex = await detail(4, "eval-e1/with_skill/run-1", undefined, "codex");
    expect(codex?.previous?.iteration).toBe(3);
    expect(codex?.previous?.outputs.map((f) => f.path)).toEqual(["codex.md"]);
    const gemini = await detail(3, "eval-e1/with_skill/run-1", undefined, "gemini");
    expect(gemini?.previous).toMatchObject({ iteration: 2, id: "eval-e1/with_skill/run-1" });
  });

  it("has no previous run when the iteration before did not run that eval", async () => {
    const reader = createViewReader(await resolveViewTarget(root()));
    const it4 = reader.target.all.find((it) => it.number === 4)!;
    const ref = { ...it4, dir: join(it4.dir, "codex"), name: "iteration-4/codex", agent: "codex" };
    await writeFakeIteration(join(root(), "iteration-4", "codex"), { evals: 3, runsPerConfiguration: 1 });
    expect((await readRunDetail(reader, ref, parseRunId("eval-e3/with_skill/run-1")!))?.previous).toBeNull();
  });
});
