#!/usr/bin/env node
// The mutation check: applies each mutation of mutations.mjs to a copy of the repository (the working tree is never
// touched), runs that mutation's test files there and records whether a test failed (killed) or none did (SURVIVED).
//
//   npm run mutate                      every mutation, from the working tree
//   npm run mutate -- --only a,b        the mutations with these ids
//   npm run mutate -- --head            from the last commit (git archive HEAD) instead of the working tree
//   npm run mutate -- --out FILE.md     also write the table to FILE.md
//   npm run mutate -- --keep            leave the copy in the temp folder and print where it is
//   npm run mutate -- --list            only check that every mutation applies and list its test files
//   npm run mutate -- --without A,B     leave these test files (patterns as in mutations.mjs) out of the copy:
//                                       what would survive without them
//
// Exit code: 0 when every mutation was killed, 1 when one survived, did not apply, or its tests failed unmutated.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { mutations } from "./mutations.mjs";

const repo = resolve(import.meta.dirname, "../..");
const COPIED = [
  "src",
  "test",
  "examples",
  "bin",
  "package.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "vitest.config.ts",
];
// A run that takes longer is stuck, not slow: 90 s a test file (and 5 minutes at least) on a loaded machine.
const runTimeoutMs = (files) => Math.max(5 * 60_000, files * 90_000);

function parseArgs(argv) {
  const args = { only: undefined, head: false, out: undefined, keep: false, list: false, without: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--only") args.only = new Set(argv[++i].split(","));
    else if (a === "--head") args.head = true;
    else if (a === "--out") args.out = argv[++i];
    else if (a === "--keep") args.keep = true;
    else if (a === "--list") args.list = true;
    else if (a === "--without") args.without = argv[++i].split(",");
    else throw new Error(`unknown argument ${a} (see the top of test/mutation/mutate.mjs)`);
  }
  return args;
}

function count(text, find) {
  let n = 0;
  for (let at = text.indexOf(find); at >= 0; at = text.indexOf(find, at + find.length)) n++;
  return n;
}

function makeCopy(head) {
  const copy = mkdtempSync(join(tmpdir(), "skillgym-mutate-"));
  if (head) {
    const archive = spawnSync("git", ["archive", "--format=tar", "HEAD", ...COPIED], {
      cwd: repo,
      maxBuffer: 1 << 30,
    });
    if (archive.status !== 0) throw new Error(`git archive failed: ${archive.stderr}`);
    const untar = spawnSync("tar", ["-x", "-C", copy], { input: archive.stdout });
    if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  } else {
    for (const name of COPIED)
      if (existsSync(join(repo, name))) cpSync(join(repo, name), join(copy, name), { recursive: true });
  }
  // node_modules: a folder of links, so the copy's caches (node_modules/.vite) stay in the copy.
  mkdirSync(join(copy, "node_modules"));
  for (const name of readdirSync(join(repo, "node_modules"))) {
    if (name === ".vite" || name === ".vitest") continue;
    symlinkSync(join(repo, "node_modules", name), join(copy, "node_modules", name));
  }
  return copy;
}

// dist/ as tsc would emit it, file by file (no type check: the e2e tests run the built CLI).
async function transpiler(copy) {
  const ts = (await import(join(repo, "node_modules", "typescript", "lib", "typescript.js"))).default;
  const options = {
    module: ts.ModuleKind.ES2022,
    target: ts.ScriptTarget.ES2022,
    verbatimModuleSyntax: true,
  };
  return (rel) => {
    const source = readFileSync(join(copy, rel), "utf8");
    const out = ts.transpileModule(source, { compilerOptions: options, fileName: rel }).outputText;
    const target = join(copy, "dist", relative("src", rel).replace(/\.ts$/, ".js"));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, out);
  };
}

function sourceFiles(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full, base);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [relative(base, full)] : [];
  });
}

// `*` matches within one segment; `*.test.ts` leaves out `.e2e.test.ts` unless the pattern names e2e, and the real
// agents' `.agents.test.ts` unless it names agents.
function expand(copy, pattern) {
  if (!pattern.includes("*")) return existsSync(join(copy, pattern)) ? [pattern] : [];
  const segments = pattern.split("/");
  let found = [""];
  for (const segment of segments) {
    const regex = new RegExp(`^${segment.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", "[^/]*")}$`);
    found = found.flatMap((dir) => {
      const full = join(copy, dir);
      if (!existsSync(full)) return [];
      return readdirSync(full)
        .filter((name) => regex.test(name))
        .map((name) => (dir ? `${dir}/${name}` : name));
    });
  }
  return found
    .filter((f) => pattern.includes("e2e") || !f.endsWith(".e2e.test.ts"))
    .filter((f) => pattern.includes(".agents.") || !f.endsWith(".agents.test.ts"))
    .sort();
}

