import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// `npm run test:sandbox`: the tests that need bubblewrap (`bwrap`), apart so `npm test` runs on a machine without it.
export default defineConfig({
  test: {
    name: "sandbox",
    include: ["test/**/*.sandbox.test.ts"],
    // Each file in fresh modules (not one module graph per worker as in the other tiers): the sandbox reads which of
    // /etc's files are root-only once per process (src/sandbox/system-masks.ts), and test/sandbox/etc-masks makes new
    // ones that an earlier file's reading would not know.
    // A file per core: these files mostly wait on sandboxed processes (76 CPU-s in 345 s, 2026-11-27; 191 s on two), and vitest's
    // default of one worker fewer than the cores ran them one after another on two.
    maxWorkers: Number(process.env.SKILLGYM_TEST_WORKERS) || Math.max(2, availableParallelism()),
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
