import { defineConfig } from "vitest/config";

// `npm run test:sandbox`: the tests that need bubblewrap (`bwrap`), apart so `npm test` runs on a machine without it.
export default defineConfig({
  test: {
    name: "sandbox",
    include: ["test/**/*.sandbox.test.ts"],
    // One module graph per worker, not one per file (as in vitest.config.ts).
    isolate: false,
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
