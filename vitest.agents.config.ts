import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { agentsTierSeconds } from "./test/tiers/durations.js";
import { slowFirstSequencer } from "./test/tiers/slow-first-sequencer.js";

// `npm run test:agents`: the tests that drive the real agent binaries (Claude Code, Codex CLI, Gemini CLI, OpenCode,
// Copilot CLI) against the simulator: each agent's conformance suite and every feature at the agent boundary.
export default defineConfig({
  test: {
    name: "agents",
    include: ["test/**/*.agents.test.ts"],
    exclude: ["test/**/*.sandbox.test.ts"],
    // A real agent's start is CPU-bound: one file per core.
    maxWorkers: Number(process.env.SKILLGYM_TEST_WORKERS) || availableParallelism(),
    // One module graph per worker, not one per file (as in vitest.config.ts): importing it again for each of these
    // files cost about 100 CPU-s of the tier. No test may leave state behind in a module.
    isolate: false,
    // The slowest files first even on a fresh clone (CI), where vitest knows no durations and would start the short
    // conformance files, minutes each, last.
    sequence: { sequencer: slowFirstSequencer(agentsTierSeconds) },
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
