import { defineConfig } from "vitest/config";

// StrykerJS runs these (stryker.config.mjs): the unit tests only, apart from vitest.config.ts so a change of test
// tiers there does not change what mutation testing runs. E2E, bubblewrap and real-agent tests are left out.
export default defineConfig({
  test: {
    name: "stryker",
    include: ["test/**/*.test.ts"],
    exclude: ["test/**/*.e2e.test.ts", "test/**/*.sandbox.test.ts", "test/**/*.agents.test.ts"],
    // Isolation stays on (Vitest's default), though a process per test file is slow: without it a module is not loaded
    // anew, and a static mutant (a table or a constant evaluated on import) would survive without being tested.
  },
});
