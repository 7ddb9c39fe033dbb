#!/usr/bin/env node
// The mutation score of each folder of src/ from the committed incremental files (test/mutation/incremental/*.json):
// `node scripts/mutation-scores.mjs`. Where two files hold the same source file, the newer result is taken (by the
// time of the commit that last changed the incremental file, or its modification time if it has changes not yet
// committed: a fresh clone gives every file the same modification time), and only if it was made from the source as
// it is now. Score = (killed + timeout) / (killed + timeout + survived + no coverage).
// A survivor listed in test/mutation/left/ (scripts/mutation-left.mjs) is still counted as one, and also as "listed";
// `--unlisted` prints every survivor not listed, and entries that list no survivor are named at the end.
// A file no run has reached yet is counted in "mutants in files not yet run": what Stryker's instrumenter makes of it,
// before the type check drops some and `ignoreStatic` others, so an upper bound of what is left to measure.
import { execFileSync } from "node:child_process";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { Instrumenter } from "@stryker-mutator/instrumenter";
import { entryFor, originalOf, readLeft } from "./mutation-left.mjs";

const root = join(import.meta.dirname, "..");
const dir = join(root, "test", "mutation", "incremental");
const COUNTED = ["Killed", "Timeout", "Survived", "NoCoverage"];
const LEFT = ["Survived", "NoCoverage"];
const showUnlisted = process.argv.includes("--unlisted");
const left = await readLeft(join(root, "test", "mutation", "left"));
const used = new Set();
const unlisted = [];

async function sourceFiles(folder) {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(root, join(e.parentPath, e.name)).replaceAll("\\", "/"));
}

// When an incremental file's results were written: its last commit, unless it has changes since (then its mtime).
async function resultTime(file) {
  const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
  const changed = git("status", "--porcelain", "--", file) !== "";
  const committed = changed ? "" : git("log", "-1", "--format=%ct", "--", file);
  return committed === "" ? (await stat(file)).mtimeMs : Number(committed) * 1000;
}

const reports = [];
for (const name of (await readdir(dir)).filter((n) => n.endsWith(".json"))) {
  const file = join(dir, name);
  reports.push({ name, time: await resultTime(file), report: JSON.parse(await readFile(file, "utf8")) });
}
reports.sort((a, b) => b.time - a.time);

const results = new Map();
for (const path of await sourceFiles(join(root, "src"))) {
  const source = await readFile(join(root, path), "utf8");
  for (const { name, report } of reports) {
    const entry = report.files?.[path];
    if (!entry) continue;
    const counts = Object.fromEntries(COUNTED.map((s) => [s, 0]));
    let pending = 0;
    let listed = 0;
    for (const m of entry.mutants) {
      if (m.status in counts) counts[m.status]++;
      else if (m.status === "Pending") pending++;
      if (!LEFT.includes(m.status)) continue;
      const hit = entryFor(left, path, entry.source, m);
      if (hit) {
        listed++;
        used.add(hit);
      } else {
        const line = m.location.start.line;
        unlisted.push(
          `${path}:${line} ${m.status} ${m.mutatorName}: ${JSON.stringify(originalOf(entry.source, m))} -> ${JSON.stringify(m.replacement ?? "")}`,
        );
      }
    }
    results.set(path, { counts, pending, listed, from: name, stale: entry.source !== source });
    break;
  }
}

const emptyRow = () => ({
  files: 0,
  measured: 0,
  stale: 0,
  pending: 0,
  listed: 0,
  unrun: 0,
  ...Object.fromEntries(COUNTED.map((s) => [s, 0])),
});

const quiet = { debug() {}, info() {}, warn() {}, error() {}, isDebugEnabled: () => false };
const instrumenter = new Instrumenter(quiet);
async function mutantsIn(path) {
  const content = await readFile(join(root, path), "utf8");
  const options = { plugins: null, excludedMutations: [], ignorers: [] };
  const { mutants } = await instrumenter.instrument(
    [{ name: join(root, path), mutate: true, content }],
    options,
  );
  return mutants.length;
}

const folders = new Map();
for (const path of await sourceFiles(join(root, "src"))) {
  const folder = path.split("/").length > 2 ? path.split("/").slice(0, 2).join("/") : "src (top level)";
  const row = folders.get(folder) ?? emptyRow();
  row.files++;
  const r = results.get(path);
  if (r) {
    row.measured++;
    if (r.stale) row.stale++;
    for (const s of COUNTED) row[s] += r.counts[s];
    row.pending += r.pending;
    row.listed += r.listed;
  } else {
    row.unrun += await mutantsIn(path);
  }
  folders.set(folder, row);
}

const pct = (row) => {
  const caught = row.Killed + row.Timeout;
  const all = caught + row.Survived + row.NoCoverage;
  return all === 0 ? "—" : `${((100 * caught) / all).toFixed(1)}%`;
};
const total = emptyRow();
console.log(
  "| folder | files with results | of them changed since | killed | timeout | survived | no coverage | of those, listed as left | not yet tested | mutants in files not yet run | score |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
for (const [folder, row] of [...folders].sort(([a], [b]) => (a < b ? -1 : 1))) {
  for (const k of Object.keys(total)) total[k] += row[k];
  console.log(
    `| ${folder} | ${row.measured} of ${row.files} | ${row.stale} | ${row.Killed} | ${row.Timeout} | ${row.Survived} | ${row.NoCoverage} | ${row.listed} | ${row.pending} | ${row.unrun} | ${pct(row)} |`,
  );
}
console.log(
  `| **all of src/** | ${total.measured} of ${total.files} | ${total.stale} | ${total.Killed} | ${total.Timeout} | ${total.Survived} | ${total.NoCoverage} | ${total.listed} | ${total.pending} | ${total.unrun} | **${pct(total)}** |`,
);

console.log(`\n${unlisted.length} survivors neither killed nor listed in test/mutation/left/.`);
if (showUnlisted) for (const line of unlisted) console.log(`  ${line}`);
const unused = left.filter((e) => !used.has(e));
if (unused.length > 0) {
  console.log(
    `${unused.length} entries of test/mutation/left/ list no surviving mutant (killed since, or changed):`,
  );
  for (const e of unused)
    console.log(
      `  ${e.at}: ${e.file} ${e.mutator} ${JSON.stringify(e.original)} -> ${JSON.stringify(e.replacement)}`,
    );
}
