import { defineConfig } from "rolldown";

// The CLI as one bundle (dist/cli-bundle/), its dependencies inside: a `skillgym` process then loads a handful of
// files instead of some 350 modules, about a third of the start-up CPU (docs/performance.md, "Start-up"). The
// library (`dist/index.js`, package.json's exports) stays tsc's one file per module.
export default defineConfig({
  input: "dist/cli/main.js",
  platform: "node",
  output: { dir: "dist/cli-bundle", format: "esm" },
});
