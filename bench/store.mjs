// The two figures of "pay once": (a) settled trigger verdicts against fixed counts, (b) three iterations of `run` on
// an unchanged example with the result store against without it. Real Claude Code against the simulator.
// Usage: npm run build && node bench/store.mjs
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  createAgent,
  createJudge,
  judgeGrader,
  loadSimScript,
  runPipeline,
  runTriggers,
  runTune,
  startSim,
} from "../dist/index.js";

const root = await mkdtemp(join(tmpdir(), "skillgym-bench-store-"));
const retry = { attempts: 3, baseDelayMs: 50, maxDelayMs: 200 };

// (a) 20 queries × up to 3 runs at concurrency 6, 1 s per model call; the patterns of the trigger e2e test.
async function triggerFigure() {
  const groups = [
    { should: true, pattern: [true, true, true] },
    { should: true, pattern: [true, false, false] },
    { should: false, pattern: [true, true, false] },
    { should: false, pattern: [false, false, false] },
  ];
  const skill = join(root, "haiku");
  await mkdir(join(skill, "evals"), { recursive: true });
  await writeFile(
    join(skill, "SKILL.md"),
    "---\nname: haiku\ndescription: Writes a haiku poem. Use when the user asks for a haiku.\n---\nWrite one.\n",
  );
  const queries = Array.from({ length: 20 }, (_, i) => ({
    query: `group ${Math.floor(i / 5)} request ${i}: something in verse`,
    should_trigger: groups[Math.floor(i / 5)].should,
  }));
  await writeFile(join(skill, "evals", "triggers.json"), JSON.stringify(queries));
  const script = {
    rules: groups.map((g, n) => ({ match: `^group ${n} `, skill: "~haiku-sg-", trigger_pattern: g.pattern })),
  };
  const figures = {};
  for (const allRuns of [true, false]) {
    const sim = await startSim({ script, latencyMs: 1000 });
    try {
      const started = Date.now();
      const summary = await runTriggers({
        skillPath: skill,
        workspace: join(root, allRuns ? "ws-all" : "ws-settled"),
        runs: 3,
        threshold: 0.5,
        concurrency: 6,
        timeoutSeconds: 60,
        retry,
        allRuns,
        createAgent: () => createAgent("claude-code", { simulatorUrl: sim.url }),
      });
      figures[allRuns ? "fixed" : "settled"] = {
        wallSeconds: (Date.now() - started) / 1000,
        runs: summary.records.length,
        modelRequests: sim.log.filter((e) => e.action !== "side-request").length,
        verdicts: summary.results.results.map((r) => r.pass),
      };
    } finally {
      await sim.close();
    }
  }
  const same = JSON.stringify(figures.fixed.verdicts) === JSON.stringify(figures.settled.verdicts);
  return {
    ...figures,
    wallRatio: figures.settled.wallSeconds / figures.fixed.wallSeconds,
    sameVerdicts: same,
  };
}

// (b) three iterations of `run` on examples/release-notes, with the store and with --fresh: model requests per round.
async function storeFigure() {
  const example = join(root, "release-notes");
  await cp(resolve("examples/release-notes"), example, { recursive: true });
  const script = await loadSimScript(join(example, "evals", "sim-script.json"));
  const rounds = {};
  for (const fresh of [true, false]) {
    const sim = await startSim({ script });
    const requests = [];
    try {
      for (let round = 1; round <= 3; round++) {
        const before = sim.log.length;
        await runPipeline({
          skillPath: example,
          workspace: join(root, fresh ? "rn-fresh" : "rn-store"),
          runs: 1,
          baseline: "without_skill",
          concurrency: 4,
          timeoutSeconds: 120,
          triggerRuns: 1,
          threshold: 0.5,
          triggerTimeoutSeconds: 60,
          retry,
          grade: true,
          gates: {},
          store: { judge: "sim", ...(fresh ? { fresh: true } : {}) },
          createAgent: () => createAgent("claude-code", { simulatorUrl: sim.url }),
          createGrader: async () => judgeGrader(await createJudge({ backend: "sim", simulatorUrl: sim.url })),
        });
        requests.push(sim.log.length - before);
      }
    } finally {
      await sim.close();
    }
    rounds[fresh ? "withoutStore" : "withStore"] = requests;
  }
  return rounds;
}

// (b') a 3-iteration tune, twice in one workspace, with the store and with --fresh: model requests per round. The
// improver rewrites SKILL.md in rounds 1 and 2, so every round measures a new version.
async function tuneFigure() {
  const skill = join(root, "greeter");
  await mkdir(join(skill, "evals"), { recursive: true });
  const md = (body) =>
    `---\nname: greeter\ndescription: Writes greeting cards. Use when asked for a greeting card.\n---\n\n${body}\n`;
  await writeFile(join(skill, "SKILL.md"), md("Write card.txt."));
  await writeFile(
    join(skill, "evals", "evals.json"),
    JSON.stringify({
      evals: [1, 2].map((id) => ({
        id,
        prompt: `Please make greeting card ${id} for Ada`,
        expectations: [],
        checks: [{ type: "file_contains", path: "card.txt", pattern: "Ada" }],
      })),
    }),
  );
  const improver = (round) => ({
    match: `tune iteration ${round}\\b`,
    skill: "none",
    without_skill: [
      { read: "greeter/SKILL.md" },
      {
        write: {
          path: "greeter/SKILL.md",
          content: md(`STEP-${round}: read the name, then write card.txt.`),
        },
      },
      { write: { path: `iteration-${round}-changes.md`, content: `- step ${round}\n` } },
    ],
  });
  const script = {
    rules: [
      improver(1),
      improver(2),
      { match: "greeting card", steps: [{ write: { path: "card.txt", content: "Hi Ada\n" } }] },
    ],
    judge: {
      rubric: {
        default: 60,
        when: [
          { match: "STEP-2", score: 80 },
          { match: "STEP-1", score: 70 },
        ],
      },
    },
  };
  const figures = {};
  for (const [name, fresh] of [
    ["fresh", true],
    ["store", false],
    ["storeAgain", false],
  ]) {
    const sim = await startSim({ script });
    const marks = [];
    try {
      await runTune({
        skillPaths: [skill],
        maxIterations: 3,
        threshold: 99,
        workspace: join(root, fresh ? "tune-fresh" : "tune-store"),
        runs: 2,
        concurrency: 4,
        timeoutSeconds: 60,
        retry,
        store: { judge: "sim", ...(fresh ? { fresh: true } : {}) },
        reporter: {
          onPhase: ({ round, phase }) => {
            if (phase === "execute") marks[round - 1] = sim.log.length;
          },
        },
        createAgent: () => createAgent("claude-code", { simulatorUrl: sim.url }),
        createJudge: () => createJudge({ backend: "sim", simulatorUrl: sim.url }),
      });
      marks.push(sim.log.length);
      figures[name] = marks.slice(1).map((end, i) => end - marks[i]);
    } finally {
      await sim.close();
    }
  }
  return figures;
}

try {
  const a = await triggerFigure();
  console.log(JSON.stringify({ a }, null, 2));
  const b = await storeFigure();
  console.log(JSON.stringify({ b }, null, 2));
  const tune = await tuneFigure();
  console.log(JSON.stringify({ tune }, null, 2));
} finally {
  await rm(root, { recursive: true, force: true });
}
