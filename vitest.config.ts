import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: ["test/**/*.e2e.test.ts", "test/**/*.sandbox.test.ts"],
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/**/*.e2e.test.ts"],
          // The bubblewrap tests run apart: `npm run test:sandbox` (vitest.sandbox.config.ts).
          exclude: ["test/**/*.sandbox.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
