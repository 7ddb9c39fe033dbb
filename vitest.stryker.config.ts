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
  },
});
