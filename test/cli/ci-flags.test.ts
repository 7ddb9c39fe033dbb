import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reportToCi } from "../../src/cli/ci-flags.js";
import { captureIo } from "../../src/cli/io.js";
import { tempDir } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const gates = [
  { name: "min-pass-rate", passed: false, message: "pass rate 50% < 80%" },
  { name: "min-trigger-accuracy", passed: true, message: "accuracy 90%" },
];

describe("reportToCi", () => {
  it("on GitHub Actions, prints an annotation per failed gate and appends the step summary", async () => {
    const io = captureIo();
    const summary = join(dir, "summary.md");
    await reportToCi(io, dir, "demo", {}, gates, { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary });
    expect(io.stdout()).toBe("::error title=skillgym gate min-pass-rate::pass rate 50%25 < 80%25\n");
    expect(await readFile(summary, "utf8")).toBe(
      `## skillgym: demo\n\nIteration: \`${dir}\`\n\n` +
        "- ❌ gate min-pass-rate: pass rate 50% < 80%\n- ✅ gate min-trigger-accuracy: accuracy 90%\n\n",
    );
  });

  it("writes JUnit XML with --junit, and annotates nothing off GitHub Actions", async () => {
    const io = captureIo();
    const junit = join(dir, "junit.xml");
    await reportToCi(io, dir, "demo", { junit }, gates, { GITHUB_ACTIONS: "1" });
    expect(io.stdout()).toBe("");
    expect(await readFile(junit, "utf8")).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="skillgym demo">\n\n</testsuites>\n',
    );
  });
});