// One Vitest for every run: its server starts once, and the mutated file is invalidated in its module graph.
async function openVitest(copy) {
  process.chdir(copy);
  process.env.CI = "1";
  const { createVitest } = await import(
    pathToFileURL(join(copy, "node_modules", "vitest", "dist", "node.js")).href
  );
  // Generous timeouts: on a loaded machine a unit test that starts the CLI takes more than 5 s, and a mutation
  // shows as a failed assertion, not as a slow test.
  const vitest = await createVitest("test", {
    root: copy,
    watch: false,
    reporters: [{}],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  });
  return {
    invalidate: (file) => vitest.invalidateFile(join(copy, file)),
    close: () => vitest.close(),
    async run(files, grep) {
      if (grep) vitest.setGlobalTestNamePattern(grep);
      else vitest.resetGlobalTestNamePattern();
      const timedOut = Symbol("timed out");
      let timer;
      const outcome = await Promise.race([
        vitest.runTestFiles(files.map((f) => join(copy, f))),
        new Promise((resolve) => {
          timer = setTimeout(() => resolve(timedOut), runTimeoutMs(files.length));
        }),
      ]);
      clearTimeout(timer);
      if (outcome === timedOut)
        throw new Error(
          `the tests of ${files.join(", ")} ran over ${runTimeoutMs(files.length) / 60_000} minutes`,
        );
      const wanted = new Set(files);
      const modules = outcome.testModules.filter((m) =>
        wanted.has(relative(copy, m.moduleId).replaceAll("\\", "/")),
      );
      let ran = 0;
      for (const m of modules)
        for (const t of m.children.allTests()) if (t.result().state === "passed") ran++;
      return {
        failed: modules.filter((m) => !m.ok()).map((m) => relative(copy, m.moduleId).replaceAll("\\", "/")),
        errors: outcome.unhandledErrors.map((e) => String(e?.message ?? e)),
        ran,
      };
    },
  };
}

