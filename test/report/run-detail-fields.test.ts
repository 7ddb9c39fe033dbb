import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRunDetail } from "../../src/report/run-detail.js";
import { resolveViewTarget } from "../../src/report/target.js";
import { createViewReader } from "../../src/report/view-reader.js";
import { parseRunId } from "../../src/runlog/list-runs.js";
import { tempDir, writeFakeIteration, writeFiles } from "./workspace-fixture.js";

// The parts of one run's detail that come from files a run may or may not have: the grader's claims, notes and
// eval feedback, metrics.json or the grader's metrics, activation.json, a contradiction between a judge and a check,
// a run without grading.json, eval_metadata.json or transcript.md, and the transcript's limit.
let ws: Awaited<ReturnType<typeof tempDir>>;
const root = () => join(ws.dir, "detail-fields");
const it1 = () => join(root(), "iteration-1");
const it2 = () => join(root(), "iteration-2");
const json = (value: unknown) => JSON.stringify(value);

const claims = [{ claim: "the file was written", type: "factual", verified: true }];
const evalFeedback = { suggestions: [{ reason: "too easy" }], overall: "tighten it" };
const notes = { uncertainties: ["the date"] };
const graderMetrics = { total_tool_calls: 3, total_steps: 2 };
const activation = {
  skill: "demo-skill",
  configuration: "with_skill",
  fired: [],
  skill_fired: false,
  bundled_files: ["SKILL.md"],
  files_opened: [],
  unexpected_skills: [],
  contaminated: false,
  contamination: [],
};
const expectations = [
  { text: "invoice.txt has the total", passed: true, evidence: "it does", source: "judge" },
  {
    text: "invoice.txt exists",
    passed: false,
    evidence: "invoice.txt does not exist",
    source: "check",
    check_type: "file_exists",
  },
];
const summary = { passed: 1, failed: 1, total: 2, pass_rate: 0.5 };

beforeAll(async () => {
  ws = await tempDir("skillgym-run-detail-fields-");
  await writeFakeIteration(it1(), { evals: 2, runsPerConfiguration: 2 });
  await writeFakeIteration(it2(), {
    evals: 2,
    runsPerConfiguration: 2,
    transcript: () => "first line\nsecond line\n",
  });
  const run = "eval-e1/with_skill/run-1";
  await writeFiles(it2(), {
    [`${run}/grading.json`]: json({
      expectations,
      summary,
      claims,
      eval_feedback: evalFeedback,
      user_notes_summary: notes,
      execution_metrics: graderMetrics,
    }),
    [`${run}/activation.json`]: json(activation),
    "eval-e1/without_skill/run-1/grading.json": json({
      expectations,
      summary,
      execution_metrics: graderMetrics,
    }),
    "eval-e1/without_skill/run-1/outputs/metrics.json": json({ total_tool_calls: 9 }),
  });
  // eval-e2: no eval_metadata.json, no grading.json, no transcript.md; its run in iteration-1 has no grading.json.
  await rm(join(it2(), "eval-e2/eval_metadata.json"));
  await rm(join(it2(), "eval-e2/with_skill/run-1/grading.json"));
  await rm(join(it2(), "eval-e2/with_skill/run-1/transcript.md"));
  await rm(join(it1(), "eval-e2/with_skill/run-1/grading.json"));
  // A run "folder" that is a file.
  await writeFiles(it2(), { "eval-e1/old_skill/run-1": "a file" });
});

afterAll(async () => {
  await ws?.cleanup();
});

async function detail(run: string, options: Parameters<typeof readRunDetail>[3] = {}) {
  const reader = createViewReader(await resolveViewTarget(root()));
  const iteration = reader.target.all.find((it) => it.number === 2);
  if (!iteration) throw new Error("no iteration-2");
  const ref = parseRunId(run);
  if (!ref) throw new Error(`not a run id: ${run}`);
  return readRunDetail(reader, iteration, ref, options);
}

describe("readRunDetail's optional parts", () => {
  it("carries the grader's claims, notes, feedback and metrics, the contradictions and activation.json", async () => {
    const run = await detail("eval-e1/with_skill/run-1");
    expect(run?.grading).toEqual({
      expectations,
      contradictions: [
        { expectation: 0, check: 1, file: "invoice.txt", reason: "invoice.txt does not exist" },
      ],
      summary,
      claims,
      eval_feedback: evalFeedback,
      user_notes_summary: notes,
    });
    expect(run?.metrics).toEqual(graderMetrics);
    expect(run?.activation).toEqual(activation);
    expect(run?.timing).toEqual({
      total_tokens: 1001,
      total_duration_seconds: 2.5,
      outcome: "success",
      attempts: 1,
    });
    expect(run?.transcript).toEqual({ text: "first line\nsecond line\n", size: 23, truncated: false });
  });

  it("prefers metrics.json to the grader's metrics, and leaves out what the grader did not write", async () => {
    const run = await detail("eval-e1/without_skill/run-1");
    expect(run?.metrics).toEqual({ total_tool_calls: 9 });
    expect(run?.grading).toEqual({
      expectations,
      contradictions: [
        { expectation: 0, check: 1, file: "invoice.txt", reason: "invoice.txt does not exist" },
      ],
      summary,
    });
    expect(run?.activation).toBeNull();
  });

  it("reads a run with no grading, metadata or transcript, and its previous run with no grading", async () => {
    const run = await detail("eval-e2/with_skill/run-1", { urlFor: (p) => `/f/${p}` });
    expect(run).toMatchObject({
      eval_id: null,
      eval_name: "eval-e2",
      prompt: null,
      grading: null,
      metrics: null,
      transcript: null,
      transcript_url: null,
      disclosure: null,
    });
    expect(run?.previous).toMatchObject({ iteration: 1, id: "eval-e2/with_skill/run-1", pass_rate: null });
  });

  it("compares with the same run number of the iteration before", async () => {
    expect((await detail("eval-e1/with_skill/run-2"))?.previous).toMatchObject({
      iteration: 1,
      id: "eval-e1/with_skill/run-2",
    });
  });

  it("cuts the transcript at the limit it is given", async () => {
    const run = await detail("eval-e1/with_skill/run-1", { limits: { maxTranscriptBytes: 15 } });
    expect(run?.transcript).toEqual({ text: "first line\n", size: 23, truncated: true });
  });

  it("is undefined for a run whose folder is a file", async () => {
    expect(await detail("eval-e1/old_skill/run-1")).toBeUndefined();
  });
});
