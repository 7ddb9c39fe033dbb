import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { gradingHooks } from "../../src/grade/index.js";
import type { RunReporter } from "../../src/run/index.js";
import { fastRetry, runWithSim, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "greeter/SKILL.md": skillMd(
      "greeter",
      "Writes card.txt. Use when asked for a greeting card.",
      "Write card.txt.",
    ),
    "greeter/evals/evals.json": JSON.stringify({
      evals: [
        { id: 1, prompt: "Make a greeting card", checks: [{ type: "file_exists", path: "card.txt" }] },
        { id: 2, prompt: "Say hello", expectations: [] },
      ],
    }),
  });
});
afterEach(() => cleanup());

const script = SimScript.parse({
  rules: [{ match: "greeting card", steps: [{ write: { path: "card.txt", content: "Hello!\n" } }] }],
});

function recorder(): { events: string[]; reporter: RunReporter } {
  const events: string[] = [];
  const name = (runDir: string) => runDir.slice(runDir.indexOf("eval-"));
  return {
    events,
    reporter: {
      onRunStart: (spec) => events.push(`start ${name(spec.runDir)}`),
      onGradeStart: (spec) => events.push(`grade ${name(spec.runDir)}`),
      onGradeEnd: (spec, info) => events.push(`graded ${name(spec.runDir)}${info.failed ? " (failed)" : ""}`),
      onRunEnd: (record) =>
        events.push(`end ${name(record.spec.runDir)}${record.skipped ? " (earlier)" : ""}`),
    },
  };
}

describe("grading as its own phase in the run events", () => {
  it("tells the reporter when a run's grading starts and ends, between its start and its end", async () => {
    const { events, reporter } = recorder();
    const grading = gradingHooks({
      createGrader: () => Promise.reject(new Error("no expectations here: the judge is never asked")),
      reporter,
    });
    const options = {
      skillPath: join(dir, "greeter"),
      runs: 1,
      baseline: "none",
      concurrency: 1,
      timeoutSeconds: 60,
      retry: fastRetry,
      reporter,
      ...grading,
    };
    await runWithSim(script, options);
    const card = join("eval-1", "with_skill", "run-1");
    const hello = join("eval-2", "with_skill", "run-1");
    // eval-2 has nothing to grade: no grading phase.
    expect(events).toEqual([
      `start ${card}`,
      `grade ${card}`,
      `graded ${card}`,
      `end ${card}`,
      `start ${hello}`,
      `end ${hello}`,
    ]);

    // On resume every planned run still ends once, as one finished earlier.
    events.length = 0;
    await runWithSim(script, { ...options, resume: true });
    expect(events).toEqual([`end ${card} (earlier)`, `end ${hello} (earlier)`]);
  });
});