function cell(text) {
  return String(text).replaceAll("|", "\\|").replaceAll("\n", " ");
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const selected = mutations.filter((m) => !args.only || args.only.has(m.id));
  const ids = new Set();
  for (const m of mutations) {
    if (ids.has(m.id)) throw new Error(`two mutations are named ${m.id}`);
    ids.add(m.id);
  }
  const started = Date.now();
  const out = args.out ? resolve(args.out) : undefined;
  const copy = makeCopy(args.head);
  for (const file of args.without.flatMap((pattern) => expand(copy, pattern))) rmSync(join(copy, file));
  process.stderr.write(`mutation check: ${selected.length} mutations, copy in ${copy}\n`);
  const plans = selected.map((m) => {
    const path = join(copy, m.file);
    const original = existsSync(path) ? readFileSync(path, "utf8") : undefined;
    const matches = original === undefined ? 0 : count(original, m.find);
    const files = [...new Set(m.tests.flatMap((t) => expand(copy, t)))];
    return {
      m,
      path,
      original,
      matches,
      files,
      built: files.some((f) => /\.(e2e|agents)\.test\.ts$/.test(f)),
    };
  });

  if (args.list) {
    for (const p of plans)
      process.stdout.write(
        `${p.m.id}: ${p.matches === 1 ? "applies" : `NOT APPLIED (${p.matches} matches)`}; ${p.files.join(", ") || "no test files"}\n`,
      );
    rmSync(copy, { recursive: true, force: true });
    process.exitCode = plans.every((p) => p.matches === 1 && p.files.length > 0) ? 0 : 1;
    return;
  }

  // dist/ as the copy's src would build it: the e2e tests and a few unit tests (two processes writing the store at
  // once) run the built code.
  const build = await transpiler(copy);
  for (const rel of sourceFiles(join(copy, "src"))) build(join("src", rel));
  process.stderr.write(`${Math.round((Date.now() - started) / 1000)}s dist/ built in the copy\n`);
  const vitest = await openVitest(copy);
  const results = new Array(plans.length);
  // Unit-tested mutations first, then the slower e2e ones.
  for (const phase of [plans.filter((p) => !p.built), plans.filter((p) => p.built)]) {
    if (phase.length === 0) continue;
    // The tests must pass unmutated; a file that fails already cannot kill anything.
    const baseline = new Map();
    const groups = new Map();
    for (const p of phase) {
      if (p.files.length === 0) continue;
      const key = p.m.grep ?? "";
      groups.set(key, new Set([...(groups.get(key) ?? []), ...p.files]));
    }
    for (const [grep, all] of groups) {
      // Ten files a run, so a stuck one is found among few and progress shows.
      const files = [...all];
      for (let at = 0; at < files.length; at += 10) {
        const chunk = files.slice(at, at + 10);
        const seconds = Math.round((Date.now() - started) / 1000);
        process.stderr.write(
          `${seconds}s baseline: test files ${at + 1}-${at + chunk.length} of ${files.length}${grep ? ` (-t ${grep})` : ""}\n`,
        );
        const run = await vitest.run(chunk, grep || undefined);
        const broken = run.errors.length > 0 && run.failed.length === 0;
        for (const f of chunk) baseline.set(`${grep}\0${f}`, !broken && !run.failed.includes(f));
      }
    }

    for (const p of phase) {
      const { m } = p;
      const i = plans.indexOf(p);
      let result;
      if (p.original === undefined) result = { status: "NOT APPLIED", detail: `${m.file} does not exist` };
      else if (p.matches !== 1)
        result = {
          status: "NOT APPLIED",
          detail:
            p.matches === 0 ? "find string no longer matches" : `find string matches ${p.matches} times`,
        };
      else if (p.files.length === 0) result = { status: "SURVIVED", detail: "no test file maps to it" };
      else {
        const failing = p.files.filter((f) => !baseline.get(`${m.grep ?? ""}\0${f}`));
        const files = p.files.filter((f) => !failing.includes(f));
        if (files.length === 0) result = { status: "BASELINE FAILS", detail: failing.join(", ") };
        else {
          writeFileSync(
            p.path,
            p.original.replace(m.find, () => m.replace),
          );
          vitest.invalidate(m.file);
          if (m.file.startsWith("src/")) build(m.file);
          try {
            const run = await vitest.run(files, m.grep);
            if (run.failed.length > 0) result = { status: "killed", detail: run.failed.join(", ") };
            else if (run.errors.length > 0)
              result = { status: "killed", detail: `an unhandled error: ${run.errors[0].split("\n")[0]}` };
            else if (run.ran === 0) result = { status: "SURVIVED", detail: "no test ran" };
            else result = { status: "SURVIVED", detail: `${files.length} test files passed` };
            if (failing.length > 0) result.detail += ` (left out, failing unmutated: ${failing.join(", ")})`;
          } finally {
            writeFileSync(p.path, p.original);
            vitest.invalidate(m.file);
            if (m.file.startsWith("src/")) build(m.file);
          }
        }
      }
      const at = Math.round((Date.now() - started) / 1000);
      process.stderr.write(`[${i + 1}/${plans.length}] ${at}s ${m.id}: ${result.status} ${result.detail}\n`);
      results[i] = { m, ...result };
    }
  }
  await vitest.close();

  const killed = results.filter((r) => r.status === "killed").length;
  const lines = [
    "| # | mutation | file | result |",
    "|---|---|---|---|",
    ...results.map(
      (r, i) =>
        `| ${i + 1} | ${cell(r.m.description)} (\`${r.m.id}\`) | ${r.m.file} | ${r.status === "killed" ? `killed by ${cell(r.detail)}` : `**${r.status}**: ${cell(r.detail)}`} |`,
    ),
    "",
    `${killed} of ${results.length} mutations killed; ${results.length - killed} not (${Math.round((Date.now() - started) / 1000)} s).`,
  ];
  const table = `${lines.join("\n")}\n`;
  process.stdout.write(table);
  if (out) writeFileSync(out, table);
  if (args.keep) process.stderr.write(`copy kept in ${copy}\n`);
  else rmSync(copy, { recursive: true, force: true });
  process.exitCode = killed === results.length ? 0 : 1;
}

await main();
