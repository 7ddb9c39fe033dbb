import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { withSuiteConditions } from "../../src/triggers/suite-options.js";
import { tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
const evals = (conditions: unknown) =>
  JSON.stringify({ conditions, evals: [{ id: 1, prompt: "Tell me what changed", expectations: [] }] });
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "all/evals/evals.json": evals({
      project_root: "../project",
      installed: ["../library"],
      context: "context.json",
      side_by_side: true,
    }),
    "alone/evals/evals.json": evals({ side_by_side: true }),
    "apart/evals/evals.json": evals({ installed: ["../library"], side_by_side: false }),
    "none/evals/evals.json": JSON.stringify({ evals: [] }),
  });
});
afterAll(() => cleanup());

const suite = (name: string) => ({ dir: join(dir, name, "evals") });
// Trigger options beside the conditions (here the run count) pass through as they are.
interface Given {
  runs?: number;
  project?: string;
  installed?: string[];
  context?: string;
  conditions?: { clean: boolean; real: boolean };
}
const given = (options: Given): Given => options;

describe('the suite\'s "conditions" under the trigger options', () => {
  it("fill in what the command line left out, paths from the folder of evals.json", async () => {
    expect(await withSuiteConditions(given({ runs: 1 }), suite("all"))).toEqual({
      runs: 1,
      project: join(dir, "all", "project"),
      installed: [join(dir, "all", "library")],
      context: join(dir, "all", "evals", "context.json"),
      conditions: { clean: true, real: true },
    });
    expect(await withSuiteConditions(given({ runs: 1 }), suite("apart"))).toEqual({
      runs: 1,
      installed: [join(dir, "apart", "library")],
    });
  });

  it("give way to a flag of the same name", async () => {
    const flags = {
      project: "/p",
      installed: ["/l"],
      context: "/c.json",
      conditions: { clean: false, real: true },
    };
    expect(await withSuiteConditions(flags, suite("all"))).toEqual(flags);
  });

  it("leave the options as they are with no conditions field, or no evals.json", async () => {
    const options = given({ runs: 2 });
    expect(await withSuiteConditions(options, suite("none"))).toBe(options);
    expect(await withSuiteConditions(options, suite("missing"))).toBe(options);
  });

  it("refuse side_by_side with nothing to be real with, naming the file and the field, unless --conditions chose", async () => {
    const error = await withSuiteConditions({}, suite("alone")).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SkillgymError);
    expect((error as SkillgymError).message).toContain(
      `${join(dir, "alone", "evals", "evals.json")}: conditions.side_by_side: "real" needs a condition`,
    );
    const chosen = { conditions: { clean: true, real: false } };
    expect(await withSuiteConditions(chosen, suite("alone"))).toEqual(chosen);
  });
});
