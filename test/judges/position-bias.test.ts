import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { positionBiasOf } from "../../src/judges/position-bias.js";
import { tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const side = { score: 5, strengths: [], weaknesses: [] };
const rubric = { content: {}, structure: {}, content_score: 3, structure_score: 3, overall_score: 6 };
const comparison = (bias: boolean) =>
  JSON.stringify({
    winner: "A",
    reasoning: "r",
    rubric: { A: rubric, B: rubric },
    output_quality: { A: side, B: side },
    position_bias: bias,
  });

describe("position bias", () => {
  it("reads only comparison-<n>.json in eval folders", async () => {
    await writeTree(dir, {
      "eval-1/comparison-1.json": comparison(true),
      "eval-1/comparison-12.json": comparison(false),
      "eval-1/old-comparison-2.json": comparison(true),
      "eval-1/comparison-3.json.bak": comparison(true),
      "eval-1/comparison-x.json": comparison(true),
      "eval-2/comparison-1.json": comparison(false),
      "notes/comparison-1.json": comparison(true),
    });
    expect(await positionBiasOf(dir)).toEqual({ comparisons: 3, biased: 1, rate: 1 / 3 });
  });

  it("is undefined for an iteration without comparisons, an empty eval folder included", async () => {
    await mkdir(join(dir, "eval-1"), { recursive: true });
    expect(await positionBiasOf(dir)).toBeUndefined();
  });
});
