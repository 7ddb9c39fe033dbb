import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useJudgedIteration } from "../judges/judges-fixture.js";
import { cli } from "./command-fixture.js";

const judged = useJudgedIteration();

const judges = (...flags: string[]) => cli(["judges", judged.dir, "--no-reword", ...flags]);

describe("skillgym judges without --json", () => {
  it("prints each pair's agreement, the ambiguous expectations and where judges.json is", async () => {
    expect(await judges("--sim-script", judged.scriptFile, "--judge", "sim:strict,sim:lenient")).toEqual({
      code: 0,
      stdout:
        "7 runs re-graded by sim:strict, sim:lenient (simulated)\n" +
        "  sim:strict vs sim:lenient: 41.2% agree, κ -0.42 (95% CI -0.61 to -0.11), over 17 verdicts; 10 disagreements\n" +
        "  no grade marked right or wrong in feedback.json: no human agreement\n" +
        '  ambiguous: "beta is listed" (eval 1): sim:strict and sim:lenient disagree on 5 runs\n' +
        '  ambiguous: "gamma is correct" (eval 1): sim:strict and sim:lenient disagree on 5 runs\n' +
        `judges.json: ${join(judged.dir, "judges.json")}\n`,
      stderr: "",
    });
  });

  it("exits 3 when no judge gave a verdict, naming each run whose grading failed", async () => {
    // Nothing listens on the discard port: every request of the judge fails at once.
    const result = await judges("--judge", "openai:gpt-x", "--judge-base-url", "http://127.0.0.1:9");
    expect(result.code).toBe(3);
    // The runs are graded concurrently: their lines come in any order.
    const runs = result.stderr
      .trimEnd()
      .split("\n")
      .map(
        (line) =>
          /^ {2}openai:gpt-x on (\S+): grading failed: the judge \(gpt-x at http:\/\/127\.0\.0\.1:9\/chat\/completions\) failed: /.exec(
            line,
          )?.[1],
      )
      .sort();
    expect(runs).toEqual([
      "eval-1-with_skill-run-1",
      "eval-1-with_skill-run-2",
      "eval-1-with_skill-run-3",
      "eval-1-without_skill-run-1",
      "eval-1-without_skill-run-2",
      "eval-2-with_skill-run-1",
      "eval-2-with_skill-run-2",
    ]);
    expect(result.stdout).toContain("  openai:gpt-x failed on 7 runs, e.g. the judge (gpt-x at");
  });
});
