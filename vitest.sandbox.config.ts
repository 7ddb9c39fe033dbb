import { defineConfig } from "vitest/config";

// `npm run test:sandbox`: the tests that need bubblewrap (`bwrap`), apart so `npm test` runs on a machine without it.
export default defineConfig({
  test: {
    name: "sandbox",
    include: ["test/**/*.sandbox.test.ts"],
    // Each file in fresh modules (not one module graph per worker as in the other tiers): the sandbox reads which of
    // /etc's files are root-only once per process (src/sandbox/system-masks.ts), and test/sandbox/etc-masks makes new
    // ones that an earlier file's reading would not know.
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
