import { describe, expect, it } from "vitest";
import { formatNames } from "../../src/contracts/registry.js";
import { cli } from "./command-fixture.js";

describe("a command's help", () => {
  it.each([
    [
      "bench",
      "iteration-dir",
      "an iteration folder written by `skillgym eval`, e.g. <skill>-workspace/iteration-1",
    ],
    ["diff", "iteration-a", "the earlier iteration, e.g. main's, downloaded as an artifact"],
    ["diff", "iteration-b", "the later iteration; diff.json and diff.md are written into it"],
    ["init", "dir", "the skill folder to create (its name is the skill's name)"],
    ["judges", "iteration-dir", "an iteration folder written by `skillgym eval` or `run`"],
    ["package", "skill", "the skill folder"],
    ["schema", "name", `one of: ${formatNames.join(", ")}`],
    [
      "view",
      "folder",
      "a skill's workspace (every iteration) or one iteration-<N> folder; with --triggers, the skill",
    ],
  ])("of %s describes its argument %s", async (command, argument, description) => {
    const help = await cli(["help", command]);
    expect(help.code).toBe(0);
    // Commander wraps a long description onto indented lines: compare the words.
    const words = help.stdout.replace(/\s+/g, " ");
    expect(words).toContain(` ${argument} ${description} `);
  });

  it("of sim says what a suite's sim-script.json does and where to see one", async () => {
    const help = await cli(["help", "sim"]);
    expect(help.code).toBe(0);
    // After the options, a blank line, the text, and the blank line Commander ends help with.
    expect(
      help.stdout.endsWith(
        "\n\nA suite's sim-script.json (beside evals.json) tells --simulate what each run does; without one, runs only\n" +
          "load the skill and answer 'Done', so pass rates mean nothing. See examples/*/evals/sim-script.json and\n" +
          "`skillgym schema sim-script`.\n\n",
      ),
    ).toBe(true);
  });
});
