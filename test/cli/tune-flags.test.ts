import { describe, expect, it } from "vitest";
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
});
