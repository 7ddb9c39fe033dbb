import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { e2eSeconds } from "./test/tiers/durations.js";
import { slowFirstSequencer } from "./test/tiers/slow-first-sequencer.js";

// `npm test`: the unit tests and the end-to-end tests of features that do not depend on which agent runs (driven by
// the test double of the claude binary, test/agent-double/). The real agent binaries: `npm run test:agents`
// (vitest.agents.config.ts, `*.agents.test.ts`); bubblewrap: `npm run test:sandbox` (`*.sandbox.test.ts`).
const apart = ["test/**/*.agents.test.ts", "test/**/*.sandbox.test.ts"];

export default defineConfig({
  test: {
    // One file more than there are cores: a file waiting on a timeout or a slow sim answer leaves the cores to the
    // others, and an e2e file's agent processes keep a core busy of their own. Each worker more imports the module
    // graph again (about 5 CPU-s per worker and project, measured 2026-11-27), which two files per core paid for
    // nothing on a 2-core machine where the suite is CPU-bound.
    maxWorkers: Number(process.env.SKILLGYM_TEST_WORKERS) || Math.max(2, availableParallelism() + 1),
    // The slowest e2e files first even on a fresh clone (CI), where vitest knows no durations and starts the largest
    // files first: a small file that runs for a minute would otherwise start near the end and run on alone.
    sequence: { sequencer: slowFirstSequencer(e2eSeconds) },
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          // Files share nothing but modules, and importing them again for every file cost three quarters of this
          // project's CPU time: one module graph per worker. No test may leave state behind in a module.
          isolate: false,
          exclude: ["test/**/*.e2e.test.ts", ...apart],
          // A limit for a hung test, not a speed test: a few unit tests start a process, which a busy 2-core machine
          // can take seconds to do.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/**/*.e2e.test.ts"],
          // The built CLI that tests run in their own process (test/cli/cli-in-process.ts) loads as node loads it.
          server: { deps: { external: [/\/dist\/cli-bundle\//] } },
          exclude: apart,
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
