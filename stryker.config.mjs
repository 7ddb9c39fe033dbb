// Mutation testing of src/ with StrykerJS: `npm run test:mutation` (docs/contributing.md, "Mutation testing").

// A run over part of src/ (`-- --mutate "src/store/**/*.ts"`) keeps its own incremental file, because Stryker
// rewrites the file with only the mutants of the run: one folder's run would otherwise drop every other folder's.
function incrementalFile(argv) {
  const at = argv.findIndex((arg) => arg === "--mutate" || arg === "-m" || arg.startsWith("--mutate="));
  if (at === -1) return "test/mutation/incremental/src.json";
  const patterns = argv[at].startsWith("--mutate=")
    ? argv[at].slice("--mutate=".length)
    : (argv[at + 1] ?? "");
  const name = patterns
    .replaceAll("src/", "")
    .replaceAll("/**/*.ts", "")
    .replaceAll(".ts", "")
    .replace(/[^a-zA-Z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `test/mutation/incremental/${name || "src"}.json`;
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  // Not marked-processes.ts: its mutants (the environment check as `true`) SIGKILL every process the run can see, the
  // machine's own services with them. Its mutants are applied by hand, each test run in a PID namespace of its own
  // (docs/contributing.md, "Mutation testing").
  mutate: ["src/**/*.ts", "!src/agents/process/marked-processes.ts"],
  testRunner: "vitest",
  // forks, not threads: some unit tests change the working directory, which a worker thread may not.
  vitest: { configFile: "vitest.stryker.config.ts", pool: "forks" },
  checkers: ["typescript"],
  // src/ only: the checker then answers faster, and a mutant is refused for a type error in the code, not in a test.
  tsconfigFile: "tsconfig.stryker.json",
  coverageAnalysis: "perTest",
  // Static mutants (in code run on import: a table, a constant) are left out. Each needs every test run again in
  // fresh modules, and under Vitest 4.1 here even then one that a test provably catches (a store write racing on
  // ENOTEMPTY) survived: their results could not be trusted.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: incrementalFile(process.argv),
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  // The terminal lists each surviving mutant with its diff; the table leaves out files where every mutant was killed.
  clearTextReporter: { reportMutants: true, reportTests: false, skipFull: true },
  // Two shared cores: one test runner; `--concurrency 2` on an idle machine.
  concurrency: 1,
  // A busy machine runs slow: a mutant is called a timeout only well past its normal time.
  timeoutMS: 20_000,
  dryRunTimeoutMinutes: 30,
  ignorePatterns: [".bench", "coverage", "*-workspace", "/reports", "test/mutation/incremental"],
  thresholds: { high: 90, low: 85, break: null },
};
