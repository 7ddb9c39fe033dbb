import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { Judge, JudgeRequest, JudgeResponse } from "../../src/judge/judge.js";

export type TreeSpec = Record<string, string | Uint8Array>;

export async function makeTempDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), "skillgym-compare-"));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export async function writeTree(root: string, spec: TreeSpec): Promise<void> {
  for (const [rel, content] of Object.entries(spec)) {
    const abs = path.join(root, ...rel.split("/"));
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }
}

export const TASK = "Write a short report on the quarterly numbers into report.md";
export const EXPECTATIONS = ["report.md exists", "The report names the best quarter"];
/** Each run's report carries a token of its own, so a test can tell which run the judge saw under which label. */
export const TOKENS = { with_skill: "ALPHA-7731", without_skill: "BRAVO-4410" } as const;

function transcript(configuration: string, runDir: string, workspace: string, token: string): string {
  return [
    `# eval-1 — ${configuration} — run 1`,
    "",
    "## Prompt",
    "",
    "```",
    TASK,
    "```",
    "",
    "## Step 1",
    "",
    "**Tool call: Write**",
    "",
    "```",
    JSON.stringify({ file_path: `${workspace}/report.md`, content: token }),
    "```",
    "",
    "## Result",
    "",
    "Finished (success) after 3 turns, cost $0.0123.",
    "",
    "```",
    `Done: wrote ${workspace}/report.md (copied to ${runDir}/outputs/report.md). Token ${token}.`,
    "```",
    "",
  ].join("\n");
}

export interface Workspace {
  root: string;
  skillDir: string;
  evalDir: string;
  withSkill: string;
  withoutSkill: string;
}

/** A workspace as `skillgym eval` leaves it: one eval, a with_skill and a without_skill run. */
export async function buildWorkspace(root: string): Promise<Workspace> {
  const skillDir = path.join(root, "report-writer");
  const iteration = path.join(root, "report-writer-workspace", "iteration-1");
  const evalDir = path.join(iteration, "eval-1");
  const runDir = (configuration: string) => path.join(evalDir, configuration, "run-1");
  const tree: TreeSpec = {
    "report-writer/SKILL.md":
      "---\nname: report-writer\ndescription: Writes reports. Use when asked for a report.\n---\n\nAlways put the best quarter first.\n",
  };
  await writeTree(root, tree);
  await writeTree(iteration, {
    "iteration.json": JSON.stringify({
      skill_name: "report-writer",
      skill_path: skillDir,
      skill_hash: "abc",
      status: "complete",
      started_at: "2026-01-15T10:30:00Z",
      plan: { evals: [1], configurations: ["with_skill", "without_skill"], runs_per_configuration: 1 },
    }),
    "eval-1/eval_metadata.json": JSON.stringify({
      eval_id: 1,
      eval_name: "quarterly",
      prompt: TASK,
      assertions: EXPECTATIONS,
    }),
  });
  for (const configuration of ["with_skill", "without_skill"] as const) {
    const dir = runDir(configuration);
    const token = TOKENS[configuration];
    const workspace = path.join(tmpdir(), "skillgym-x1", `1-${configuration}-1-a1`);
    await writeTree(dir, {
      "outputs/report.md": `# Report\n\nBest quarter: Q3. ${token}\nSaved under ${dir}/outputs/report.md\n`,
      "outputs/notes/extra.txt": `cwd was ${workspace}\n`,
      "outputs/chart.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff]),
      "outputs/metrics.json": JSON.stringify({ total_tool_calls: 3, secret: "METRICS-SHOULD-NOT-SHOW" }),
      "transcript.md": transcript(configuration, dir, workspace, token),
      "timing.json": JSON.stringify({ total_tokens: 100, duration_ms: 1000, total_duration_seconds: 1 }),
    });
  }
  return { root, skillDir, evalDir, withSkill: runDir("with_skill"), withoutSkill: runDir("without_skill") };
}

/**
 * A workspace of its own for each test of the calling file, removed after the test: `const ws = useWorkspace();`
 * at the top of the file, then `ws.withSkill` inside a test.
 */
export function useWorkspace(): Workspace {
  let current: Workspace | undefined;
  beforeEach(async () => {
    current = await buildWorkspace(await makeTempDir());
  });
  afterEach(async () => {
    if (current) await removeDir(current.root);
    current = undefined;
  });
  const now = (): Workspace => {
    if (!current) throw new Error("useWorkspace: the workspace exists only while a test runs");
    return current;
  };
  return {
    get root() {
      return now().root;
    },
    get skillDir() {
      return now().skillDir;
    },
    get evalDir() {
      return now().evalDir;
    },
    get withSkill() {
      return now().withSkill;
    },
    get withoutSkill() {
      return now().withoutSkill;
    },
  };
}

export function comparisonAnswer(winner: "A" | "B" | "TIE"): string {
  const side = (n: number) => ({
    content: { correctness: n, completeness: n, accuracy: n - 1 },
    structure: { organization: n, formatting: n, usability: n },
    content_score: 1,
    structure_score: 1,
    overall_score: 1,
  });
  const details = EXPECTATIONS.map((text, i) => ({ text, passed: i === 0, evidence: "seen" }));
  return JSON.stringify({
    winner,
    reasoning: `Output ${winner} is better.`,
    rubric: { A: side(5), B: side(3) },
    output_quality: {
      A: { score: 9, strengths: ["complete"], weaknesses: [] },
      B: { score: 5, strengths: ["short"], weaknesses: ["vague"] },
    },
    expectation_results: {
      A: { passed: 2, total: 2, pass_rate: 1, details },
      B: { passed: 2, total: 2, pass_rate: 1, details },
    },
  });
}

export function analysisAnswer(): string {
  return JSON.stringify({
    comparison_summary: {
      winner: "B",
      winner_skill: "made/up/path",
      loser_skill: "other/made/up",
      comparator_reasoning: "The winner named the best quarter.",
    },
    winner_strengths: ["Followed the skill's ordering rule"],
    loser_weaknesses: ["No guidance on ordering"],
    instruction_following: { winner: { score: 9, issues: [] }, loser: { score: 5, issues: ["improvised"] } },
    improvement_suggestions: [
      {
        priority: "high",
        category: "instructions",
        suggestion: "Say which quarter goes first",
        expected_impact: "Fewer misses",
      },
    ],
    transcript_insights: { winner_execution_pattern: "Read -> Write", loser_execution_pattern: "Write" },
  });
}

/** A judge that keeps every request it gets and answers from a script: the one stand-in these tests use. */
export class RecordingJudge implements Judge {
  readonly backend = "sim" as const;
  readonly model = "recording-judge";
  readonly simulated = false;
  readonly requests: JudgeRequest[] = [];

  constructor(private readonly answer: (request: JudgeRequest, index: number) => string) {}

  async complete(request: JudgeRequest): Promise<JudgeResponse> {
    this.requests.push(request);
    const text = this.answer(request, this.requests.length - 1);
    return { text, model: this.model, inputTokens: 10, outputTokens: 10, costUsd: 0.01, durationMs: 1 };
  }
}

/** Which run's token the judge saw under label A. */
export function tokenUnderA(prompt: string): string | undefined {
  const a = prompt.indexOf("## Output A");
  const b = prompt.indexOf("## Output B");
  const sectionA = prompt.slice(a, b);
  return Object.values(TOKENS).find((token) => sectionA.includes(token));
}
