import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// `npm run test:agents`: the tests that drive the real agent binaries (Claude Code, Codex CLI, Gemini CLI, OpenCode,
// Copilot CLI) against the simulator: each agent's conformance suite and every feature at the agent boundary.
export default defineConfig({
  test: {
    name: "agents",
    include: ["test/**/*.agents.test.ts"],
    exclude: ["test/**/*.sandbox.test.ts"],
    // A real agent's start is CPU-bound: one file per core.
    maxWorkers: Number(process.env.SKILLGYM_TEST_WORKERS) || availableParallelism(),
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
