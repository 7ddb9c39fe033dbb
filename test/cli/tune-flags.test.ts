import { describe, expect, it } from "vitest";
import { judgeBackends } from "../../src/judge/create.js";
import { cli } from "./command-fixture.js";

describe("skillgym tune's flags", () => {
  it("needs a skill folder, or --resume", async () => {
    expect(await cli(["tune"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "skillgym: tune needs a skill folder, or --resume DIR\n  fix: skillgym tune path/to/skill [-y]\n",
    });
  });

  it.each([
    ["--preset <name>", "fast", "expected one of quick, standard, thorough"],
    ["--threshold <score>", "101", "expected a number from 0 to 100"],
    ["--threshold <score>", "-1", "expected a number from 0 to 100"],
  ])("refuses %s %s", async (option, value, why) => {
    const flag = option.split(" ")[0] as string;
    expect(await cli(["tune", "skill", `${flag}=${value}`])).toEqual({
      code: 2,
      stdout: "",
      stderr: `error: option '${option}' argument '${value}' is invalid. ${why}\n(see \`skillgym tune --help\`)\n`,
    });
  });

  it.each(["0", "100"])("takes --threshold %s, the ends of the range", async (value) => {
    const result = await cli(["tune", "/nowhere/greeter", `--threshold=${value}`]);
    expect(result.code).toBe(2);
    // Past the option's check: the skill folder is what is refused.
    expect(result.stderr).toMatch(
      /^skillgym: the skill is not valid:\n {2}error: \/nowhere\/greeter: no such skill folder\n/,
    );
  });

  it("describes who grades and who evaluates in its help", async () => {
    const help = await cli(["help", "tune"]);
    expect(help.code).toBe(0);
    // Commander wraps a long description onto indented lines: compare the words.
    const words = help.stdout.replace(/\s+/g, " ");
    expect(words).toContain(
      " --judge <backend> who grades expectations (and evaluates, unless --evaluator): claude-code, ",
    );
    expect(words).toContain(
      ` --evaluator <backend> who scores the rubric in the evaluate phase: ${judgeBackends.join(", ")} (default: the --judge) `,
    );
  });
});
