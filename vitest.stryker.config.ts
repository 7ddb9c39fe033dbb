import { defineConfig } from "vitest/config";

// StrykerJS runs these (stryker.config.mjs): the unit tests only, apart from vitest.config.ts so a change of test
// tiers there does not change what mutation testing runs. E2E, bubblewrap and real-agent tests are left out.
export default defineConfig({
  test: {
    name: "stryker",
    include: ["test/**/*.test.ts"],
    exclude: ["test/**/*.e2e.test.ts", "test/**/*.sandbox.test.ts", "test/**/*.agents.test.ts"],
    // One process for every test file of a mutant's run: starting one per file costs more than the tests. Static
    // mutants, which would need a fresh module, are left out (stryker.config.mjs).
    isolate: false,
    // The resident test double, as under `npm test`: the double's own program cannot be started from Stryker's copy of
    // the repository, which does not keep file modes (EACCES), and a resident run costs a bash start, not Node's.
    globalSetup: ["./test/agent-double/global-setup.ts"],
    // The tests' temporary folders apart from the runner's (test/mutation/own-tmpdir.ts).
    setupFiles: ["./test/mutation/own-tmpdir.ts"],
    // The in-process CLI tests (test/cli/cli-in-process.ts) load src/cli/main.ts, not the built bundle: Stryker's
    // mutants are in the source, so only then do those tests reach the commands' code.
    env: { SKILLGYM_CLI_FROM_SOURCE: "1" },
    // Stryker's instrumented code runs several times slower, on a shared machine at load 20 and more: a test past
    // Vitest's 5 s would fail the initial run, or count as killing a mutant it did not catch. Stryker itself
    // calls a mutant whose tests hang a timeout by its own clock (stryker.config.mjs, timeoutMS).
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
