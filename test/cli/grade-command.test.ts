import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, useReleaseNotes } from "./command-fixture.js";
import { interrupted } from "./interrupted.js";

// `skillgym grade` in this process on an iteration of two models' eval runs the test double wrote.
const fixture = useReleaseNotes("eval");

let iteration: string;
beforeAll(async () => {
  const workspace = fixture.workspace("models");
  const written = await fixture.command("--workspace", workspace, "--only", "1", "--model", "m1,m2");
  expect(written.code, written.stderr).toBe(0);
  iteration = join(workspace, "iteration-1");
});

const grade = (...flags: string[]) => cli(["grade", iteration, ...flags]);
const TOTALS = "graded 2 runs, skipped 0 (already graded or errored), 0 failed; judge cost $0.0000";

describe("skillgym grade of several models' iteration", () => {
  it("prints each model's totals, and with --json the sum and each model's part", async () => {
    const text = await grade("--simulate", "--force");
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`m1: ${TOTALS}\nm2: ${TOTALS}\n`);
    const json = await grade("--simulate", "--force", "--json");
    expect(JSON.parse(json.stdout)).toMatchObject({
      graded: 4,
      skipped: 0,
      errors: [],
      agents: [
        { iteration_dir: join(iteration, "m1"), graded: 2 },
        { iteration_dir: join(iteration, "m2"), graded: 2 },
      ],
    });
  });

  it("says it is cancelling on Ctrl-C and marks the totals cancelled, exit 130", async () => {
    const result = await interrupted(() => grade("--simulate", "--force"));
    expect(result.code).toBe(130);
    expect(result.stderr).toContain("\ncancelling grading\n");
    expect(result.stdout).toMatch(/^cancelled: m1: graded /);
  });

  it("exits 3 when no run could be graded, naming each run's failure", async () => {
    // Nothing listens on the discard port: every request of the judge fails at once.
    const result = await grade(
      ...["--force", "--judge", "openai", "--judge-model", "gpt-x"],
      ...["--judge-base-url", "http://127.0.0.1:9"],
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `  ${join(iteration, "m1", "eval-basic", "with_skill", "run-1")}: grading failed: `,
    );
  });
});
