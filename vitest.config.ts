import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { npmTestSeconds } from "./test/tiers/durations.js";
import { slowFirstSequencer } from "./test/tiers/slow-first-sequencer.js";

// `npm test`: the unit tests and the end-to-end tests (`*.e2e.test.ts`) of features that do not depend on which agent
// runs (driven by the test double of the claude binary, test/agent-double/). The real agent binaries:
// `npm run test:agents` (vitest.agents.config.ts, `*.agents.test.ts`); bubblewrap: `npm run test:sandbox`
// (`*.sandbox.test.ts`). `npm run test:fast` leaves the end-to-end files out.
//
// One project for both: a project has its own module graph in each worker and its own transforms, which two projects
// paid twice over on a 2-core machine where the suite is CPU-bound.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/**/*.agents.test.ts", "test/**/*.sandbox.test.ts"],
    // One file more than there are cores: a file waiting on a timeout or a slow sim answer leaves the cores to the
    // others, and an e2e file's agent processes keep a core busy of their own. Each worker more imports the module
    // graph again (about 5 CPU-s per worker, measured 2026-11-27).
    maxWorkers: Number(process.env.SKILLGYM_TEST_WORKERS) || Math.max(2, availableParallelism() + 1),
    // Files share nothing but modules, and importing them again for every file cost three quarters of the unit tests'
    // CPU time: one module graph per worker. No test may leave state behind in a module.
    isolate: false,
    // One resident test double serves every agent run of the double (test/agent-double/resident.ts): a run then costs
    // a bash script's start, not a Node process's.
    globalSetup: ["./test/agent-double/global-setup.ts"],
    // The slowest e2e files first even on a fresh clone (CI), where vitest knows no durations and starts the largest
    // files first: a small file that runs for a minute would otherwise start near the end and run on alone.
    sequence: { sequencer: slowFirstSequencer(npmTestSeconds) },
    // The built CLI that tests run in their own process (test/cli/cli-in-process.ts) loads as node loads it.
    server: { deps: { external: [/\/dist\/cli-bundle\//] } },
    // A limit for a hung test, not a speed test: an e2e test runs the CLI several times, and a busy 2-core machine
    // can take seconds to start a process.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
