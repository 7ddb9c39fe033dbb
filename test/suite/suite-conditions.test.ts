import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { suiteConditions } from "../../src/suite/suite-conditions.js";
import { tempDir, writeTree } from "./tree.js";

let dir: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.remove();
});

const evals = [{ id: 1, prompt: "tidy the notes" }];
const hint =
  'conditions takes "project_root" (a folder), "installed" (a list of folders), "context" (a file) and "side_by_side" (true or false), paths relative to evals.json';

async function errorOf(conditions: unknown): Promise<SkillgymError> {
  await writeTree(dir.path, { "evals/evals.json": { conditions, evals } });
  const error = await suiteConditions({ dir: join(dir.path, "evals") }).catch((e: unknown) => e);
  if (!(error instanceof SkillgymError)) throw new Error("expected a SkillgymError");
  return error;
}

describe("suiteConditions", () => {
  test("resolves every path relative to the folder of evals.json", async () => {
    await writeTree(dir.path, {
      "evals/evals.json": {
        conditions: {
          project_root: "../proj",
          installed: ["skills", "/opt/skills"],
          context: "chat.json",
        },
        evals,
      },
    });
    expect(await suiteConditions({ dir: join(dir.path, "evals") })).toStrictEqual({
      file: join(dir.path, "evals/evals.json"),
      projectRoot: join(dir.path, "proj"),
      installed: [join(dir.path, "evals/skills"), "/opt/skills"],
      context: join(dir.path, "evals/chat.json"),
    });
  });

  test("reads the evals file given, skipping a byte-order mark, and leaves out the conditions it does not name", async () => {
    const file = join(dir.path, "suites/tidy.json");
    await writeTree(dir.path, {
      "suites/tidy.json": `\uFEFF${JSON.stringify({ conditions: { side_by_side: true }, evals })}`,
    });
    expect(await suiteConditions({ dir: dir.path, evalsFile: file })).toStrictEqual({
      file,
      sideBySide: true,
    });
  });

  test("is nothing when there is no evals.json, it is not JSON, or it names no conditions", async () => {
    await writeTree(dir.path, {
      "empty/": null,
      "broken/evals.json": '{"conditions": {}',
      "inner-mark/evals.json": `{\uFEFF"conditions": {"side_by_side": true}}`,
      "none/evals.json": { evals },
      "list/evals.json": [{ conditions: { side_by_side: true } }],
    });
    for (const folder of ["empty", "broken", "inner-mark", "none", "list"])
      expect(await suiteConditions({ dir: join(dir.path, folder) })).toBeUndefined();
  });

  test("refuses a wrong field, naming the file and the field's path", async () => {
    const error = await errorOf({ installed: ["skills", 3] });
    expect(error.code).toBe("INVALID_SUITE");
    expect(error.file).toBe(join(dir.path, "evals/evals.json"));
    expect(error.hint).toBe(hint);
    expect(error.message).toBe(
      `${join(dir.path, "evals/evals.json")}: conditions.installed[1]: Invalid input: expected string, received number`,
    );
  });

  test("refuses unknown fields, listing them", async () => {
    const error = await errorOf({ side_by_side: true, projectRoot: ".", extra: 1 });
    expect(error.message).toBe(
      `${join(dir.path, "evals/evals.json")}: conditions: Unrecognized keys: "projectRoot", "extra" (projectRoot, extra)`,
    );
  });
});
