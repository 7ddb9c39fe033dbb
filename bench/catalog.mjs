// `npm run bench:catalog`: a catalog of 10 skills × 5 queries × 2 runs with the real agent against skillgym sim, at
// concurrency 6, set against the ideal (one run's time alone × runs ÷ concurrency), with the harness's peak memory;
// and the routing matrix of 100 synthetic skills computed from 1 000 attributed runs. Needs the build.
// BENCH_AGENTS picks agents (default claude-code); BENCH_LATENCY_MS the sim's latency per model call (default 1000).
import { join } from "node:path";
import { renderCatalogMarkdown } from "../dist/catalog/index.js";
import { catalogMatrix, createAgent, runCatalog, startSim } from "../dist/index.js";
import { fmt, memorySampler, tempDir, writeTree } from "./lib.mjs";

const SKILLS = 10;
const QUERIES = 5;
const RUNS = 2;
const CONCURRENCY = 6;
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 1000);
const agents = (process.env.BENCH_AGENTS ?? "claude-code").split(",");
const log = (line) => process.stdout.write(`${line}\n`);

const name = (i) => `tool${String.fromCharCode(97 + i)}`;

// Skill i's queries 0–2 fire skill i, query 3 fires its neighbour, query 4 (should not trigger) fires none.
function library() {
  const tree = {};
  const rules = [];
  for (let i = 0; i < SKILLS; i++) {
    const skill = name(i);
    tree[`${skill}/SKILL.md`] =
      `---\nname: ${skill}\ndescription: Handles ${skill} jobs. Use when the user asks for ${skill}.\n---\n\nDo the ${skill} job.\n`;
    const queries = Array.from({ length: QUERIES }, (_, q) => ({
      query: `catalog bench ${skill} q${q}: please help`,
      should_trigger: q < 4,
    }));
    tree[`${skill}/evals/triggers.json`] = JSON.stringify(queries);
    for (let q = 0; q < QUERIES; q++) {
      const target = q < 3 ? skill : q === 3 ? name((i + 1) % SKILLS) : undefined;
      rules.push({
        match: `^catalog bench ${skill} q${q}:`,
        skill: target ? `~${target}-sg-` : "none",
        ...(target ? {} : { without_skill: [{ text: "No skill needed." }] }),
      });
    }
  }
  return { tree, script: { rules } };
}

async function measure(agentName, dir, script, options) {
  const sim = await startSim({ script, latencyMs });
  const memory = memorySampler();
  const started = Date.now();
  try {
    const summary = await runCatalog({
      dir,
      workspace: join(dir, "..", `ws-${agentName}-${options.concurrency}`),
      runs: options.runs,
      ...(options.only ? { only: options.only } : {}),
      concurrency: options.concurrency,
      timeoutSeconds: 120,
      createAgent: () => createAgent(agentName, { simulatorUrl: sim.url }),
    });
    return { summary, wallMs: Date.now() - started, peak: memory.stop() };
  } finally {
    await sim.close();
  }
}

function expectedConfusion() {
  const confusion = {};
  for (let i = 0; i < SKILLS; i++) {
    confusion[name(i)] = { [name(i)]: 3 * RUNS, [name((i + 1) % SKILLS)]: RUNS };
    confusion[`not:${name(i)}`] = { none: RUNS };
  }
  return confusion;
}

log(
  `\n## catalog (${SKILLS} skills × ${QUERIES} queries × ${RUNS} runs, concurrency ${CONCURRENCY}, sim latency ${latencyMs} ms)\n`,
);
log(
  "| agent | runs | alone s/run | wall s | ideal s | wall / ideal | matrix as scripted | errors | harness peak MiB |",
);
log("|---|---|---|---|---|---|---|---|---|");
const { dir, cleanup } = await tempDir();
try {
  const { tree, script } = library();
  const libraryDir = join(dir, "library");
  await writeTree(libraryDir, tree);
  for (const agentName of agents) {
    const alone = await measure(agentName, libraryDir, script, { runs: 1, concurrency: 1, only: [name(0)] });
    const perRun = alone.wallMs / alone.summary.results.runs.length;
    const full = await measure(agentName, libraryDir, script, { runs: RUNS, concurrency: CONCURRENCY });
    const count = full.summary.results.runs.length;
    const idealMs = (count * perRun) / CONCURRENCY;
    const exact =
      JSON.stringify(sortKeys(full.summary.results.confusion)) ===
      JSON.stringify(sortKeys(expectedConfusion()));
    log(
      `| ${agentName} | ${count} | ${fmt(perRun / 1000)} | ${fmt(full.wallMs / 1000, 1)} | ${fmt(idealMs / 1000, 1)} | ` +
        `${fmt(full.wallMs / idealMs)}× | ${exact ? "yes" : "NO"} | ${full.summary.results.errors} | ${fmt(full.peak, 0)} |`,
    );
  }
} finally {
  await cleanup();
}

function sortKeys(value) {
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys(value[k])]),
  );
}

// The matrix alone: 100 skills, 5 queries each, 2 runs, every run attributed (a tenth to a neighbour, a tenth to none).
const many = Array.from({ length: 100 }, (_, i) => ({
  name: `skill-${i}`,
  path: `/skills/skill-${i}`,
  queries: 5,
}));
const runs = many.flatMap((s, i) =>
  Array.from({ length: 10 }, (_, k) => ({
    owner: s.name,
    query: `${s.name} query ${k % 5}`,
    should_trigger: k % 5 !== 4,
    run_number: k < 5 ? 1 : 2,
    fired: k % 10 === 3 ? `skill-${(i + 1) % 100}` : k % 10 === 9 ? "none" : s.name,
    loaded: [],
    outcome: "stopped",
    dir: `${s.name}/query-${(k % 5) + 1}/run-${k < 5 ? 1 : 2}`,
  })),
);
const started = performance.now();
const matrix = catalogMatrix(many, runs);
const matrixMs = performance.now() - started;
const mdStarted = performance.now();
renderCatalogMarkdown({
  dir: "/skills",
  agent: { name: "bench" },
  simulated: true,
  runs_per_query: 2,
  ...matrix,
  runs,
  notes: [],
});
const markdownMs = performance.now() - mdStarted;
log(
  `\nMatrix of ${many.length} skills from ${runs.length} runs: ${fmt(matrixMs, 1)} ms (${matrix.pairs.length} pairs); ` +
    `catalog.md: ${fmt(markdownMs, 1)} ms.`,
);
