import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { envPassedBy, sandboxAskedBy } from "../../src/suite/suite-settings.js";
import { tempDir, writeTree } from "./tree.js";

let dir: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.remove();
});

const evals = [{ id: 1, prompt: "tidy the notes" }];

describe("sandboxAskedBy", () => {
  test('is true for a suite folder whose evals.json says "sandbox": true', async () => {
    await writeTree(dir.path, { "evals/evals.json": { sandbox: true, evals } });
    expect(await sandboxAskedBy(join(dir.path, "evals"))).toBe(true);
  });

  test("reads an evals file given by its path", async () => {
    await writeTree(dir.path, { "evals/tidy-evals.json": { sandbox: true, evals } });
    expect(await sandboxAskedBy(join(dir.path, "evals/tidy-evals.json"))).toBe(true);
  });

  test("skips a byte-order mark at the start of the file", async () => {
    await writeTree(dir.path, { "evals/evals.json": `\uFEFF${JSON.stringify({ sandbox: true, evals })}` });
    expect(await sandboxAskedBy(join(dir.path, "evals"))).toBe(true);
  });

  test("reads nothing from a file with a byte-order mark past its start", async () => {
    await writeTree(dir.path, { "evals/evals.json": `{\uFEFF"sandbox": true}` });
    expect(await sandboxAskedBy(join(dir.path, "evals"))).toBe(false);
  });

  test('is false when "sandbox" is false, missing or not a boolean', async () => {
    await writeTree(dir.path, {
      "off/evals.json": { sandbox: false, evals },
      "unsaid/evals.json": { evals },
      "quoted/evals.json": { sandbox: "true", evals },
    });
    expect(await sandboxAskedBy(join(dir.path, "off"))).toBe(false);
    expect(await sandboxAskedBy(join(dir.path, "unsaid"))).toBe(false);
    expect(await sandboxAskedBy(join(dir.path, "quoted"))).toBe(false);
  });

  test("is false when there is no evals.json or it is not JSON", async () => {
    await writeTree(dir.path, { "empty/": null, "broken/evals.json": '{"sandbox": true,' });
    expect(await sandboxAskedBy(join(dir.path, "empty"))).toBe(false);
    expect(await sandboxAskedBy(join(dir.path, "broken"))).toBe(false);
  });
});

describe("envPassedBy", () => {
  test("lists the variables the suite's evals.json passes on", async () => {
    await writeTree(dir.path, { "evals/evals.json": { env: ["API_TOKEN", "HOME_DIR"], evals } });
    expect(await envPassedBy(join(dir.path, "evals"))).toEqual(["API_TOKEN", "HOME_DIR"]);
  });

  test("lists none when the suite lists none", async () => {
    await writeTree(dir.path, { "evals/evals.json": { evals } });
    expect(await envPassedBy(join(dir.path, "evals"))).toEqual([]);
  });

  test("lists none when a listed name is not a variable name, or there is no evals.json", async () => {
    await writeTree(dir.path, {
      "evals/evals.json": { env: ["API_TOKEN", "9LIVES"], evals },
      "empty/": null,
    });
    expect(await envPassedBy(join(dir.path, "evals"))).toEqual([]);
    expect(await envPassedBy(join(dir.path, "empty"))).toEqual([]);
  });
});
