import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JudgesReport } from "../../src/contracts/judges.js";
import type { TempIteration } from "../bench/iteration-fixture.js";
import { skillgym } from "../cli/cli-process.js";
import { judgedIteration, script } from "./judges-fixture.js";

let iteration: TempIteration;
let scriptFile: string;

beforeAll(async () => {
  iteration = await judgedIteration();
  scriptFile = join(iteration.dir, "..", "judges-script.json");
  await writeFile(scriptFile, JSON.stringify(script));
});
afterAll(async () => {
  await iteration.cleanup();
});

describe("skillgym judges through the built CLI", () => {
  it("writes judges.json, prints the agreement, and gates on it", () => {
    const args = ["judges", iteration.dir, "--judge", "sim:strict,sim:lenient", "--sim-script", scriptFile];
    const failed = skillgym([...args, "--min-judge-agreement", "0.5"]);
    expect(failed.stdout).toMatch(/sim:strict vs sim:lenient: 41\.2% agree, κ -0\.42 \(95% CI/);
    expect(failed.stdout).toContain('ambiguous: "beta is listed" (eval 1)');
    expect(failed.stdout).toMatch(/FAIL min-judge-agreement: lowest judge agreement 41\.2%/);
    expect(failed.code).toBe(1);
    expect(skillgym([...args, "--min-judge-agreement", "0.4", "--no-reword"]).code).toBe(0);
  });

  it("prints judges.json's schema", async () => {
    const schema = skillgym(["schema", "judges"]);
    expect(schema.code).toBe(0);
    expect(JSON.parse(schema.stdout)).toMatchObject({ title: "skillgym judges" });
    JudgesReport.parse(JSON.parse(await readFile(join(iteration.dir, "judges.json"), "utf8")));
  });
});
